// Per-pair summaries of one alignment's links, which the review queue ranks pairs by
// (review/queue.ts): how many links a pair has, how many tokens of each side they cover and
// the summed binary entropy of their posteriors. A model alignment of a million pairs holds
// some 25 million links, seconds to read, so the summaries of model and imported alignments
// are kept while the project is open: made as an Align job stores the alignment
// (model-alignments.ts), or read from its links on first use. Links change only through
// edits (edits.ts: token splits and merges, resegmenting, which carry every alignment's
// links along), each recorded in edit_events with its pair, whichever process made it; so
// before each use the pairs edited since the summaries were made are read again, from their
// links alone. An annotator's gold changes with every edit and is read whole each time. The
// project's info shows each alignment's link count: the kept summaries' sum, or else a count
// remembered until the next edit.
import type { LinkRef } from '../../shared/link-set.ts';
import { dbOf, type Project } from './connection.ts';
import { grownFor } from '../grown-array.ts';

/** H(p) = −p·log2 p − (1−p)·log2(1−p); 0 for a certain link (p ≤ 0 or p ≥ 1). */
export function binaryEntropy(p: number): number {
  if (p <= 0 || p >= 1) return 0;
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
}

/** One pair's links, summed up; a pair with no links has none. */
export interface LinkSummary {
  links: number;
  coveredSrc: number;
  coveredTgt: number;
  /** Σ H(score) over its links, a link without a score counting as certain */
  entropy: number;
}

const NONE: LinkSummary = { links: 0, coveredSrc: 0, coveredTgt: 0, entropy: 0 };

const byCell = (a: LinkRef, b: LinkRef) => a.s - b.s || a.t - b.t;

/** The summary of one pair's links (their entropies summed in (s, t) order, however they come, so the sum is one number). */
export function summarise(links: readonly (LinkRef & { score: number | null })[]): LinkSummary {
  const src = new Set<number>();
  const tgt = new Set<number>();
  let entropy = 0;
  const inOrder = links.every((l, i) => i === 0 || byCell(links[i - 1], l) < 0);
  for (const l of inOrder ? links : [...links].sort(byCell)) {
    src.add(l.s);
    tgt.add(l.t);
    if (l.score !== null) entropy += binaryEntropy(l.score);
  }
  return { links: links.length, coveredSrc: src.size, coveredTgt: tgt.size, entropy };
}

/** Summaries of pairs in columns, looked up by pair id (a million pairs: 20 MB, not a million objects). */
export class SummaryColumns {
  private ids = new Int32Array(1024);
  private counts = new Int32Array(3 * 1024);
  private entropy = new Float64Array(1024);
  private size = 0;
  /** Pairs summarised again after an edit, or added out of pair id order. */
  private readonly changed = new Map<number, LinkSummary>();
  /** How many links the pairs have in all. */
  private links = 0;

  /** How many links the pairs have in all (the alignment's link count). */
  get total(): number {
    return this.links;
  }

  /** Adds pair `pairId`'s summary (in ascending pair id order, as the columns are searched). */
  add(pairId: number, s: LinkSummary): void {
    if (this.size > 0 && pairId <= this.ids[this.size - 1]) {
      this.change(pairId, s);
      return;
    }
    this.links += s.links;
    if (this.size === this.ids.length) {
      this.ids = grownFor(this.ids, this.size * 2);
      this.counts = grownFor(this.counts, this.size * 6);
      this.entropy = grownFor(this.entropy, this.size * 2);
    }
    const k = this.size++;
    this.ids[k] = pairId;
    this.counts.set([s.links, s.coveredSrc, s.coveredTgt], 3 * k);
    this.entropy[k] = s.entropy;
  }

  /** Replaces pair `pairId`'s summary. */
  change(pairId: number, s: LinkSummary): void {
    this.links += s.links - this.of(pairId).links;
    this.changed.set(pairId, s);
  }

  /** Pair `pairId`'s summary (none when it has no links). */
  of(pairId: number): LinkSummary {
    const changed = this.changed.get(pairId);
    if (changed) return changed;
    let [lo, hi] = [0, this.size - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.ids[mid];
      if (id === pairId) {
        const c = 3 * mid;
        return { links: this.counts[c], coveredSrc: this.counts[c + 1], coveredTgt: this.counts[c + 2], entropy: this.entropy[mid] };
      }
      if (id < pairId) lo = mid + 1;
      else hi = mid - 1;
    }
    return NONE;
  }
}

/** The kept summaries of one alignment, and how far the edit log had gone when they were last brought up to date. */
interface Kept {
  createdAt: string;
  columns: SummaryColumns;
  lastEdit: number;
}

const kept = new WeakMap<Project, Map<number, Kept>>();

/** Link counts of alignments whose summaries are not kept, with how far the edit log had gone when counted. */
const counted = new WeakMap<Project, Map<number, { createdAt: string; count: number; lastEdit: number }>>();

