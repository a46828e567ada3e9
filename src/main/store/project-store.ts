// The typed repository over one project file: what the API handlers, the CLI and the
// import/export pipelines call. Every write runs in a transaction. It alone holds the file's
// connection; the store's modules reach it through connection.ts, nothing else can.
import type { PairStatus, Split } from '../../shared/domain.ts';
import { PAIR_STATUSES } from '../../shared/domain.ts';
import type { PairFilter, ProjectInfo } from '../../shared/api.ts';
import type { PairDetail, PairSummary } from '../../shared/domain.ts';
import { isDiskFull, UserError } from '../errors.ts';
import { existsSync } from 'node:fs';
import { listAlignments, linksOfPair, rejectedOfPair } from './alignments.ts';
import { openDatabase, writable, type Db } from './database.ts';
import { closeGuarded, copyInto, fileGone } from './file-identity.ts';
import { quickCheck } from './integrity.ts';
import { backUp } from './backup.ts';
import { registerConnection } from './connection.ts';
import { recordEdit, redo, undo, type PairPatch } from './edits.ts';
import { countPairs, getPairRow, listPairs, reviewedStatusShift, summaryOf, type PageStart } from './pairs.ts';
import { finishImport, importOwners, orphanedImports } from './imports.ts';
import { linkTags } from './project-link-tags.ts';
import { relabelWordLists } from './word-lists.ts';
import { annotatorsShare } from './annotation-mode.ts';
import { encoderDir } from './encoder-folder.ts';
import { parallelismThreshold } from './pair-scores.ts';
import { ownReview, reviewViewer, type PairReview } from './pair-reviews.ts';
import { failInterruptedRuns, runOwners } from './training-runs.ts';
import { removeDeadLeases } from './job-leases.ts';

/** A one-line warning on stderr (a backup that could not be made); nothing when `line` is null. */
function warn(line: string | null): void {
  if (line !== null) console.warn(`mekong: warning: ${line}`);
}

export interface ProjectMeta {
  name: string;
  srcLang: string;
  tgtLang: string;
}

export class ProjectStore {
  private readonly counts = new Map<string, number>();
  private countStamp = '';

  /** The connection: private to the store (connection.ts), so no SQL runs outside store/. */
  readonly #db: Db;

  private constructor(
    db: Db,
    readonly path: string,
  ) {
    this.#db = db;
    registerConnection(this, db);
  }

