// Cross-domain similarity local scaling (seed 003 eq. 17, Conneau et al. 2018): extraction
// within a sentence pair (models/bilstm), word translation over whole vocabularies by CSLS or
// by the plain nearest neighbour (the lexicons of models/bilstm and models/bisent2vec), and
// the k-nearest-neighbour means the margin score shares (margin.ts).
// Index conventions: X [I, D], Y [J, D] L2-normalised rows; C_ij = cos(x_i, y_j);
//   r_T(i) = mean of the K largest C_i·  (x_i's K nearest target words),
//   r_S(j) = mean of the K largest C_·j (y_j's K nearest source words),
//   CSLS_ij = 2·C_ij − r_T(i) − r_S(j).
// K is capped by the number of candidates. agreement-em.ts turns CSLS into alignment priors.
// Within a sentence pair the matrices are small and hand-written loops do. Whole vocabularies
// and corpora (tens of thousands of rows each) go through blocked matrix products in
// onnxruntime instead (scan()): a block of x's rows times all of y, the k largest of each row
// and of each column picked in the same session run (TopK: equal values in index order, as a
// scan from the lowest index keeps them), so no I×J matrix is held (a 30k-sentence corpus
// would need 3.6 GB) and the products run at MatMul's speed rather than a JS loop's.
import { checkCancelled, type JobContext, silentContext } from '../jobs/job-context.ts';
import { Graph, type Value } from '../nn/graph.ts';
import { largestK, matmul, mul, sub, transposeLast } from '../nn/ops/all-ops.ts';
import { Program } from '../nn/session.ts';
import { Tensor } from '../nn/tensor.ts';

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

