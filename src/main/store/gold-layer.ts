// The annotator's gold layer as the store keeps it: which alignment is an annotator's gold
// (and which the adjudicated gold, alignments.ts), and the "not translated" marks of alignments on a pair. The review module (review/)
// builds the editor's operations on these.
import type { TokenSide } from '../../shared/editor-api.ts';
import type { UntranslatedMark } from './edits.ts';
import { groupedByPair, pairIdsIn } from './alignments.ts';
import { dbOf, type Project } from './connection.ts';

/** The annotator's gold alignment id, or null if they have none yet (never creates one). */
export function goldIdOf(project: Project, annotator: string): number | null {
  const db = dbOf(project);
  const row = db.prepare(`SELECT id FROM alignments WHERE origin = 'gold' AND annotator = ? AND adjudicated = 0`).get(annotator) as
    { id: number } | undefined;
  return row?.id ?? null;
}

/** The project's adjudicated gold alignment id, or null before the first adjudication (never creates one). */
export function adjudicatedGoldId(project: Project): number | null {
  const db = dbOf(project);
  const row = db.prepare(`SELECT id FROM alignments WHERE adjudicated = 1`).get() as { id: number } | undefined;
  return row?.id ?? null;
}

/** One alignment's "not translated" marks on one pair, by side then index. */
export function untranslatedOf(project: Project, alignmentId: number, pairId: number): UntranslatedMark[] {
  const db = dbOf(project);
  return (
    db.prepare(`SELECT side, idx FROM untranslated WHERE alignment_id = ? AND pair_id = ? ORDER BY side, idx`).all(alignmentId, pairId) as {
      side: TokenSide;
      idx: number;
    }[]
  ).map((r) => ({ side: r.side, index: r.idx }));
}

/** One alignment's "not translated" marks on pairs `pairIds` (ascending; alignments.ts pairIdsIn: others of their range may come too), by pair: one read for a batch of pairs (an export). */
export function untranslatedOfPairs(project: Project, alignmentId: number, pairIds: readonly number[]): Map<number, UntranslatedMark[]> {
  const pairs = pairIdsIn('pair_id', pairIds);
  const rows = dbOf(project)
    .prepare(`SELECT pair_id, side, idx FROM untranslated WHERE alignment_id = ? AND ${pairs.sql} ORDER BY pair_id, side, idx`)
    .iterate(alignmentId, ...pairs.params) as IterableIterator<{ pair_id: number; side: TokenSide; idx: number }>;
  return groupedByPair(rows, (r) => ({ side: r.side, index: r.idx }));
}

/** Every alignment's "not translated" marks of one pair, keyed by alignment id. */
export function marksOfPair(project: Project, pairId: number): Record<string, UntranslatedMark[]> {
  const db = dbOf(project);
  const out: Record<string, UntranslatedMark[]> = {};
  const rows = db
    .prepare('SELECT alignment_id, side, idx FROM untranslated WHERE pair_id = ? ORDER BY alignment_id, side, idx')
    .all(pairId) as { alignment_id: number; side: TokenSide; idx: number }[];
  for (const r of rows) (out[String(r.alignment_id)] ??= []).push({ side: r.side, index: r.idx });
  return out;
}
