// Mining runs in the project file (migration 10): each run's files and threshold, its
// proposed pairs with their texts, tokens and margin scores, the linguist's decision on
// each, and the step that adds the accepted ones to the corpus as one import. Each new
// pair's note says where it came from (run, files, lines, score), and the proposal keeps the
// pair's id, so the provenance survives in both directions.
import type { MineDecision, MineProposal, MineRunInfo } from '../../shared/mining-api.ts';
import { UserError } from '../errors.ts';
import type { Db } from './database.ts';
import { beginImport, discardImport, finishImport } from './imports.ts';
import { writeInSlices } from './bounded-writes.ts';
import { blobOf, offsetsOf, pairInserter } from './pairs.ts';
import { dbOf, type Project } from './connection.ts';

/** Accepted proposals written by one step of the slices (pairs.ts inserts 100 rows a statement). */
const ROWS = 100;

/** A run as the Mine job hands it over: the API's run without what the store fills in. */
export type NewMineRun = Omit<MineRunInfo, 'id' | 'createdAt' | 'counts' | 'added'>;

export interface NewProposal {
  srcLine: number;
  tgtLine: number;
  srcText: string;
  tgtText: string;
  srcOffsets: Uint32Array;
  tgtOffsets: Uint32Array;
  score: number;
}

/** Import format name of the pairs a run adds (imports.format). */
export const MINED_FORMAT = 'mined';

/** Stores a run and its proposals in one transaction; returns the run's id. */
export function saveMineRun(project: Project, run: NewMineRun, proposals: readonly NewProposal[]): number {
  const db = dbOf(project);
  return db.transaction(() => {
    const r = db
      .prepare(
        `INSERT INTO mine_runs (src_file, tgt_file, src_lines, tgt_lines, threshold, threshold_source, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(run.srcFile, run.tgtFile, run.srcLines, run.tgtLines, run.threshold, run.thresholdSource, new Date().toISOString());
    const runId = Number(r.lastInsertRowid);
    const insert = db.prepare(
      `INSERT INTO mine_proposals (run_id, src_line, tgt_line, src_text, tgt_text, src_tokens, tgt_tokens, score)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const p of proposals)
      insert.run(runId, p.srcLine, p.tgtLine, p.srcText, p.tgtText, blobOf(p.srcOffsets), blobOf(p.tgtOffsets), p.score);
    return runId;
  })();
}

interface RunRow {
  id: number;
  src_file: string;
  tgt_file: string;
  src_lines: number;
  tgt_lines: number;
  threshold: number;
  threshold_source: string;
  created_at: string;
}

function runInfo(db: Db, row: RunRow): MineRunInfo {
  const counts: Record<MineDecision, number> = { pending: 0, accepted: 0, rejected: 0 };
  const rows = db.prepare(`SELECT decision, count(*) AS n FROM mine_proposals WHERE run_id = ? GROUP BY decision`).all(row.id) as {
    decision: MineDecision;
    n: number;
  }[];
  for (const r of rows) counts[r.decision] = r.n;
  const { added } = db.prepare(`SELECT count(*) AS added FROM mine_proposals WHERE run_id = ? AND pair_id IS NOT NULL`).get(row.id) as {
    added: number;
  };
  return {
    id: row.id,
    srcFile: row.src_file,
    tgtFile: row.tgt_file,
    srcLines: row.src_lines,
    tgtLines: row.tgt_lines,
    threshold: row.threshold,
    thresholdSource: row.threshold_source,
    createdAt: row.created_at,
    counts,
    added,
  };
}

function runRow(db: Db, runId: number): RunRow {
  const row = db.prepare(`SELECT * FROM mine_runs WHERE id = ?`).get(runId) as RunRow | undefined;
  if (!row) throw new UserError(`no mining run ${runId} in this project`);
  return row;
}

/** Every run, newest first, with its counts per decision. */
export function listMineRuns(project: Project): MineRunInfo[] {
  const db = dbOf(project);
  return (db.prepare(`SELECT * FROM mine_runs ORDER BY id DESC`).all() as RunRow[]).map((r) => runInfo(db, r));
}

export function mineRun(project: Project, runId: number): MineRunInfo {
  const db = dbOf(project);
  return runInfo(db, runRow(db, runId));
}

