// Sentence-level curation in the project file: each pair's parallelism score (pair_scores,
// written whole by each scoring run, train/score-pairs-job.ts), the threshold under which
// a pair counts as misaligned (meta 'parallelism_threshold'), and the pairs a linguist
// excluded from training and export (pairs.excluded), set in bulk for every pair a list
// filter matches.
import type { PairFilter } from '../../shared/api.ts';
import { filterSql } from './pairs.ts';
import { dbOf, type Project } from './connection.ts';

export interface StoredScore {
  pairId: number;
  score: number;
  misaligned: boolean;
  rival: { pairId: number; side: 'source' | 'target'; score: number } | null;
}

/** Replaces every pair's score with `scores` and records the threshold they were flagged under. */
export function saveParallelism(project: Project, scores: readonly StoredScore[], threshold: number): void {
  const db = dbOf(project);
  db.transaction(() => {
    db.prepare('DELETE FROM pair_scores').run();
    const insert = db.prepare(
      'INSERT INTO pair_scores (pair_id, score, misaligned, rival_pair, rival_side, rival_score) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const s of scores)
      insert.run(s.pairId, s.score, s.misaligned ? 1 : 0, s.rival?.pairId ?? null, s.rival?.side ?? null, s.rival?.score ?? null);
    db.prepare(
      `INSERT INTO meta (key, value) VALUES ('parallelism_threshold', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ).run(String(threshold));
  })();
}

/** The threshold of the last scoring run, or null before any. */
export function parallelismThreshold(project: Project): number | null {
  const db = dbOf(project);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'parallelism_threshold'`).get() as { value: string } | undefined;
  return row ? Number(row.value) : null;
}

/** Excludes (or includes again) every visible pair matching `filter`; returns how many changed. */
export function setExcluded(project: Project, filter: PairFilter, excluded: boolean): number {
  const db = dbOf(project);
  const { where, params } = filterSql({ ...filter, excluded: !excluded });
  return db.prepare(`UPDATE pairs SET excluded = ? WHERE id IN (SELECT p.id FROM pairs p WHERE ${where})`).run(excluded ? 1 : 0, ...params)
    .changes;
}
