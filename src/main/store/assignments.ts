// Assignments: which annotator is to work on which pair (table `assignments`, migration 13).
// A pair assigned to two annotators is doubly annotated: agreement and adjudication work on
// those. Kept in the project file, not the team sidecar, because every reader joins it with
// the corpus in SQL (a pair list or review queue filtered to one annotator's assignment, the
// progress counted from their own statuses and gold links, the overlap two annotators share)
// and because it is the corpus's plan of work, which a copy of the project keeps; it holds
// no secret. How pairs are chosen (ranges, queue order, shares) is review/assign-pairs.ts.
import type { AssignmentOverlap, AssignmentProgress } from '../../shared/team-api.ts';
import { dbOf, type Project } from './connection.ts';
import { reviewColumns } from './pair-reviews.ts';
import { VISIBLE } from './pairs.ts';

/** The visible pairs with ids in [from, to], in id order. */
export function pairIdsInRange(project: Project, from: number, to: number): number[] {
  return dbOf(project)
    .prepare(`SELECT p.id FROM pairs p WHERE p.id BETWEEN ? AND ? AND ${VISIBLE} ORDER BY p.id`)
    .pluck()
    .all(from, to) as number[];
}

/** Every visible pair's id, in id order. */
export function visiblePairIds(project: Project): number[] {
  return dbOf(project).prepare(`SELECT p.id FROM pairs p WHERE ${VISIBLE} ORDER BY p.id`).pluck().all() as number[];
}

/** The pairs anyone is assigned. */
export function assignedPairIds(project: Project): Set<number> {
  return new Set(dbOf(project).prepare(`SELECT DISTINCT pair_id FROM assignments`).pluck().all() as number[]);
}

/** The pairs assigned to both `a` and `b`, in id order. */
export function sharedPairIds(project: Project, a: string, b: string): number[] {
  return dbOf(project)
    .prepare(
      `SELECT x.pair_id FROM assignments x JOIN assignments y ON y.pair_id = x.pair_id AND y.annotator = ? WHERE x.annotator = ? ORDER BY x.pair_id`,
    )
    .pluck()
    .all(b, a) as number[];
}

/**
 * Writes assignments in one transaction: first every assignment of the pairs in `clear` is
 * taken off (a share deals them anew), then each (pair, annotator) of `add` is set. Returns
 * how many were new.
 */
export function writeAssignments(
  project: Project,
  add: readonly { pairId: number; annotator: string }[],
  clear: readonly number[] = [],
): number {
  const db = dbOf(project);
  const drop = db.prepare('DELETE FROM assignments WHERE pair_id = ?');
  const put = db.prepare('INSERT OR IGNORE INTO assignments (pair_id, annotator) VALUES (?, ?)');
  let added = 0;
  db.transaction(() => {
    for (const id of clear) drop.run(id);
    for (const a of add) added += put.run(a.pairId, a.annotator).changes;
  }).immediate();
  return added;
}

/** Takes `pairIds` (null: all) off `annotator`'s assignment; returns how many were. */
export function removeAssignments(project: Project, annotator: string, pairIds: readonly number[] | null): number {
  const db = dbOf(project);
  if (pairIds === null) return db.prepare('DELETE FROM assignments WHERE annotator = ?').run(annotator).changes;
  const drop = db.prepare('DELETE FROM assignments WHERE annotator = ? AND pair_id = ?');
  let removed = 0;
  db.transaction(() => {
    for (const id of pairIds) removed += drop.run(annotator, id).changes;
  }).immediate();
  return removed;
}

/** "1-200, 405, 407-410": sorted ids as ranges. */
function asRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let k = 0; k < ids.length;) {
    let j = k;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(j === k ? String(ids[k]) : `${ids[k]}-${ids[j]}`);
    k = j + 1;
  }
  return parts.join(', ');
}

/**
 * Each annotator's assignment (all annotators, or `only`) with their progress: statuses as
 * they see them (their own under blind annotation: reviewColumns) and their own gold links.
 */