function lastEditId(project: Project): number {
  return dbOf(project).prepare('SELECT coalesce(max(id), 0) FROM edit_events').pluck().get() as number;
}

/** When alignment `alignmentId` was made (with its id, what tells it from a later one given the same id) and its origin. */
function createdAt(project: Project, alignmentId: number): { createdAt: string; origin: string } | undefined {
  return dbOf(project).prepare(`SELECT a.created_at AS createdAt, a.origin FROM alignments a WHERE a.id = ?`).get(alignmentId) as
    { createdAt: string; origin: string } | undefined;
}

/** Reads the summaries of every pair of alignment `alignmentId` from its links, in one pass in pair order. */
function readSummaries(project: Project, alignmentId: number): SummaryColumns {
  const columns = new SummaryColumns();
  const rows = dbOf(project)
    .prepare('SELECT pair_id, s, t, score FROM links WHERE alignment_id = ? ORDER BY pair_id, s, t')
    .raw()
    .iterate(alignmentId) as IterableIterator<[number, number, number, number | null]>;
  let pair = -1;
  let links: (LinkRef & { score: number | null })[] = [];
  for (const [pairId, s, t, score] of rows) {
    if (pairId !== pair) {
      if (links.length) columns.add(pair, summarise(links));
      [pair, links] = [pairId, []];
    }
    links.push({ s, t, score });
  }
  if (links.length) columns.add(pair, summarise(links));
  return columns;
}

/**
 * Keeps `columns` as the summaries of model alignment `alignmentId`, just stored (call once
 * it is seen), so that the queue's first page after an Align job does not read its links.
 */
export function keepSummaries(project: Project, alignmentId: number, columns: SummaryColumns): void {
  const row = createdAt(project, alignmentId);
  if (!row) return;
  let byId = kept.get(project);
  if (!byId) kept.set(project, (byId = new Map()));
  byId.set(alignmentId, { createdAt: row.createdAt, columns, lastEdit: lastEditId(project) });
}

/** The per-pair summaries of alignment `alignmentId`'s links, up to date (see the header). */
export function linkSummaries(project: Project, alignmentId: number): { of: (pairId: number) => LinkSummary } {
  const row = createdAt(project, alignmentId);
  if (!row || row.origin === 'gold') return readSummaries(project, alignmentId);
  let byId = kept.get(project);
  if (!byId) kept.set(project, (byId = new Map()));
  let k = byId.get(alignmentId);
  if (!k || k.createdAt !== row.createdAt) {
    // the edit log's end first: an edit committed while the links are read is read again next time
    const lastEdit = lastEditId(project);
    k = { createdAt: row.createdAt, columns: readSummaries(project, alignmentId), lastEdit };
    byId.set(alignmentId, k);
  }
  return upToDate(project, alignmentId, k);
}

/**
 * How many links alignment `alignmentId` has: summed from its kept summaries (brought up to
 * date), else counted and remembered until an edit is logged (links change only by edits,
 * see the header); a gold layer's, which every edit may change, counted each time.
 */
export function linkCount(project: Project, alignmentId: number): number {
  const db = dbOf(project);
  const row = createdAt(project, alignmentId);
  const k = kept.get(project)?.get(alignmentId);
  if (row && k && k.createdAt === row.createdAt) return upToDate(project, alignmentId, k).total;
  const count = () => db.prepare('SELECT count(*) FROM links WHERE alignment_id = ?').pluck().get(alignmentId) as number;
  if (!row || row.origin === 'gold') return count();
  let byId = counted.get(project);
  if (!byId) counted.set(project, (byId = new Map()));
  const lastEdit = lastEditId(project);
  let c = byId.get(alignmentId);
  if (!c || c.createdAt !== row.createdAt || c.lastEdit !== lastEdit)
    byId.set(alignmentId, (c = { createdAt: row.createdAt, count: count(), lastEdit }));
  return c.count;
}

/** Kept summaries `k` of alignment `alignmentId`, with the pairs edited since they were last brought up to date summarised again. */
function upToDate(project: Project, alignmentId: number, k: Kept): SummaryColumns {
  const db = dbOf(project);
  const upTo = lastEditId(project);
  if (upTo > k.lastEdit) {
    const edited = db
      .prepare('SELECT DISTINCT pair_id FROM edit_events WHERE id > ? AND id <= ? AND pair_id IS NOT NULL')
      .pluck()
      .all(k.lastEdit, upTo) as number[];
    const read = db.prepare('SELECT s, t, score FROM links WHERE alignment_id = ? AND pair_id = ?');
    for (const pairId of edited)
      k.columns.change(pairId, summarise(read.all(alignmentId, pairId) as (LinkRef & { score: number | null })[]));
    k.lastEdit = upTo;
  }
  return k.columns;
}