  static create(path: string, meta: ProjectMeta): ProjectStore {
    const store = new ProjectStore(openDatabase(path, { create: true }), path);
    store.#db.transaction(() => {
      const put = store.#db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
      put.run('name', meta.name);
      put.run('src_lang', meta.srcLang);
      put.run('tgt_lang', meta.tgtLang);
      put.run('created_at', new Date().toISOString());
    })();
    return store;
  }

  /**
   * Opens a project file; one that cannot be written (a read-only file, folder or mount) opens
   * read-only: it can be read, searched and exported, and every change is refused in one line.
   */
  static open(path: string): ProjectStore {
    const readOnly = existsSync(path) && !writable(path);
    const db = openDatabase(path, {
      readonly: readOnly,
      // The last good copy before the schema changes (backup.ts): a damaged file is refused here.
      beforeMigration: (old) => warn(backUp(old, path)),
    });
    try {
      quickCheck(db, path);
    } catch (err) {
      db.close();
      throw err;
    }
    const store = new ProjectStore(db, path);
    if (!readOnly) store.cleanUpOrphans();
    return store;
  }

  /**
   * A second, read-only connection to a project this process has open (a job's worker thread
   * reading what the serving connection committed; in WAL mode it never blocks the writer):
   * no migration and no clean-up, which belong to the connection that opened the project.
   */
  static openReader(path: string): ProjectStore {
    return new ProjectStore(openDatabase(path, { readonly: true }), path);
  }

  /** Opened read-only: the file, its folder or its mount cannot be written. */
  get readOnly(): boolean {
    return this.#db.readonly;
  }

  /** Closes the file; a project whose file was deleted or moved away leaves no -wal/-shm behind. */
  close(): void {
    closeGuarded(this.#db);
  }

  /**
   * Writes everything this project holds (every acknowledged edit) into a new project file
   * at `dest`, from the open handle: what "Save a copy…" does when the file was deleted or
   * moved while open.
   */
  saveCopy(dest: string): void {
    copyInto(this.#db, dest);
  }

  /** Whether the project is still open (a job outliving its project stops writing). */
  isOpen(): boolean {
    return this.#db.open;
  }

  /**
   * Runs `fn` in one transaction (nested in the caller's if there is one): the store calls it
   * makes commit together or not at all. 'immediate' takes the write lock at the start, so
   * what `fn` reads is still true when it writes.
   */
  transaction<T>(fn: () => T, mode: 'deferred' | 'immediate' = 'deferred'): T {
    const run = this.#db.transaction(fn);
    return mode === 'immediate' ? run.immediate() : run();
  }

  meta(): ProjectMeta {
    const rows = this.#db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
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
    this.#db.transaction(() => {
      const put = this.#db.prepare(`UPDATE meta SET value = ? WHERE key = ?`);
      put.run(srcLang, 'src_lang');
      put.run(tgtLang, 'tgt_lang');
      relabelWordLists(this.#db, before, { srcLang, tgtLang });
    })();
    return this.info();
  }

  /** The project's summary; its counts by status are `annotator`'s own under blind annotation (pair-reviews.ts). */
  info(annotator: string | null = null): ProjectInfo {
    const viewer = annotator === null ? null : reviewViewer(this, annotator);
    const shift = viewer === null ? null : reviewedStatusShift(this, viewer);
    const byStatus = Object.fromEntries(PAIR_STATUSES.map((s) => [s, 0])) as Record<PairStatus, number>;
    for (const status of PAIR_STATUSES) byStatus[status] = this.countPairs({ status: [status] }) + (shift?.get(status) ?? 0);
    const pairs = PAIR_STATUSES.reduce((n, s) => n + byStatus[s], 0);
    return {
      path: this.path,
      ...this.meta(),
      pairs,
      byStatus,
      alignments: listAlignments(this),
      linkTags: linkTags(this),
      annotatorsShare: annotatorsShare(this),
      encoderDir: encoderDir(this),
      parallelismThreshold: parallelismThreshold(this),
      excluded: this.countPairs({ excluded: true }),
      fileGone: fileGone(this.#db),
      readOnly: this.readOnly,
    };
  }

  /**
   * A page of the pair list (from a list position, or after / before a pair on screen) and how
   * many pairs match, with the statuses and notes `viewer` sees (pair-reviews.ts; the pairs' own when null).
   */
  listPairs(
    filter: PairFilter,
    start: number | PageStart,
    limit: number,
    viewer: string | null = null,
  ): { total: number; pairs: PairSummary[] } {
    const from = typeof start === 'number' ? { offset: start } : start;
    return { total: this.countPairs(filter, viewer), pairs: listPairs(this, filter, from, limit, viewer) };
  }

  /**
   * How many pairs match `filter`, remembered until the project changes: the list asks with
   * every page it fetches while a linguist scrolls, and a count is 34 ms at 1M pairs (a text
   * filter's, 2 s). Any write on this connection moves total_changes(); a commit from
   * another (an import or training worker) moves data_version.
   */
  countPairs(filter: PairFilter, viewer: string | null = null): number {
    const stamp = `${this.#db.prepare('SELECT total_changes()').pluck().get() as number}:${this.#db.pragma('data_version', { simple: true }) as number}`;
    if (stamp !== this.countStamp) {
      this.counts.clear();
      this.countStamp = stamp;
    }
    const key = JSON.stringify([filter, viewer]);
    let n = this.counts.get(key);
    if (n === undefined) this.counts.set(key, (n = countPairs(this, filter, viewer)));
    return n;
  }

  /** One pair in full, with the status and note `viewer` sees (pair-reviews.ts; the pair's own when null). */
  getPair(id: number, viewer: string | null = null): PairDetail {
    const row = getPairRow(this, id, viewer);
    if (!row) throw new UserError(`no pair ${id} in this project`);
    return { ...summaryOf(row), alignments: linksOfPair(this, id), rejected: rejectedOfPair(this, id) };
  }

  /**
   * Review state changes (status, split, note) by `annotator`, logged as one edit. A status or
   * note is the annotator's own (pair-reviews.ts) and becomes the pair's too (the last one
   * set); the split is the pair's. Returns the pair as the annotator sees it.
   */
  /**
   * Sets a pair's status, split or note as one logged edit. `noteBase` is the note as the
   * caller last read it: when the note the caller sees is no longer that one (someone else
   * saved theirs since), the write is refused with a message to reload, so a newer note is
   * never overwritten unseen.
   */
  updatePair(annotator: string, id: number, change: { status?: PairStatus; split?: Split; note?: string; noteBase?: string }): PairDetail {
    const viewer = reviewViewer(this, annotator);
    return this.transaction(() => {
      const current = this.getPair(id);
      const own = ownReview(this, id, annotator);
      // What the annotator sees: the pair's own when annotators share, else theirs.
      const seen = viewer === null ? current : (own ?? this.getPair(id, viewer));
      if (change.note !== undefined && change.noteBase !== undefined && change.noteBase !== seen.note && change.note !== seen.note)
        throw new UserError(
          `pair ${id}: its note was changed by someone else since you opened it; your note was not saved: reload the pair`,
        );
      const next: PairReview = { status: change.status ?? seen.status, note: change.note ?? seen.note };
      const reviewed = next.status !== seen.status || next.note !== seen.note;
      const before: PairPatch = {};
      const after: PairPatch = {};
      const values = { status: reviewed ? next.status : undefined, note: reviewed ? next.note : undefined, split: change.split };
      for (const key of ['status', 'split', 'note'] as const) {
        if (values[key] !== undefined && values[key] !== current[key]) {
          (before as Record<string, unknown>)[key] = current[key];
          (after as Record<string, unknown>)[key] = values[key];
        }
      }
      if (reviewed) {
        before.review = own;
        after.review = next;
      }
      if (Object.keys(after).length) recordEdit(this, annotator, id, 'pair.update', before, after);
      return this.getPair(id, viewer);
    }, 'immediate');
  }

  /** Applies a prepared edit (before/after patches) to a pair and logs it. */
  edit(annotator: string, pairId: number, kind: string, before: PairPatch, after: PairPatch): PairDetail {
    recordEdit(this, annotator, pairId, kind, before, after);
    return this.getPair(pairId);
  }

  undo(annotator: string): PairDetail | null {
    const pairId = undo(this, annotator);
    return pairId === null ? null : this.getPair(pairId);
  }

  redo(annotator: string): PairDetail | null {
    const pairId = redo(this, annotator);
    return pairId === null ? null : this.getPair(pairId);
  }

  /**
   * Removes what a crashed or killed process left behind: its unfinished imports (deleted
   * whole) and training runs (marked failed). A job whose process is alive — an import the
   * CLI is running, a run the app is training — has a live lease (job-leases.ts) and is left
   * alone.
   */
  private cleanUpOrphans(): void {
    try {
      for (const id of orphanedImports(this.#db)) void finishImport(this, id, false);
      failInterruptedRuns(this.#db);
    } catch (err) {
      // On a full disk the clean-up waits for the next opening; what it would remove stays
      // invisible (every query ignores a running import), and the project can still be read.
      if (!isDiskFull(err)) throw err;
    }
    removeDeadLeases(this.#db, new Set([...importOwners(this.#db), ...runOwners(this.#db)]));
  }
}
