// The team's part of the API contract (spread into `channels` and `Results` in api.ts): the
// roles of a team server's accounts, and assignments — which annotator is to work on which
// pairs, given by pair id ranges, by the review queue's order, or dealt as shares with a
// stated double-annotation overlap — with each annotator's progress and the overlap two
// annotators share.
import { z } from 'zod';

export const TEAM_ROLES = ['annotator', 'adjudicator', 'manager'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

const id = z.number().int().nonnegative();
const name = z.string().trim().min(1).max(100);
/** Pairs by id, both ends included. */
const range = z
  .object({ from: id, to: id })
  .strict()
  .refine((r) => r.from <= r.to, 'a range starts at or before its end');
const ranges = z.array(range).min(1).max(200);

export const assignmentHow = z.discriminatedUnion('kind', [
  /** Every pair of the ranges to each annotator named (two names: the ranges doubly annotated). */
  z.object({ kind: z.literal('ranges'), ranges }).strict(),
  /** The next `count` pairs nobody is assigned yet, in the review queue's order under model `alignmentId`, to each annotator in turn. */
  z.object({ kind: z.literal('queue'), alignmentId: id, count: z.number().int().min(1).max(10_000_000) }).strict(),
  /**
   * The pairs of `ranges` (absent: every pair) dealt among the annotators in contiguous
   * shares, `overlap` of them (a fraction) to two annotators; what those pairs were assigned
   * before is replaced.
   */
  z.object({ kind: z.literal('share'), overlap: z.number().min(0).max(1), ranges: ranges.optional() }).strict(),
]);

export const teamChannels = {
  /** Each annotator's assignment and progress (an annotator: their own only) and the overlaps. */
  'assignments.list': z.object({}).strict(),
  'assignments.assign': z.object({ annotators: z.array(name).min(1).max(100), how: assignmentHow }).strict(),
  /** Takes pairs (the ranges; absent: all) off an annotator's assignment. */
  'assignments.unassign': z.object({ annotator: name, ranges: ranges.optional() }).strict(),
} as const;

export type AssignmentHow = z.infer<typeof assignmentHow>;
export type PairRange = z.infer<typeof range>;

/** "1-500,900-950,1200": pair id ranges as a manager writes them (CLI and assignment panel), or why not. */
export function parsePairRanges(text: string): { ranges: PairRange[] } | { error: string } {
  const ranges: PairRange[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) return { error: `"${part.trim()}" is not a pair id range (expected e.g. 1-500 or 1-500,900-950)` };
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from > to) return { error: `${part.trim()}: a range starts at or before its end` };
    ranges.push({ from, to });
  }
  return { ranges };
}

/** How many pair ids lie in both `a` and `b` (each a list of ranges that may overlap among themselves). */
export function idsInBoth(a: readonly PairRange[], b: readonly PairRange[]): number {
  const merged = (rs: readonly PairRange[]) =>
    [...rs]
      .sort((x, y) => x.from - y.from)
      .reduce<PairRange[]>((out, r) => {
        const last = out.at(-1);
        if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
        else out.push({ ...r });
        return out;
      }, []);
  let n = 0;
  for (const x of merged(a)) for (const y of merged(b)) n += Math.max(0, Math.min(x.to, y.to) - Math.max(x.from, y.from) + 1);
  return n;
}

/** One annotator's assignment and how far they are with it (their own statuses and gold). */
export interface AssignmentProgress {
  annotator: string;
  assigned: number;
  /** Assigned pairs the annotator set Done. */
  done: number;
  /** Assigned pairs the annotator set In review. */
  inReview: number;
  /** Assigned pairs holding the annotator's own gold links. */
  linked: number;
  /** Assigned pairs also assigned to someone else (doubly annotated). */
  shared: number;
  /** The assigned pairs by id, as ranges ("1-200, 405-410"): what the assignment is, at a glance. */
  ranges: string;
}

/** The pairs two annotators are both assigned: the doubly annotated pairs agreement and adjudication work on. */
export interface AssignmentOverlap {
  left: string;
  right: string;
  pairs: number;
  /** Overlap pairs both annotators put gold links on. */
  bothLinked: number;
  /** Their gold layers (null before their first link). */
  leftAlignmentId: number | null;
  rightAlignmentId: number | null;
}

export interface AssignmentsReport {
  /** Visible pairs in the project, and how many of them nobody is assigned. */
  pairs: number;
  unassigned: number;
  annotators: AssignmentProgress[];
  overlaps: AssignmentOverlap[];
  /** Doubly annotated pairs two annotators both linked that are not adjudicated yet; null in an annotator's own report. */
  awaitingAdjudication: number | null;
  /** A team server's annotator accounts (whom a manager may assign); null without a team file. */
  accounts: string[] | null;
}

export interface TeamResults {
  'assignments.list': AssignmentsReport;
  'assignments.assign': { added: number; report: AssignmentsReport };
  'assignments.unassign': { removed: number; report: AssignmentsReport };
}
