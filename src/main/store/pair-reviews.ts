// Each annotator's own status and note of a pair. Under blind double annotation (the
// default: annotation-mode.ts) an annotator sees and sets only their own, so a second
// annotator never sees the first one's Done or note and their queue keeps the pairs the
// first one finished. The pair's own status and note (pairs.status, pairs.note) are the last
// ones set by anyone: what shared annotation shows, and what exports and their status
// filters read. A pair nobody has set a status or note of since it was imported shows its
// imported status and note to everyone.
import type { PairStatus } from '../../shared/domain.ts';
import { annotatorsShare } from './annotation-mode.ts';
import type { Db } from './database.ts';
import { groupedByPair, pairIdsIn } from './alignments.ts';
import { dbOf, type Project } from './connection.ts';

/** One annotator's status and note of a pair. */
export interface PairReview {
  status: PairStatus;
  note: string;
}

/** A pair's review by one annotator, as exports carry it. */
export interface AnnotatorReview extends PairReview {
  annotator: string;
}

/** Whose status and note `annotator` sees: their own (blind annotation), or null for the pair's (annotators share). */
export function reviewViewer(project: Project, annotator: string): string | null {
  return annotatorsShare(project) ? null : annotator;
}

/**
 * SQL for the status and note of pair `p` as `viewer` sees them (the pair's own when null),
 * with the named parameter `@viewer` to bind (reviewParams).
 */
export function reviewColumns(viewer: string | null): { status: string; note: string } {
  if (viewer === null) return { status: 'p.status', note: 'p.note' };
  // The IN list of reviewed pairs is built once per statement, so a pair nobody reviewed (most
  // of a large corpus) costs one lookup in it, not a search of pair_reviews.
  const own = (col: string, none: string) =>
    `CASE WHEN p.id IN (SELECT pair_id FROM pair_reviews) THEN coalesce((SELECT r.${col} FROM pair_reviews r
      WHERE r.pair_id = p.id AND r.annotator = @viewer), ${none}) ELSE p.${col} END`;
  return { status: own('status', `'new'`), note: own('note', `''`) };
}

/** The named parameters of reviewColumns' SQL (none for the pair's own). */
export function reviewParams(viewer: string | null): { viewer: string }[] {
  return viewer === null ? [] : [{ viewer }];
}

/** The annotator's own review of a pair, or null when they have not set its status or note. */
export function ownReview(project: Project, pairId: number, annotator: string): PairReview | null {
  const db = dbOf(project);
  const row = db.prepare('SELECT status, note FROM pair_reviews WHERE pair_id = ? AND annotator = ?').get(pairId, annotator) as
    PairReview | undefined;
  return row ?? null;
}

/** The reviews of pairs `pairIds` (ascending; alignments.ts pairIdsIn: others of their range may come too), by pair, each pair's by annotator: one read for a batch of pairs (an export). */
export function reviewsOfPairs(project: Project, pairIds: readonly number[]): Map<number, AnnotatorReview[]> {
  const pairs = pairIdsIn('pair_id', pairIds);
  const rows = dbOf(project)
    .prepare(`SELECT pair_id, annotator, status, note FROM pair_reviews WHERE ${pairs.sql} ORDER BY pair_id, annotator`)
    .iterate(...pairs.params) as IterableIterator<AnnotatorReview & { pair_id: number }>;
  return groupedByPair(rows, ({ annotator, status, note }) => ({ annotator, status, note }));
}

/** Returns a function writing reviews (an import's); call it inside a transaction. */
export function reviewInserter(project: Project): (pairId: number, reviews: readonly AnnotatorReview[]) => void {
  const db = dbOf(project);
  return (pairId, reviews) => {
    for (const r of reviews) putReview(db, pairId, r.annotator, r);
  };
}

/** Sets (or, with null, removes) one annotator's review of a pair: an edit applied or undone (edits.ts). */
export function putReview(db: Db, pairId: number, annotator: string, review: PairReview | null): void {
  if (review === null) db.prepare('DELETE FROM pair_reviews WHERE pair_id = ? AND annotator = ?').run(pairId, annotator);
  else
    db.prepare(
      `INSERT INTO pair_reviews (pair_id, annotator, status, note) VALUES (?, ?, ?, ?)
       ON CONFLICT (pair_id, annotator) DO UPDATE SET status = excluded.status, note = excluded.note`,
    ).run(pairId, annotator, review.status, review.note);
}
