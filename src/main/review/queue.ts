// The review queue: pairs in the order a linguist should look at them, either by how
// unsure a model alignment is about them or by how much two model alignments disagree.
//
// Uncertainty of a pair under alignment M, with posteriors p_l of its links l and U the
// tokens (both sides) that no link of M covers:
//   u = (Σ_l H(p_l) + |U|) / (|links| + |U|),   H(p) = −p·log2 p − (1−p)·log2(1−p)
// i.e. mean binary entropy per decision, where an uncovered token counts as a coin flip
// (H = 1). A link without a score counts as certain. Disagreement of M and N on a pair is
// 1 − |M∩N| / |M∪N| over (s, t) pairs (0 when both are empty). Higher comes first; ties
// keep pair id order.
import type { QueueItem } from '../../shared/editor-api.ts';
import type { PairStatus } from '../../shared/domain.ts';
import { keySet, linkKey } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { alignmentExists, scoredLinksByPair, type ScoredLink } from '../store/alignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { getPairRow, queueCandidates, summaryOf, type QueueCandidate } from '../store/pairs.ts';

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

export function binaryEntropy(p: number): number {
  if (p <= 0 || p >= 1) return 0;
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
}

export function uncertainty(c: QueueCandidate, links: readonly ScoredLink[]): number {
  const src = new Uint8Array(c.ns),
    tgt = new Uint8Array(c.nt);
  let sum = 0;
  for (const l of links) {
    src[l.s] = 1;
    tgt[l.t] = 1;
    sum += l.score === null ? 0 : binaryEntropy(l.score);
  }
  const uncovered = src.reduce((n, x) => n + 1 - x, 0) + tgt.reduce((n, x) => n + 1 - x, 0);
  const decisions = links.length + uncovered;
  return decisions === 0 ? 0 : (sum + uncovered) / decisions;
}

export function disagreement(a: readonly ScoredLink[], b: readonly ScoredLink[]): number {
  const keys = keySet(a);
  const both = b.filter((l) => keys.has(linkKey(l.s, l.t))).length;
  const union = a.length + b.length - both;
  return union === 0 ? 0 : 1 - both / union;
}

/** Every pair of the queue with its score, in the queue's order (most unsure or most disputed first). */
export function queueOrder(
  store: ProjectStore,
  q: Omit<QueueQuery, 'offset' | 'limit'>,
  viewer: string | null = null,
): { id: number; score: number }[] {
  for (const id of [q.alignmentId, q.versusId]) {
    if (id !== undefined && !alignmentExists(store, id)) throw new UserError(`no alignment #${id} in this project`);
  }
  const filter = { status: q.status, text: q.text || undefined, assignedTo: q.assignedTo || undefined };
  const pool = queueCandidates(store, filter, viewer, q.annotator || undefined);
  const main = scoredLinksByPair(store, q.alignmentId);
  const versus = q.versusId === undefined ? null : scoredLinksByPair(store, q.versusId);
  const scored = pool.map((c) => ({
    id: c.id,
    score: versus ? disagreement(main.get(c.id) ?? [], versus.get(c.id) ?? []) : uncertainty(c, main.get(c.id) ?? []),
  }));
  return scored.sort((x, y) => y.score - x.score || x.id - y.id);
}

/** The queue's page; statuses (and the status filter) are the ones `viewer` sees (store/pair-reviews.ts; the pairs' own when null). */
export function reviewQueue(store: ProjectStore, q: QueueQuery, viewer: string | null = null): { total: number; items: QueueItem[] } {
  const scored = queueOrder(store, q, viewer);
  const page = scored.slice(q.offset, q.offset + q.limit);
  const items = page.map(({ id, score }) => {
    const { srcTokens, tgtTokens, src, tgt, status } = summaryOf(getPairRow(store, id, viewer)!);
    return { id, src, tgt, srcTokens, tgtTokens, status, score };
  });
  return { total: scored.length, items };
}
