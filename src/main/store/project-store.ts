// The typed repository over one project file: what the API handlers, the CLI and the
// import/export pipelines call. Every write runs in a transaction.
import type { PairStatus, Split } from '../../shared/domain.ts';
import { PAIR_STATUSES } from '../../shared/domain.ts';
import type { PairFilter, ProjectInfo } from '../../shared/api.ts';
import type { PairDetail, PairSummary } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import { listAlignments, linksOfPair, rejectedOfPair } from './alignments.ts';
import { openDatabase, type Db } from './database.ts';
import { recordEdit, redo, undo, type PairPatch } from './edits.ts';
import { countPairs, getPairRow, listPairs, summaryOf, type PageStart } from './pairs.ts';
import { finishImport } from './imports.ts';
import { linkTags } from './link-tags.ts';
import { relabelWordLists } from './word-lists.ts';
import { annotatorsShare } from './annotation-mode.ts';
import { encoderDir } from './encoder-folder.ts';
import { failInterruptedRuns } from './training-runs.ts';

export interface ProjectMeta {
  name: string;
  srcLang: string;
  tgtLang: string;
}

export class ProjectStore {
  private readonly counts = new Map<string, number>();
  private countStamp = '';

  private constructor(
    readonly db: Db,
    readonly path: string,
  ) {}

  static create(path: string, meta: ProjectMeta): ProjectStore {
    const store = new ProjectStore(openDatabase(path, { create: true }), path);
    store.db.transaction(() => {
      const put = store.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      put.run('name', meta.name);
      put.run('src_lang', meta.srcLang);
      put.run('tgt_lang', meta.tgtLang);
      put.run('created_at', new Date().toISOString());
    })();
    return store;
  }

  static open(path: string): ProjectStore {
    const store = new ProjectStore(openDatabase(path), path);
    store.discardUnfinishedImports();
    failInterruptedRuns(store.db);
    return store;
  }

  close(): void {
    this.db.close();
  }

  meta(): ProjectMeta {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const m = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    if (!m.name || !m.src_lang || !m.tgt_lang) throw new UserError(`${this.path}: project metadata is missing`);
    return { name: m.name, srcLang: m.src_lang, tgtLang: m.tgt_lang };
  }

  /**
   * Corrects the language codes: later imports segment and check scripts by them, and the
   * fixed words move with their side; pairs already imported keep their tokens (resegment).
   */
  setLanguages(srcLang: string, tgtLang: string): ProjectInfo {
    const before = this.meta();
    this.db.transaction(() => {
      const put = this.db.prepare(`UPDATE meta SET value = ? WHERE key = ?`);
      put.run(srcLang, 'src_lang');
      put.run(tgtLang, 'tgt_lang');
      relabelWordLists(this.db, before, { srcLang, tgtLang });
    })();
    return this.info();
  }

  info(): ProjectInfo {
    const byStatus = Object.fromEntries(PAIR_STATUSES.map((s) => [s, 0])) as Record<PairStatus, number>;
    for (const status of PAIR_STATUSES) byStatus[status] = this.countPairs({ status: [status] });
    const pairs = PAIR_STATUSES.reduce((n, s) => n + byStatus[s], 0);
    return {
      path: this.path,
      ...this.meta(),
      pairs,
      byStatus,
      alignments: listAlignments(this.db),
      linkTags: linkTags(this.db),
      annotatorsShare: annotatorsShare(this.db),
      encoderDir: encoderDir(this.db),
    };
  }

  /** A page of the pair list (from a list position, or after / before a pair on screen) and how many pairs match. */
  listPairs(filter: PairFilter, start: number | PageStart, limit: number): { total: number; pairs: PairSummary[] } {
    const from = typeof start === 'number' ? { offset: start } : start;
    return { total: this.countPairs(filter), pairs: listPairs(this.db, filter, from, limit) };
  }

  /**
   * How many pairs match `filter`, remembered until the project changes: the list asks with
   * every page it fetches while a linguist scrolls, and a count is 34 ms at 1M pairs (a text
   * filter's, 2 s). Any write on this connection moves total_changes(); a commit from
   * another (an import or training worker) moves data_version.
   */
  countPairs(filter: PairFilter): number {
    const stamp = `${this.db.prepare('SELECT total_changes()').pluck().get() as number}:${this.db.pragma('data_version', { simple: true }) as number}`;
    if (stamp !== this.countStamp) {
      this.counts.clear();
      this.countStamp = stamp;
    }
    const key = JSON.stringify(filter);
    let n = this.counts.get(key);
    if (n === undefined) this.counts.set(key, (n = countPairs(this.db, filter)));
    return n;
  }

  getPair(id: number): PairDetail {
    const row = getPairRow(this.db, id);
    if (!row) throw new UserError(`no pair ${id} in this project`);
    return { ...summaryOf(row), alignments: linksOfPair(this.db, id), rejected: rejectedOfPair(this.db, id) };
  }

  /** Review state changes (status, split, note), logged as one edit. */
  updatePair(annotator: string, id: number, change: { status?: PairStatus; split?: Split; note?: string }): PairDetail {
    const current = this.getPair(id);
    const before: PairPatch = {};
    const after: PairPatch = {};
    for (const key of ['status', 'split', 'note'] as const) {
      if (change[key] !== undefined && change[key] !== current[key]) {
        (before as Record<string, unknown>)[key] = current[key];
        (after as Record<string, unknown>)[key] = change[key];
      }
    }
    if (Object.keys(after).length) recordEdit(this.db, annotator, id, 'pair.update', before, after);
    return this.getPair(id);
  }

  /** Applies a prepared edit (before/after patches) to a pair and logs it. */
  edit(annotator: string, pairId: number, kind: string, before: PairPatch, after: PairPatch): PairDetail {
    recordEdit(this.db, annotator, pairId, kind, before, after);
    return this.getPair(pairId);
  }

  undo(annotator: string): PairDetail | null {
    const pairId = undo(this.db, annotator);
    return pairId === null ? null : this.getPair(pairId);
  }

  redo(annotator: string): PairDetail | null {
    const pairId = redo(this.db, annotator);
    return pairId === null ? null : this.getPair(pairId);
  }

  /** Removes what an import that never finished (crash, kill) left behind. */
  private discardUnfinishedImports(): void {
    const stale = this.db.prepare(`SELECT id FROM imports WHERE state = 'running'`).all() as { id: number }[];
    for (const { id } of stale) finishImport(this.db, id, false);
  }
}
