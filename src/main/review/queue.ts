// The review queue: pairs in the order a linguist should look at them, either by how
// unsure a model alignment is about them or by how much two model alignments disagree.
//
// Uncertainty of a pair under alignment M, with posteriors p_l of its links l and U the
// tokens (both sides) that no link of M covers:
//   u = (Σ_l H(p_l) + |U|) / (|links| + |U|),   H(p) = −p·log2 p − (1−p)·log2(1−p)
// i.e. mean binary entropy per decision, where an uncovered token counts as a coin flip
// (H = 1). A link without a score counts as certain. Disagreement of M and N on a pair is
// 1 − |M∩N| / |M∪N| over (s, t) pairs (0 when both are empty). Higher comes first; ties
// keep pair id order. The uncertainty reads M's links summed up per pair
// (store/link-summaries.ts: kept while the project is open, so that a queue of a million
// pairs does not read 25 million links a page), and a page is picked from the scores in one
// pass, not by sorting every pair.
import type { QueueItem } from '../../shared/editor-api.ts';
import type { PairStatus } from '../../shared/domain.ts';
import { keySet, linkKey } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { alignmentExists, scoredLinksByPair, type ScoredLink } from '../store/alignments.ts';
import { linkSummaries, type LinkSummary } from '../store/link-summaries.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getPairRow, queueCandidates, summaryOf } from '../store/pairs.ts';

export interface QueueQuery {
  alignmentId: number;
  versusId?: number;
  status?: PairStatus[];
  annotator?: string;
  assignedTo?: string;
  text?: string;
  offset: number;
  limit: number;
}

/**
 * The uncertainty of a pair of `ns` source and `nt` target tokens under an alignment whose
 * links in it `links` sums up: its uncovered tokens count as coin flips (see the header).
 */
export function uncertainty(ns: number, nt: number, links: LinkSummary): number {
  const uncovered = Math.max(0, ns - links.coveredSrc) + Math.max(0, nt - links.coveredTgt);
  const decisions = links.links + uncovered;
  return decisions === 0 ? 0 : (links.entropy + uncovered) / decisions;
}

export function disagreement(a: readonly ScoredLink[], b: readonly ScoredLink[]): number {
  const keys = keySet(a);
  const both = b.filter((l) => keys.has(linkKey(l.s, l.t))).length;
  const union = a.length + b.length - both;
  return union === 0 ? 0 : 1 - both / union;
}

/** The queue's pairs (in no set order: ties are broken by pair id where they are ranked) and their scores. */
function scoredPool(
  store: ProjectStore,
  q: Omit<QueueQuery, 'offset' | 'limit'>,
  viewer: string | null,
): { ids: number[]; scores: Float64Array } {
  for (const id of [q.alignmentId, q.versusId]) {
    if (id !== undefined && !alignmentExists(store, id)) throw new UserError(`no alignment #${id} in this project`);
  }
  const filter = { status: q.status, text: q.text || undefined, assignedTo: q.assignedTo || undefined };
  const pool = queueCandidates(store, filter, viewer, q.annotator || undefined);
  const { ids, ns, nt } = pool;
  const scores = new Float64Array(ids.length);
  if (q.versusId !== undefined) {
    const [main, versus] = [scoredLinksByPair(store, q.alignmentId), scoredLinksByPair(store, q.versusId)];
    ids.forEach((id, k) => (scores[k] = disagreement(main.get(id) ?? [], versus.get(id) ?? [])));
  } else {
    const summaries = linkSummaries(store, q.alignmentId);
    ids.forEach((id, k) => (scores[k] = uncertainty(ns[k], nt[k], summaries.of(id))));
  }
  return { ids, scores };
}

/** The positions of the `n` first pairs of the queue's order (higher score first, ties in pair id order), in that order. */
function firstInOrder(pool: { ids: number[]; scores: Float64Array }, n: number): number[] {
  const { ids, scores } = pool;
  const before = (a: number, b: number) => scores[b] - scores[a] || ids[a] - ids[b];
  if (n >= ids.length / 8) return Array.from(ids.keys()).sort(before).slice(0, n);
  // one pass keeping the n first found so far in order: a page of a large queue sorts no more than the page
  const best: number[] = [];
  for (let k = 0; k < ids.length; k++) {
    if (best.length === n && before(k, best[n - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(k, best[at - 1]) < 0) at--;
    best.splice(at, 0, k);
    if (best.length > n) best.pop();
  }
  return best;
}

/** Every pair of the queue with its score, in the queue's order (most unsure or most disputed first). */
export function queueOrder(
  store: ProjectStore,
  q: Omit<QueueQuery, 'offset' | 'limit'>,
  viewer: string | null = null,
): { id: number; score: number }[] {
  const pool = scoredPool(store, q, viewer);
  return firstInOrder(pool, pool.ids.length).map((k) => ({ id: pool.ids[k], score: pool.scores[k] }));
}

/** The queue's page; statuses (and the status filter) are the ones `viewer` sees (store/pair-reviews.ts; the pairs' own when null). */
export function reviewQueue(store: ProjectStore, q: QueueQuery, viewer: string | null = null): { total: number; items: QueueItem[] } {
  const pool = scoredPool(store, q, viewer);
  const page = firstInOrder(pool, q.offset + q.limit).slice(q.offset);
  const items = page.map((k) => {
    const [id, score] = [pool.ids[k], pool.scores[k]];
    const { srcTokens, tgtTokens, src, tgt, status } = summaryOf(getPairRow(store, id, viewer)!);
    return { id, src, tgt, srcTokens, tgtTokens, status, score };
  });
  return { total: pool.ids.length, items };
}
