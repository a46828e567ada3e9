// The margin score of two sentences (Artetxe & Schwenk 2019, seed 001 appendix B, k = 4) over
// a pair score s(x, y), and the two uses of it for sentence-level curation:
//   s(x, y) = cos(x, y) + e(x, y),   e an optional extra term (curation.ts: a weighted IBM1
//             translation log-likelihood), 0 when absent;
//   margin(x, y) = s(x, y) − (r(x) + r(y)) / 2   (the "distance" margin, the default),
//   margin(x, y) = s(x, y) / ((r(x) + r(y)) / 2)  (the "ratio" margin, seed 001's and BUCC's),
//   r(x) = mean of s(x, ·) over x's k best candidates of the other side, r(y) likewise.
// With an extra term, each sentence's candidates are its MARGIN_CANDIDATES cosine-nearest
// sentences of the other side, re-ranked by s; without one, its k cosine-nearest.
// The ratio is for the cosine alone: the log-likelihood term is negative, so s can be, and the
// ratio then breaks (mining F1 far below the distance's with the IBM1 term:
// docs/experiments.md). A distance margin of 0, a ratio of 1, reads "as close as the two
// sentences' neighbourhoods on average".
//   parallelismScores  every pair (x_i, y_i) of a parallel corpus scored against the corpus'
//                      own neighbourhoods, flagged under a threshold, with the reason: the best
//                      rival candidate (another target for x_i or another source for y_i);
//   minePairs          proposed pairs between two monolingual sets: each sentence's best
//                      candidate by margin (both directions), then greedy by score so that every
//                      sentence is in at most one pair (seed 001: "for those x appearing in
//                      multiple aligned pairs, select the pair with the highest score"), kept
//                      from the threshold up.
// Vectors are [n, dim] rows of unit length (cosine = dot). Both take a progress callback and
// an AbortSignal (eval/csls.ts's neighbourhoods does the long part).
import { type JobContext, silentContext } from '../jobs/job-context.ts';
import { neighbourhoods, rowDot } from './csls.ts';
import { bestThreshold, type ScoredCandidate, type ThresholdChoice } from './threshold-search.ts';
import { UserError } from '../errors.ts';

export const MARGIN_K = 4;
/**
 * Cosine-nearest candidates a sentence's k best are chosen from when the pair score has an
 * extra term (20 mine no better than 10: docs/experiments.md).
 */
export const MARGIN_CANDIDATES = 10;

/** Two sets of sentences as the margin sees them: unit vectors [n, dim] and the extra term of their pair score. */
export interface SentenceSets {
  x: Float32Array;
  y: Float32Array;
  dim: number;
  /** e(i, j) added to cos(x_i, y_j); none: the cosine alone */
  extra?: (i: number, j: number) => number;
}

export type MarginKind = 'distance' | 'ratio';

/** The distance margin of a pair score given both sentences' neighbourhood means. */
export function distanceMargin(score: number, rx: number, ry: number): number {
  return score - (rx + ry) / 2;
}

/** The ratio margin of a pair score given both sentences' neighbourhood means. */
export function ratioMargin(score: number, rx: number, ry: number): number {
  return score / ((rx + ry) / 2);
}

type Margin = (score: number, rx: number, ry: number) => number;

/** The margin function of `o` for the sets `p` (the ratio refuses an extra term). */
function marginOf(p: SentenceSets, o: MarginOptions): Margin {
  if (o.margin !== 'ratio') return distanceMargin;
  if (p.extra) throw new UserError('the ratio margin needs a positive pair score: it takes the cosine alone, with no lexical term');
  return ratioMargin;
}

/** s(x_i, y_j). */
function pairScore(p: SentenceSets, i: number, j: number): number {
  return rowDot(p.x, i, p.y, j, p.dim) + (p.extra ? p.extra(i, j) : 0);
}

/**
 * Each sentence's candidates of the other side, best first by s (xNear/xScore [I, c],
 * yNear/yScore [J, c], −1 where there are fewer), and the mean of the k best (xMean, yMean).
 */
interface Scored {
  c: number;
  xNear: Int32Array;
  xScore: Float32Array;
  xMean: Float32Array;
  yNear: Int32Array;
  yScore: Float32Array;
  yMean: Float32Array;
}

/** One side's candidate lists re-scored by s, re-sorted, and the means of their k best. */
function rescore(
  near: Int32Array,
  sim: Float32Array,
  c: number,
  k: number,
  s: (at: number, other: number, cos: number) => number,
): { score: Float32Array; mean: Float32Array } {
  const n = near.length / c;
  const score = new Float32Array(near.length).fill(-Infinity),
    mean = new Float32Array(n);
  for (let a = 0; a < n; a++) {
    const list: [number, number][] = [];
    for (let r = 0; r < c; r++) if (near[a * c + r] >= 0) list.push([near[a * c + r], s(a, near[a * c + r], sim[a * c + r])]);
    list.sort((u, v) => v[1] - u[1]);
    near.fill(-1, a * c, (a + 1) * c);
    list.forEach(([o, v], r) => ((near[a * c + r] = o), (score[a * c + r] = v)));
    const top = list.slice(0, k);
    mean[a] = top.length ? top.reduce((t, [, v]) => t + v, 0) / top.length : 0;
  }
  return { score, mean };
}