/** Inserts (index, value) into the sorted top list at [at, at+k) when it beats the last kept; false when it does not. */
function keep(near: Int32Array, sim: Float32Array, at: number, k: number, index: number, value: number): boolean {
  if (value <= sim[at + k - 1]) return false;
  let p = at + k - 1;
  while (p > at && sim[p - 1] < value) {
    sim[p] = sim[p - 1];
    near[p] = near[p - 1];
    p--;
  }
  sim[p] = value;
  near[p] = index;
  return true;
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

/** Cells of one block's score matrix [rows, J] (32 MB; the session holds a few temporaries of that size). */
const BLOCK_CELLS = 1 << 23;

/** Rows of x per block (absent: as many as keep a block's scores within BLOCK_CELLS; tests ask for small blocks). */
export interface BlockSize {
  blockRows?: number;
}

/** What scan() picks from the scores S = scale·X·Yᵀ − r_i − c_j of each block: the k largest of each row and of each column (0: none). */
interface ScanPlan {
  rowK: number;
  colK: number;
  /** CSLS's 2 and its r_T(i), r_S(j); absent: the bare products */
  shift?: { scale: number; row: Float32Array; col: Float32Array };
}

/** One block's picks: `rows` [B, rowK] and `cols` [colK, J] (values and their indices; a column's indices count from the block's first row). */
interface BlockPicks {
  start: number;
  size: number;
  rowValues: Float32Array;
  rowIndices: BigInt64Array;
  colValues: Float32Array;
  colIndices: BigInt64Array;
}

/**
 * Blocked scores of x [I, D] against y [J, D]: x's rows in blocks of B (the last padded with
 * rows scored −∞, which no pick keeps) times all of y in one onnxruntime session on the CPU,
 * each block's picks handed to `onBlock` in the order of the rows. Progress counts x's rows;
 * cancel is checked between blocks.
 */
async function scan(
  x: Float32Array,
  y: Float32Array,
  d: number,
  plan: ScanPlan,
  onBlock: (b: BlockPicks) => void,
  ctx: JobContext,
  size: BlockSize,
): Promise<void> {
  const I = x.length / d,
    J = y.length / d;
  if (!I || !J) return;
  const blocks = Math.ceil(I / Math.min(I, Math.max(1, size.blockRows ?? Math.floor(BLOCK_CELLS / J))));
  const B = Math.ceil(I / blocks);
  const rowK = Math.min(plan.rowK, J),
    colK = Math.min(plan.colK, B);
  const g = new Graph();
  const xb = g.input('x', 'float32', [B, d]);
  const yv = g.input('y', 'float32', [J, d]);
  const rowShift = g.input('row_shift', 'float32', [B, 1]);
  let scores = matmul(xb, transposeLast(yv));
  if (plan.shift) scores = sub(mul(scores, plan.shift.scale), g.input('col_shift', 'float32', [1, J]));
  scores = sub(scores, rowShift);
  const outputs: Record<string, Value> = {};
  if (rowK) {
    const top = largestK(scores, rowK, 1);
    outputs.rowValues = top.values;
    outputs.rowIndices = top.indices;
  }
  if (colK) {
    const top = largestK(scores, colK, 0);
    outputs.colValues = top.values;
    outputs.colIndices = top.indices;
  }
  const program = await Program.compile(g, outputs, { device: 'cpu', log: () => {} });
  try {
    const yFeed = new Tensor('float32', y, [J, d]);
    const colFeed: Record<string, Tensor> = plan.shift ? { col_shift: new Tensor('float32', plan.shift.col, [1, J]) } : {};
    for (let start = 0; start < I; start += B) {
      checkCancelled(ctx.signal);
      ctx.progress({ done: start, total: I });
      const count = Math.min(B, I - start);
      const rows = new Float32Array(B * d);
      rows.set(x.subarray(start * d, (start + count) * d));
      const shifts = new Float32Array(B).fill(Infinity);
      for (let r = 0; r < count; r++) shifts[r] = plan.shift ? plan.shift.row[start + r] : 0;
      const out = await program.run({
        x: new Tensor('float32', rows, [B, d]),
        y: yFeed,
        row_shift: new Tensor('float32', shifts, [B, 1]),
        ...colFeed,
      });
      onBlock({
        start,
        size: count,
        rowValues: (out.rowValues?.data as Float32Array | undefined) ?? new Float32Array(0),
        rowIndices: (out.rowIndices?.data as BigInt64Array | undefined) ?? new BigInt64Array(0),
        colValues: (out.colValues?.data as Float32Array | undefined) ?? new Float32Array(0),
        colIndices: (out.colIndices?.data as BigInt64Array | undefined) ?? new BigInt64Array(0),
      });
    }
    ctx.progress({ done: I, total: I });
  } finally {
    await program.release();
  }
}

/** Best-first lists of n slots per row (index −1 and −∞ where fewer candidates exist). */
function emptyLists(rows: number, n: number): { near: Int32Array; sim: Float32Array } {
  return { near: new Int32Array(rows * n).fill(-1), sim: new Float32Array(rows * n).fill(-Infinity) };
}

/** Copies a block's row picks [B, kk] into best-first lists of n slots (kk ≤ n). */
function takeRows(b: BlockPicks, kk: number, n: number, near: Int32Array, sim: Float32Array): void {
  for (let r = 0; r < b.size; r++)
    for (let q = 0; q < kk; q++) {
      near[(b.start + r) * n + q] = Number(b.rowIndices[r * kk + q]);
      sim[(b.start + r) * n + q] = b.rowValues[r * kk + q];
    }
}

/**
 * Neighbourhoods for sets too large for an I×J matrix (a vocabulary, a corpus' sentences):
 * x [I, D] and y [J, D] with unit rows; blocked products (scan()), each block's column picks
 * merged into y's lists in the order of x's rows, so equal cosines keep the lower index first
 * on both sides. Progress counts x's rows; cancel stops it with CancelledError.
 */
export async function neighbourhoods(
  x: Float32Array,
  y: Float32Array,
  d: number,
  k: number,
  ctx: JobContext = silentContext(),
  size: BlockSize = {},
): Promise<Neighbourhoods> {
  const I = x.length / d,
    J = y.length / d;
  const xs = emptyLists(I, k),
    ys = emptyLists(J, k);
  await scan(
    x,
    y,
    d,
    { rowK: k, colK: k },
    (b) => {
      takeRows(b, Math.min(k, J), k, xs.near, xs.sim);
      const kk = b.colValues.length / J;
      for (let j = 0; j < J; j++)
        for (let q = 0; q < kk; q++) {
          const v = b.colValues[q * J + j];
          // a column's picks are best first: once one is not kept, neither is the rest
          if (v === -Infinity || !keep(ys.near, ys.sim, j * k, k, b.start + Number(b.colIndices[q * J + j]), v)) break;
        }
    },
    ctx,
    size,
  );
  return {
    k,
    xNear: xs.near,
    xSim: xs.sim,
    xMean: means(xs.near, xs.sim, I, k),
    yNear: ys.near,
    ySim: ys.sim,
    yMean: means(ys.near, ys.sim, J, k),
  };
}

/** The dot product of row i of x and row j of y. */
export function rowDot(x: Float32Array, i: number, y: Float32Array, j: number, d: number): number {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[i * d + t] * y[j * d + t];
  return s;
}

/** For each row of x, the `n` rows of y of highest score (scan()'s S), best first, with their scores. */
async function bestPerRow(
  x: Float32Array,
  y: Float32Array,
  d: number,
  n: number,
  shift: ScanPlan['shift'],
  ctx: JobContext,
  size: BlockSize,
): Promise<{ index: number; score: number }[][]> {
  const I = x.length / d,
    J = y.length / d;
  const kk = Math.min(n, J);
  const out: { index: number; score: number }[][] = Array.from({ length: I }, () => []);
  await scan(
    x,
    y,
    d,
    { rowK: n, colK: 0, shift },
    (b) => {
      for (let r = 0; r < b.size; r++)
        for (let q = 0; q < kk; q++) out[b.start + r].push({ index: Number(b.rowIndices[r * kk + q]), score: b.rowValues[r * kk + q] });
    },
    ctx,
    size,
  );
  return out;
}

/**
 * Word translation by CSLS over whole vocabularies (Conneau et al. 2018; seed 002's word
 * retrieval, seed 003's P@1 with K = 3): for each x_i the `n` rows of y with the highest
 * 2·cos − r_T(i) − r_S(j), best first, with K-neighbourhood means from `neighbourhoods` (a
 * second pass over the products).
 */
export async function cslsTranslations(
  x: Float32Array,
  y: Float32Array,
  d: number,
  K: number,
  n: number,
  ctx: JobContext = silentContext(),
  size: BlockSize = {},
): Promise<{ index: number; score: number }[][]> {
  const nb = await neighbourhoods(x, y, d, K, ctx, size);
  return bestPerRow(x, y, d, n, { scale: 2, row: nb.xMean, col: nb.yMean }, ctx, size);
}

/** Word translation by plain nearest neighbour (seed 002's NN rows): for each x_i the `n` rows of y of highest cosine, best first. */
export function nearestTranslations(
  x: Float32Array,
  y: Float32Array,
  d: number,
  n: number,
  ctx: JobContext = silentContext(),
  size: BlockSize = {},
): Promise<{ index: number; score: number }[][]> {
  return bestPerRow(x, y, d, n, undefined, ctx, size);
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
): Promise<{ index: number; score: number }[][]> {
  return how.kind === 'csls' ? cslsTranslations(x, y, d, how.K, n, ctx) : nearestTranslations(x, y, d, n, ctx);
}