/** One page of a run's proposals (best score first, or in source-file order) and how many match. */
export function listProposals(
  project: Project,
  q: { runId: number; decision?: MineDecision; order: 'score' | 'source'; offset: number; limit: number },
): { total: number; proposals: MineProposal[] } {
  const db = dbOf(project);
  runRow(db, q.runId);
  const where = `run_id = ?${q.decision ? ' AND decision = ?' : ''}`;
  const params: unknown[] = q.decision ? [q.runId, q.decision] : [q.runId];
  const { total } = db.prepare(`SELECT count(*) AS total FROM mine_proposals WHERE ${where}`).get(...params) as { total: number };
  const order = q.order === 'score' ? 'score DESC, id' : 'src_line, id';
  const rows = db
    .prepare(
      `SELECT id, src_line, tgt_line, src_text, tgt_text, score, decision, pair_id FROM mine_proposals
       WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...params, q.limit, q.offset) as {
    id: number;
    src_line: number;
    tgt_line: number;
    src_text: string;
    tgt_text: string;
    score: number;
    decision: MineDecision;
    pair_id: number | null;
  }[];
  return {
    total,
    proposals: rows.map((r) => ({
      id: r.id,
      srcLine: r.src_line,
      tgtLine: r.tgt_line,
      srcText: r.src_text,
      tgtText: r.tgt_text,
      score: r.score,
      decision: r.decision,
      pairId: r.pair_id,
    })),
  };
}

/**
 * Sets `decision` on the listed proposals of the run, or on every pending one scoring at
 * least `minScore`. A proposal already added to the corpus keeps its decision: its pair is
 * in the corpus (take it out there).
 */
export function decideProposals(
  project: Project,
  runId: number,
  sel: { ids?: readonly number[]; minScore?: number },
  decision: MineDecision,
): MineRunInfo {
  const db = dbOf(project);
  runRow(db, runId);
  db.transaction(() => {
    if (sel.ids) {
      const set = db.prepare(`UPDATE mine_proposals SET decision = ? WHERE id = ? AND run_id = ? AND pair_id IS NULL`);
      for (const id of sel.ids) set.run(decision, id, runId);
    } else {
      db.prepare(`UPDATE mine_proposals SET decision = ? WHERE run_id = ? AND decision = 'pending' AND score >= ?`).run(
        decision,
        runId,
        sel.minScore,
      );
    }
  })();
  return mineRun(project, runId);
}

function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/**
 * Adds the run's accepted proposals not yet in the corpus as one import (format 'mined'),
 * each pair's note naming its origin; all or nothing (a failure deletes the import), written
 * in short transactions (bounded-writes.ts) while the import is unseen.
 */
export async function addAcceptedToCorpus(project: Project, runId: number): Promise<{ added: number; importId: number | null }> {
  const db = dbOf(project);
  const run = runRow(db, runId);
  const rows = db
    .prepare(
      `SELECT id, src_line, tgt_line, src_text, tgt_text, src_tokens, tgt_tokens, score FROM mine_proposals
       WHERE run_id = ? AND decision = 'accepted' AND pair_id IS NULL ORDER BY src_line, id`,
    )
    .all(runId) as {
    id: number;
    src_line: number;
    tgt_line: number;
    src_text: string;
    tgt_text: string;
    src_tokens: Buffer;
    tgt_tokens: Buffer;
    score: number;
  }[];
  if (rows.length === 0) return { added: 0, importId: null };
  const [src, tgt] = [fileName(run.src_file), fileName(run.tgt_file)];
  const importId = beginImport(project, `mining run ${runId}: ${run.src_file} × ${run.tgt_file}`, MINED_FORMAT);
  let ok = false;
  try {
    const insert = pairInserter(project, importId);
    const link = db.prepare(`UPDATE mine_proposals SET pair_id = ? WHERE id = ?`);
    const starts = Array.from({ length: Math.ceil(rows.length / ROWS) }, (_, k) => k * ROWS);
    await writeInSlices(project, starts, (from) => {
      const group = rows.slice(from, from + ROWS);
      const ids = insert(
        group.map((r) => ({
          src: r.src_text,
          tgt: r.tgt_text,
          srcOffsets: offsetsOf(r.src_tokens),
          tgtOffsets: offsetsOf(r.tgt_tokens),
          note: `mined (run ${runId}): ${src} line ${r.src_line} × ${tgt} line ${r.tgt_line}, margin ${r.score.toFixed(3)}`,
        })),
      );
      group.forEach((r, k) => link.run(ids[k], r.id));
    });
    finishImport(project, importId, true);
    ok = true;
  } finally {
    if (!ok) await discardImport(project, importId);
  }
  return { added: rows.length, importId };
}

/** Deletes a run and its proposals (pairs already added to the corpus stay). */
export function deleteMineRun(project: Project, runId: number): void {
  const db = dbOf(project);
  runRow(db, runId);
  db.prepare(`DELETE FROM mine_runs WHERE id = ?`).run(runId);
}