async function scoredNeighbourhoods(p: SentenceSets, k: number, ctx: JobContext): Promise<Scored> {
  const extra = p.extra;
  const nb = await neighbourhoods(p.x, p.y, p.dim, extra ? Math.max(k, MARGIN_CANDIDATES) : k, ctx);
  if (!extra) return { c: k, xNear: nb.xNear, xScore: nb.xSim, xMean: nb.xMean, yNear: nb.yNear, yScore: nb.ySim, yMean: nb.yMean };
  const xs = rescore(nb.xNear, nb.xSim, nb.k, k, (i, j, cos) => cos + extra(i, j));
  const ys = rescore(nb.yNear, nb.ySim, nb.k, k, (j, i, cos) => cos + extra(i, j));
  return { c: nb.k, xNear: nb.xNear, xScore: xs.score, xMean: xs.mean, yNear: nb.yNear, yScore: ys.score, yMean: ys.mean };
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
  /** the best-scoring other candidate of x_i or y_i; null when there is none */
  rival: Rival | null;
}

export interface MarginOptions {
  k?: number;
  /** default 'distance' */
  margin?: MarginKind;
}

/** The rival of pair i: the best margin among x_i's and y_i's candidates other than i. */
function rivalOf(nb: Scored, i: number, margin: Margin): Rival | null {
  let rival: Rival | null = null;
  for (let r = 0; r < nb.c; r++) {
    const j = nb.xNear[i * nb.c + r];
    if (j >= 0 && j !== i) {
      const s = margin(nb.xScore[i * nb.c + r], nb.xMean[i], nb.yMean[j]);
      if (!rival || s > rival.score) rival = { side: 'target', index: j, score: s };
    }
    const q = nb.yNear[i * nb.c + r];
    if (q >= 0 && q !== i) {
      const s = margin(nb.yScore[i * nb.c + r], nb.xMean[q], nb.yMean[i]);
      if (!rival || s > rival.score) rival = { side: 'source', index: q, score: s };
    }
  }
  return rival;
}

/** Margin of every pair (x_i, y_i); flagged when under `threshold`. */
export async function parallelismScores(
  p: SentenceSets,
  threshold: number,
  o: MarginOptions = {},
  ctx: JobContext = silentContext(),
): Promise<PairScore[]> {
  const n = p.x.length / p.dim;
  if (p.y.length / p.dim !== n) throw new Error(`parallelismScores: ${n} source and ${p.y.length / p.dim} target vectors`);
  const margin = marginOf(p, o);
  const nb = await scoredNeighbourhoods(p, o.k ?? MARGIN_K, ctx);
  const out: PairScore[] = [];
  for (let i = 0; i < n; i++) {
    const score = margin(pairScore(p, i, i), nb.xMean[i], nb.yMean[i]);
    out.push({ score, flagged: score < threshold, rival: rivalOf(nb, i, margin) });
  }
  return out;
}

export interface MinedPair {
  src: number;
  tgt: number;
  score: number;
}

/** Each sentence's best candidate by margin, both directions, deduplicated. */
function candidates(nb: Scored, I: number, J: number, margin: Margin): MinedPair[] {
  const seen = new Map<number, MinedPair>();
  const best = (near: Int32Array, score: Float32Array, at: number, marginTo: (other: number, s: number) => number) => {
    let top = -1,
      topScore = -Infinity;
    for (let r = 0; r < nb.c; r++) {
      const other = near[at + r];
      if (other < 0) continue;
      const m = marginTo(other, score[at + r]);
      if (m > topScore) ((top = other), (topScore = m));
    }
    return { top, topScore };
  };
  for (let i = 0; i < I; i++) {
    const { top, topScore } = best(nb.xNear, nb.xScore, i * nb.c, (j, s) => margin(s, nb.xMean[i], nb.yMean[j]));
    if (top >= 0) seen.set(i * J + top, { src: i, tgt: top, score: topScore });
  }
  for (let j = 0; j < J; j++) {
    const { top, topScore } = best(nb.yNear, nb.yScore, j * nb.c, (i, s) => margin(s, nb.xMean[i], nb.yMean[j]));
    if (top >= 0) seen.set(top * J + j, { src: top, tgt: j, score: topScore });
  }
  return [...seen.values()];
}

/** Proposed pairs (src line, tgt line, margin), best first, each sentence in at most one, from `threshold` up. */
export async function minePairs(
  p: SentenceSets,
  threshold: number,
  o: MarginOptions = {},
  ctx: JobContext = silentContext(),
): Promise<MinedPair[]> {
  const I = p.x.length / p.dim,
    J = p.y.length / p.dim;
  const margin = marginOf(p, o);
  const nb = await scoredNeighbourhoods(p, o.k ?? MARGIN_K, ctx);
  const usedSrc = new Uint8Array(I),
    usedTgt = new Uint8Array(J);
  const out: MinedPair[] = [];
  for (const c of candidates(nb, I, J, margin).sort((a, b) => b.score - a.score)) {
    if (c.score < threshold) break;
    if (usedSrc[c.src] || usedTgt[c.tgt]) continue;
    usedSrc[c.src] = usedTgt[c.tgt] = 1;
    out.push(c);
  }
  return out;
}

/**
 * The mining threshold of best F1 on a case with known answers: `gold` pairs (src, tgt) among
 * p's x and y, the other sentences having no partner (seed 001's threshold search).
 */
export async function miningThreshold(
  p: SentenceSets,
  gold: readonly { src: number; tgt: number }[],
  o: MarginOptions = {},
  ctx: JobContext = silentContext(),
): Promise<ThresholdChoice> {
  const J = p.y.length / p.dim;
  const truth = new Set(gold.map((g) => g.src * J + g.tgt));
  const scored: ScoredCandidate[] = (await minePairs(p, -Infinity, o, ctx)).map((m) => ({
    score: m.score,
    correct: truth.has(m.src * J + m.tgt),
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