export function assignmentProgress(project: Project, only: string | null = null): AssignmentProgress[] {
  const db = dbOf(project);
  const names = (
    only === null ? db.prepare('SELECT DISTINCT annotator FROM assignments ORDER BY annotator').pluck().all() : [only]
  ) as string[];
  return names.map((annotator) => {
    // the annotator's own status of a pair (@viewer is bound to their name)
    const status = reviewColumns(annotator).status;
    const ids = db
      .prepare(
        `SELECT a.pair_id FROM assignments a JOIN pairs p ON p.id = a.pair_id WHERE a.annotator = ? AND ${VISIBLE} ORDER BY a.pair_id`,
      )
      .pluck()
      .all(annotator) as number[];
    const counts = db
      .prepare(
        `SELECT
          count(*) FILTER (WHERE ${status} = 'done') AS done,
          count(*) FILTER (WHERE ${status} = 'in-review') AS inReview,
          count(*) FILTER (WHERE EXISTS (SELECT 1 FROM links l JOIN alignments g ON g.id = l.alignment_id
            WHERE l.pair_id = p.id AND g.origin = 'gold' AND g.adjudicated = 0 AND g.annotator = @viewer)) AS linked,
          count(*) FILTER (WHERE EXISTS (SELECT 1 FROM assignments o WHERE o.pair_id = p.id AND o.annotator <> @viewer)) AS shared
        FROM assignments a JOIN pairs p ON p.id = a.pair_id WHERE a.annotator = @viewer AND ${VISIBLE}`,
      )
      .get({ viewer: annotator }) as { done: number; inReview: number; linked: number; shared: number };
    return { annotator, assigned: ids.length, ...counts, ranges: asRanges(ids) };
  });
}

/**
 * Doubly annotated pairs awaiting adjudication: pairs that two or more of their assigned
 * annotators put gold links on (as an overlap's "linked by both") and that the adjudicated
 * gold holds nothing of yet (no link, no "not translated" mark).
 */
export function awaitingAdjudication(project: Project): number {
  const adjudicated = `(SELECT id FROM alignments WHERE adjudicated = 1)`;
  return dbOf(project)
    .prepare(
      `SELECT count(*) FROM (
        SELECT a.pair_id FROM assignments a
        JOIN alignments g ON g.origin = 'gold' AND g.adjudicated = 0 AND g.annotator = a.annotator
        WHERE EXISTS (SELECT 1 FROM links l WHERE l.alignment_id = g.id AND l.pair_id = a.pair_id)
        GROUP BY a.pair_id HAVING count(*) >= 2
      ) d JOIN pairs p ON p.id = d.pair_id
      WHERE ${VISIBLE}
        AND NOT EXISTS (SELECT 1 FROM links l WHERE l.alignment_id IN ${adjudicated} AND l.pair_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM untranslated u WHERE u.alignment_id IN ${adjudicated} AND u.pair_id = p.id)`,
    )
    .pluck()
    .get() as number;
}

/** Every two annotators who share assigned pairs: how many, and on how many both put gold links. */
export function assignmentOverlaps(project: Project): AssignmentOverlap[] {
  const db = dbOf(project);
  const gold = (who: string) => `(SELECT g.id FROM alignments g WHERE g.origin = 'gold' AND g.adjudicated = 0 AND g.annotator = ${who})`;
  const linked = (who: string) => `EXISTS (SELECT 1 FROM links l WHERE l.pair_id = x.pair_id AND l.alignment_id = ${gold(who)})`;
  return db
    .prepare(
      `SELECT x.annotator AS left, y.annotator AS right, count(*) AS pairs,
        count(*) FILTER (WHERE ${linked('x.annotator')} AND ${linked('y.annotator')}) AS bothLinked,
        ${gold('x.annotator')} AS leftAlignmentId, ${gold('y.annotator')} AS rightAlignmentId
      FROM assignments x JOIN assignments y ON y.pair_id = x.pair_id AND y.annotator > x.annotator
      JOIN pairs p ON p.id = x.pair_id WHERE ${VISIBLE}
      GROUP BY x.annotator, y.annotator ORDER BY x.annotator, y.annotator`,
    )
    .all() as AssignmentOverlap[];
}
