// How a manager gives annotators their pairs, for the CLI (`mekong user assign`) and the API
// (the Agreement page's assignment panel) alike:
// - ranges: every pair with an id in the ranges, to each annotator named;
// - queue: the next pairs nobody is assigned yet in the review queue's order under a model
//   (most unsure first), `count` to each annotator in turn;
// - share: the pairs (all, or those in ranges) dealt among the annotators in contiguous
//   shares, with round(overlap × pairs) of them, spread evenly over the list, also given to a
//   second annotator (the next one, rotating through the others, so every two annotators
//   share some pairs for agreement); what those pairs were assigned before is replaced.
// Names are checked against the team file's annotator accounts when the project has one.
import { existsSync } from 'node:fs';
import { parsePairRanges, type AssignmentHow, type AssignmentsReport, type PairRange } from '../../shared/team-api.ts';
import { UserError } from '../errors.ts';
import {
  assignedPairIds,
  assignmentOverlaps,
  assignmentProgress,
  awaitingAdjudication,
  pairIdsInRange,
  removeAssignments,
  visiblePairIds,
  writeAssignments,
} from '../store/assignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { TeamFile, teamFilePath } from '../store/team-file.ts';
import { queueOrder } from './queue.ts';

/** The annotator accounts of the project's team file, or null when it has none (single-user use). */
export function annotatorAccounts(projectPath: string): string[] | null {
  if (!existsSync(teamFilePath(projectPath))) return null;
  const file = TeamFile.open(projectPath);
  try {
    return file
      .accounts()
      .filter((a) => a.role === 'annotator')
      .map((a) => a.name);
  } finally {
    file.close();
  }
}

/** "1-500,900-950,1200": pair id ranges as the CLI takes them; a one-line error for anything else. */
export function parseRanges(text: string): PairRange[] {
  const parsed = parsePairRanges(text);
  if ('error' in parsed) throw new UserError(parsed.error);
  return parsed.ranges;
}

/** The visible pairs of the ranges, in id order, once each; an error when none is. */
function pairsOfRanges(store: ProjectStore, ranges: readonly PairRange[]): number[] {
  const ids = [...new Set(ranges.flatMap((r) => pairIdsInRange(store, r.from, r.to)))].sort((a, b) => a - b);
  if (!ids.length) throw new UserError(`no pair has an id in ${ranges.map((r) => `${r.from}-${r.to}`).join(', ')}`);
  return ids;
}

/**
 * `pairIds` dealt among `annotators` (see the header): annotator j is first annotator of the
 * j-th contiguous share, and exactly round(overlap × pairs) pairs, spread evenly, get a second.
 */
export function dealShare(
  pairIds: readonly number[],
  annotators: readonly string[],
  overlap: number,
): { pairId: number; annotator: string }[] {
  const n = pairIds.length;
  const k = annotators.length;
  const doubled = Math.round(overlap * n);
  if (doubled > 0 && k < 2) throw new UserError('a double-annotation overlap needs two annotators or more');
  const out: { pairId: number; annotator: string }[] = [];
  let block = -1;
  let inBlock = 0;
  for (let i = 0; i < n; i++) {
    const j = Math.floor((i * k) / n);
    if (j !== block) {
      block = j;
      inBlock = 0;
    }
    out.push({ pairId: pairIds[i], annotator: annotators[j] });
    if (Math.floor(((i + 1) * doubled) / n) > Math.floor((i * doubled) / n)) {
      out.push({ pairId: pairIds[i], annotator: annotators[(j + 1 + (inBlock % (k - 1))) % k] });
      inBlock++;
    }
  }
  return out;
}

/** The names once each, checked against the team's annotator accounts when there is a team file. */
function checkedNames(store: ProjectStore, names: readonly string[]): string[] {
  const unique = [...new Set(names.map((n) => n.trim().normalize('NFC')))];
  const accounts = annotatorAccounts(store.path);
  if (accounts) {
    const unknown = unique.find((n) => !accounts.includes(n));
    if (unknown !== undefined) throw new UserError(`${unknown}: no annotator account of that name (mekong user list shows the accounts)`);
  }
  return unique;
}

/** Assigns pairs to `names` as `how` says; returns how many (pair, annotator) assignments are new. */
export function assignPairs(store: ProjectStore, names: readonly string[], how: AssignmentHow): number {
  const annotators = checkedNames(store, names);
  if (how.kind === 'ranges') {
    const ids = pairsOfRanges(store, how.ranges);
    return writeAssignments(
      store,
      annotators.flatMap((annotator) => ids.map((pairId) => ({ pairId, annotator }))),
    );
  }
  if (how.kind === 'queue') {
    const taken = assignedPairIds(store);
    const free = queueOrder(store, { alignmentId: how.alignmentId })
      .map((q) => q.id)
      .filter((id) => !taken.has(id));
    if (!free.length) throw new UserError('every pair of the review queue is assigned already');
    return writeAssignments(
      store,
      annotators.flatMap((annotator, k) => free.slice(k * how.count, (k + 1) * how.count).map((pairId) => ({ pairId, annotator }))),
    );
  }
  const ids = how.ranges ? pairsOfRanges(store, how.ranges) : visiblePairIds(store);
  if (!ids.length) throw new UserError('the project has no pairs to share out yet');
  return writeAssignments(store, dealShare(ids, annotators, how.overlap), ids);
}

/** Takes the pairs of `ranges` (absent: all) off `annotator`'s assignment; returns how many were on it. */
export function unassignPairs(store: ProjectStore, annotator: string, ranges?: readonly PairRange[]): number {
  return removeAssignments(store, annotator.trim().normalize('NFC'), ranges ? pairsOfRanges(store, ranges) : null);
}

/** Every annotator's assignment and progress, or only `only`'s (an annotator reading their own). */
export function assignmentsReport(store: ProjectStore, only: string | null = null): AssignmentsReport {
  const pairs = visiblePairIds(store);
  const assigned = assignedPairIds(store);
  return {
    pairs: pairs.length,
    unassigned: pairs.filter((id) => !assigned.has(id)).length,
    annotators: assignmentProgress(store, only),
    overlaps: only === null ? assignmentOverlaps(store) : [],
    awaitingAdjudication: only === null ? awaitingAdjudication(store) : null,
    accounts: only === null ? annotatorAccounts(store.path) : null,
  };
}
