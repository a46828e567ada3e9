// Cross-domain similarity local scaling (seed 003 eq. 17, Conneau et al. 2018): extraction
// within a sentence pair (models/bilstm), word translation over whole vocabularies by CSLS or
// by the plain nearest neighbour (the lexicons of models/bilstm and models/bisent2vec), and
// the k-nearest-neighbour means the margin score shares (margin.ts).
// Index conventions: X [I, D], Y [J, D] L2-normalised rows; C_ij = cos(x_i, y_j);
//   r_T(i) = mean of the K largest C_i·  (x_i's K nearest target words),
//   r_S(j) = mean of the K largest C_·j (y_j's K nearest source words),
//   CSLS_ij = 2·C_ij − r_T(i) − r_S(j).
// K is capped by the number of candidates. agreement-em.ts turns CSLS into alignment priors.
// Hand-written loops: the matrices are small (a sentence pair) or are scanned once row by row
// so that no I×J matrix is held (a 30k-sentence corpus would need 3.6 GB).
import { checkCancelled, type JobContext, silentContext } from '../jobs/job-context.ts';

/** K within a sentence pair (eq. 17's neighbourhood). */
export const PAIR_CSLS_K = 3;

/** Rows of x [n, d] scaled to unit length in place (a zero row stays zero), so that dot products are cosines; returns x. */
export function unitRows(x: Float32Array, d: number): Float32Array {
  for (let o = 0; o < x.length; o += d) {
    let s = 0;
    for (let t = 0; t < d; t++) s += x[o + t] ** 2;
    const f = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < d; t++) x[o + t] *= f;
  }
  return x;
}

export function cosines(x: Float32Array, y: Float32Array, d: number): Float32Array {
  const I = x.length / d,
    J = y.length / d;
  const c = new Float32Array(I * J);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += x[i * d + k] * y[j * d + k];
      c[i * J + j] = s;
    }
  return c;
}

/** Indices of the k largest of values(0…n−1), best first (insertion into a short list). */
export function topK(n: number, k: number, value: (i: number) => number): number[] {
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (best.length === k && v <= value(best[k - 1])) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && value(best[at - 1]) < v) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}

function topMean(n: number, k: number, value: (i: number) => number): number {
  const top = topK(n, k, value);
  return top.reduce((a, i) => a + value(i), 0) / Math.max(1, top.length);
}

/** CSLS [I, J] from cosines C [I, J]. */
export function csls(c: Float32Array, I: number, J: number, K: number): Float32Array {
  const rT = Array.from({ length: I }, (_, i) => topMean(J, K, (j) => c[i * J + j]));
  const rS = Array.from({ length: J }, (_, j) => topMean(I, K, (i) => c[i * J + j]));
  const out = new Float32Array(I * J);
  for (let i = 0; i < I; i++) for (let j = 0; j < J; j++) out[i * J + j] = 2 * c[i * J + j] - rT[i] - rS[j];
  return out;
}

/**
 * Each row's k nearest rows of the other side (neighbourhoods()): `xNear`/`xSim` [I, k] hold
 * x_i's nearest y (best first) and their cosines, `xMean` [I] their mean (r_T of CSLS; the
 * margin's neighbourhood term), and the same from y's side. Fewer than k candidates: the
 * missing slots hold −1.
 */
export interface Neighbourhoods {
  k: number;
  xNear: Int32Array;
  xSim: Float32Array;
  xMean: Float32Array;
  yNear: Int32Array;
  ySim: Float32Array;
  yMean: Float32Array;
}

/** Inserts (index, value) into the sorted top list at [at, at+k) when it beats the last kept. */
function keep(near: Int32Array, sim: Float32Array, at: number, k: number, index: number, value: number): void {
  if (value <= sim[at + k - 1]) return;
  let p = at + k - 1;
  while (p > at && sim[p - 1] < value) {
    sim[p] = sim[p - 1];
    near[p] = near[p - 1];
    p--;
  }
  sim[p] = value;
  near[p] = index;
}

function means(near: Int32Array, sim: Float32Array, n: number, k: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0,
      c = 0;
    for (let r = 0; r < k; r++) if (near[i * k + r] >= 0) ((s += sim[i * k + r]), c++);
    out[i] = c ? s / c : 0;
  }
  return out;
}

