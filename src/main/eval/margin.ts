// The ratio margin score of two sentences over any sentence vectors (Artetxe & Schwenk 2019,
// seed 001 appendix B, k = 4), and the two uses of it for sentence-level curation:
//   margin(x, y) = cos(x, y) / ((r(x) + r(y)) / 2),
//   r(x) = mean cosine of x with its k nearest sentences of the other side, r(y) likewise.
// Seed 001's eq. 8 prints the denominator as r(x) + r(y) (each mean over k, not 2k): half
// of this score, so the same ranking and the same F1, but 1.0 here reads "as close as the
// neighbourhood's average", which makes a threshold readable.
//   parallelismScores  every pair (x_i, y_i) of a parallel corpus scored against the corpus'
//                      own neighbourhoods, flagged under a threshold, with the reason: the best
//                      rival candidate (another target for x_i or another source for y_i);
//   minePairs          proposed pairs between two monolingual sets: each sentence's best
//                      candidate among its k nearest (both directions), then greedy by score
//                      so that every sentence is in at most one pair (seed 001: "for those x
//                      appearing in multiple aligned pairs, select the pair with the highest
//                      score"), kept from the threshold up.
// Vectors are [n, dim] rows of unit length (cosine = dot). Both take a progress callback and
// an AbortSignal (eval/csls.ts's neighbourhoods does the long part).
import { type LongWork, neighbourhoods, type Neighbourhoods, rowDot } from './csls.ts';
import { bestThreshold, type ScoredCandidate, type ThresholdChoice } from './threshold-search.ts';

export const MARGIN_K = 4;

/** The ratio margin of a cosine given both sentences' neighbourhood means (0 when they are not positive). */
export function ratioMargin(cos: number, rx: number, ry: number): number {
  const denominator = (rx + ry) / 2;
  return denominator > 1e-9 ? cos / denominator : 0;
}

export interface Rival {
  /** 'target': another target sentence y_index for x_i; 'source': another source x_index for y_i */
  side: 'source' | 'target';
  index: number;
  score: number;
}

export interface PairScore {
  score: number;
  flagged: boolean;
  /** the best-scoring other candidate among the k nearest of x_i or y_i; null when there is none */
  rival: Rival | null;
}

export interface MarginOptions {
  k?: number;
}

/** Margin of every pair (x_i, y_i); flagged when under `threshold`. */
export function parallelismScores(
  x: Float32Array,
  y: Float32Array,
  dim: number,
  threshold: number,
  o: MarginOptions = {},
  work: LongWork = {},
): PairScore[] {
  const n = x.length / dim;
  if (y.length / dim !== n) throw new Error(`parallelismScores: ${n} source and ${y.length / dim} target vectors`);
  const nb = neighbourhoods(x, y, dim, o.k ?? MARGIN_K, work);
  const out: PairScore[] = [];
  for (let i = 0; i < n; i++) {
    const score = ratioMargin(rowDot(x, i, y, i, dim), nb.xMean[i], nb.yMean[i]);
    let rival: Rival | null = null;
    for (let r = 0; r < nb.k; r++) {
      const j = nb.xNear[i * nb.k + r];
      if (j >= 0 && j !== i) {
        const s = ratioMargin(nb.xSim[i * nb.k + r], nb.xMean[i], nb.yMean[j]);
        if (!rival || s > rival.score) rival = { side: 'target', index: j, score: s };
      }
      const q = nb.yNear[i * nb.k + r];
      if (q >= 0 && q !== i) {
        const s = ratioMargin(nb.ySim[i * nb.k + r], nb.xMean[q], nb.yMean[i]);
        if (!rival || s > rival.score) rival = { side: 'source', index: q, score: s };
      }
    }
    out.push({ score, flagged: score < threshold, rival });
  }
  return out;
}

export interface MinedPair {
  src: number;
  tgt: number;
  score: number;
}

/** Each side's best candidate by margin among its k nearest, both directions, deduplicated. */
function candidates(nb: Neighbourhoods, I: number, J: number): MinedPair[] {
  const seen = new Map<number, MinedPair>();
  const best = (near: Int32Array, sim: Float32Array, at: number, score: (other: number, cos: number) => number) => {
    let top = -1,
      topScore = -Infinity;
    for (let r = 0; r < nb.k; r++) {
      const other = near[at + r];
      if (other < 0) continue;
      const s = score(other, sim[at + r]);
      if (s > topScore) ((top = other), (topScore = s));
    }
    return { top, topScore };
  };
  for (let i = 0; i < I; i++) {
    const { top, topScore } = best(nb.xNear, nb.xSim, i * nb.k, (j, c) => ratioMargin(c, nb.xMean[i], nb.yMean[j]));
    if (top >= 0) seen.set(i * J + top, { src: i, tgt: top, score: topScore });
  }
  for (let j = 0; j < J; j++) {
    const { top, topScore } = best(nb.yNear, nb.ySim, j * nb.k, (i, c) => ratioMargin(c, nb.xMean[i], nb.yMean[j]));
    if (top >= 0) seen.set(top * J + j, { src: top, tgt: j, score: topScore });
  }
  return [...seen.values()];
}

/** Proposed pairs (src line, tgt line, margin), best first, each sentence in at most one, from `threshold` up. */
export function minePairs(
  x: Float32Array,
  y: Float32Array,
  dim: number,
  threshold: number,
  o: MarginOptions = {},
  work: LongWork = {},
): MinedPair[] {
  const I = x.length / dim,
    J = y.length / dim;
  const nb = neighbourhoods(x, y, dim, o.k ?? MARGIN_K, work);
  const usedSrc = new Uint8Array(I),
    usedTgt = new Uint8Array(J);
  const out: MinedPair[] = [];
  for (const c of candidates(nb, I, J).sort((a, b) => b.score - a.score)) {
    if (c.score < threshold) break;
    if (usedSrc[c.src] || usedTgt[c.tgt]) continue;
    usedSrc[c.src] = usedTgt[c.tgt] = 1;
    out.push(c);
  }
  return out;
}

/**
 * The mining threshold of best F1 on a case with known answers: `gold` pairs (src, tgt) among
 * x and y, the other sentences having no partner (seed 001's threshold search).
 */
export function miningThreshold(
  x: Float32Array,
  y: Float32Array,
  dim: number,
  gold: readonly { src: number; tgt: number }[],
  o: MarginOptions = {},
  work: LongWork = {},
): ThresholdChoice {
  const J = y.length / dim;
  const truth = new Set(gold.map((g) => g.src * J + g.tgt));
  const scored: ScoredCandidate[] = minePairs(x, y, dim, -Infinity, o, work).map((p) => ({
    score: p.score,
    correct: truth.has(p.src * J + p.tgt),
  }));
  return bestThreshold(scored, gold.length);
}

/**
 * The flagging threshold of best F1 at finding the known non-parallel pairs (`bad`) among
 * the scores of parallelismScores: flag below it.
 */
export function flaggingThreshold(scores: readonly number[], bad: readonly boolean[]): ThresholdChoice {
  const positives = bad.filter(Boolean).length;
  const choice = bestThreshold(
    scores.map((s, i) => ({ score: -s, correct: bad[i] })),
    positives,
  );
  return { ...choice, threshold: -choice.threshold };
}