/**
 * Neighbourhoods for sets too large for an I×J matrix (a vocabulary, a corpus' sentences):
 * x [I, D] and y [J, D] with unit rows; one pass over the cosines, row by row, reporting
 * progress (rows of x done) and stopping with CancelledError when `ctx.signal` fires.
 */
export function neighbourhoods(x: Float32Array, y: Float32Array, d: number, k: number, ctx: JobContext = silentContext()): Neighbourhoods {
  const I = x.length / d,
    J = y.length / d;
  const xNear = new Int32Array(I * k).fill(-1),
    yNear = new Int32Array(J * k).fill(-1);
  const xSim = new Float32Array(I * k).fill(-Infinity),
    ySim = new Float32Array(J * k).fill(-Infinity);
  for (let i = 0; i < I; i++) {
    if ((i & 255) === 0) {
      checkCancelled(ctx.signal);
      ctx.progress({ done: i, total: I });
    }
    const xo = i * d;
    for (let j = 0; j < J; j++) {
      const yo = j * d;
      let s = 0;
      for (let t = 0; t < d; t++) s += x[xo + t] * y[yo + t];
      keep(xNear, xSim, i * k, k, j, s);
      keep(yNear, ySim, j * k, k, i, s);
    }
  }
  ctx.progress({ done: I, total: I });
  return { k, xNear, xSim, xMean: means(xNear, xSim, I, k), yNear, ySim, yMean: means(yNear, ySim, J, k) };
}

/** The dot product of row i of x and row j of y. */
export function rowDot(x: Float32Array, i: number, y: Float32Array, j: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[i * d + t] * y[j * d + t];
  return s;
}

/** For each of I rows, the `n` indices j < J of highest score(i, j), best first (one pass over the J candidates per row). */
function bestPerRow(
  I: number,
  J: number,
  n: number,
  score: (i: number, j: number) => number,
  ctx: JobContext,
): { index: number; score: number }[][] {
  const near = new Int32Array(n),
    sim = new Float32Array(n);
  const out: { index: number; score: number }[][] = [];
  for (let i = 0; i < I; i++) {
    if ((i & 255) === 0) checkCancelled(ctx.signal);
    near.fill(-1);
    sim.fill(-Infinity);
    for (let j = 0; j < J; j++) keep(near, sim, 0, n, j, score(i, j));
    const row: { index: number; score: number }[] = [];
    for (let r = 0; r < n && near[r] >= 0; r++) row.push({ index: near[r], score: sim[r] });
    out.push(row);
  }
  return out;
}

/**
 * Word translation by CSLS over whole vocabularies (Conneau et al. 2018; seed 002's word
 * retrieval, seed 003's P@1 with K = 3): for each x_i the `n` rows of y with the highest
 * 2·cos − r_T(i) − r_S(j), best first, with K-neighbourhood means from `neighbourhoods` (a
 * second pass over the cosines).
 */
export function cslsTranslations(
  x: Float32Array,
  y: Float32Array,
  d: number,
  K: number,
  n: number,
  ctx: JobContext = silentContext(),
): { index: number; score: number }[][] {
  const nb = neighbourhoods(x, y, d, K, ctx);
  return bestPerRow(x.length / d, y.length / d, n, (i, j) => 2 * rowDot(x, i, y, j, d) - nb.xMean[i] - nb.yMean[j], ctx);
}

/** Word translation by plain nearest neighbour (seed 002's NN rows): for each x_i the `n` rows of y of highest cosine, best first. */
export function nearestTranslations(
  x: Float32Array,
  y: Float32Array,
  d: number,
  n: number,
  ctx: JobContext = silentContext(),
): { index: number; score: number }[][] {
  return bestPerRow(x.length / d, y.length / d, n, (i, j) => rowDot(x, i, y, j, d), ctx);
}

/** How word translations are read off two vocabularies' unit vectors: CSLS with its K, or the plain nearest neighbour. */
export type VocabularyExtraction = { kind: 'csls'; K: number } | { kind: 'nn' };

/** cslsTranslations or nearestTranslations, as `how` says; the score is the CSLS value or the cosine. */
export function vocabularyTranslations(
  x: Float32Array,
  y: Float32Array,
  d: number,
  how: VocabularyExtraction,
  n: number,
  ctx: JobContext = silentContext(),
): { index: number; score: number }[][] {
  return how.kind === 'csls' ? cslsTranslations(x, y, d, how.K, n, ctx) : nearestTranslations(x, y, d, n, ctx);
}
