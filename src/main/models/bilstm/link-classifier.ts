// The link decision learned from a linguist's gold links: L2-regularised logistic regressions
// over features of each cell (source word i, target word j) of a pair, fitted on gold pairs
// the model did not train on, then applied to every other pair instead of a fixed
// symmetrisation heuristic (a discriminative aligner over the model's signals, as Moore 2005
// or Liu et al. 2005 over IBM models' signals). The link's score is its probability.
// Features of cell (i, j) (cellFeatures), standardised on the fitting cells:
//   the EM posteriors g_ij, h_ij (agreement-em.ts), their logs and their ratios to the best
//   of their column / row; whether j is i's most probable partner and i is j's; whether
//   grow-diag-final-and keeps the cell; the eq. 17 CSLS; the relative position distance
//   |(i + ½)/I − (j + ½)/J|; identical strings; the best agreed posterior √(g·h) at the
//   diagonal and at the anti-diagonal neighbours; punctuation on either side; how many
//   source words take j as their most probable partner and how many target words take i;
//   min(g, h) and g·h; what the known gold says about the words (gold-stats.ts): how often
//   the source word and the target word are left unlinked, how often the two are linked
//   where they meet, and how often their stems are (each lowers held-out AER:
//   docs/experiments.md).
// A second stage (stacking) adds what the first decided around the cell (contextFeatures:
// the cell's first-stage probability, the best other cell of its row and of its column, its
// best diagonal neighbour, its best neighbour in its row and in its column, the rows' and
// columns' other totals), so a word already linked elsewhere, a link continuing a diagonal or
// a word linked to the neighbour of its partner (one word to a phrase) weighs in; it lowers
// held-out AER on ro-en and zh-en (docs/experiments.md).
// Fitting: Newton–Raphson (IRLS) with an L2 penalty, the linear solves by ml-matrix's
// Cholesky decomposition; the decision threshold is the one of THRESHOLDS with the lowest
// AER on the fitting pairs (AER rewards recall more than a 0.5 cut-off does). Hand-written
// over ml-matrix: npm's logistic regression (ml-logistic-regression 2.0) fits by fixed-step
// gradient descent without a penalty, and stacking needs our own feature rows anyway.
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { scoreAer } from '../../eval/aer.ts';
import type { GoldStats } from './gold-stats.ts';
import type { CorpusLinks } from '../../../shared/link-set.ts';

const L2 = 1;
/** a token penalty on the bias keeps the Newton system positive definite even if every fitting cell is linked */
const BIAS_L2 = 1e-6;
const STAGES = 2;
const MAX_NEWTON_STEPS = 50;
const CONVERGED = 1e-6;
const THRESHOLDS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
const POSTERIOR_FLOOR = 1e-4;
const PUNCTUATION = /^\p{P}+$/u;

/** A pair's signals for the link decision. */
/** One pair's directional posteriors (agreement-em.ts makes them; the decision reads them). */
export interface PairPosteriors {
  I: number;
  J: number;
  /** g: for each target word, over the source words */
  g: Float64Array;
  /** h: for each source word, over the target words */
  h: Float64Array;
}

export interface PairSignals extends PairPosteriors {
  src: readonly string[];
  tgt: readonly string[];
  /** eq. 17 CSLS [I·J] */
  csls: Float32Array;
  /** the grow-diag-final-and heuristic's links [I·J] */
  gdfa: Uint8Array;
  /** j is i's most probable partner (h) / i is j's (g) [I·J] */
  fwd: Uint8Array;
  rev: Uint8Array;
  /** what the known gold links say about the pair's words */
  stats: GoldStats;
}

/** One logistic regression over standardised features. */
export interface LinkStage {
  mean: number[];
  scale: number[];
  /** bias first */
  weights: number[];
}

export interface LinkClassifier {
  /** the first over cellFeatures, each next one over cellFeatures + contextFeatures of the previous one's probabilities */
  stages: LinkStage[];
  threshold: number;
}

/** Length of cellFeatures' and contextFeatures' rows: a saved decision must have weights for these. */
const CELL_FEATURES = 24;
const CONTEXT_FEATURES = 8;

/** Why a saved decision does not fit this version's features (fitted by an older one), or null if it does. */
export function decisionMismatch(c: LinkClassifier): string | null {
  const want = c.stages.map((_, n) => 1 + CELL_FEATURES + (n > 0 ? CONTEXT_FEATURES : 0));
  const have = c.stages.map((st) => st.weights.length);
  return have.every((w, n) => w === want[n]) && have.length > 0
    ? null
    : `its link decision has ${have.join(' + ')} weights where this version of Mekong computes ${want.join(' + ')}`;
}

/** Feature rows of every cell of a pair, source-major. */
export function cellFeatures(p: PairSignals): number[][] {
  const { I, J, g, h } = p;
  const rowMax = new Float64Array(I),
    colMax = new Float64Array(J);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      rowMax[i] = Math.max(rowMax[i], h[i * J + j]);
      colMax[j] = Math.max(colMax[j], g[i * J + j]);
    }
  const intoCol = new Float64Array(J),
    fromRow = new Float64Array(I);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      intoCol[j] += p.fwd[i * J + j];
      fromRow[i] += p.rev[i * J + j];
    }
  const agreed = (i: number, j: number) => (i < 0 || j < 0 || i >= I || j >= J ? 0 : Math.sqrt(g[i * J + j] * h[i * J + j]));
  const rows: number[][] = [];
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      const x = i * J + j;
      rows.push([
        g[x],
        h[x],
        Math.log(g[x] + POSTERIOR_FLOOR),
        Math.log(h[x] + POSTERIOR_FLOOR),
        g[x] / (colMax[j] || 1),
        h[x] / (rowMax[i] || 1),
        p.fwd[x],
        p.rev[x],
        p.gdfa[x],
        p.csls[x],
        Math.abs((i + 0.5) / I - (j + 0.5) / J),
        p.src[i] === p.tgt[j] ? 1 : 0,
        Math.max(agreed(i - 1, j - 1), agreed(i + 1, j + 1)),
        Math.max(agreed(i - 1, j + 1), agreed(i + 1, j - 1)),
        PUNCTUATION.test(p.src[i]) ? 1 : 0,
        PUNCTUATION.test(p.tgt[j]) ? 1 : 0,
        intoCol[j],
        fromRow[i],
        Math.min(g[x], h[x]),
        g[x] * h[x],
        p.stats.unlinkedSrc(p.src[i]),
        p.stats.unlinkedTgt(p.tgt[j]),
        p.stats.linkRate(p.src[i], p.tgt[j]),
        p.stats.stemLinkRate(p.src[i], p.tgt[j]),
      ]);
    }
  return rows;
}

/** The largest value of `values` at indices other than `skip`, given the largest two and where the largest is. */
const bestOther = (top: [number, number, number], skip: number) => (skip === top[2] ? top[1] : top[0]);

/** Largest, second largest value and the largest's index among value(n), n < count. */
function topTwo(count: number, value: (n: number) => number): [number, number, number] {
  const top: [number, number, number] = [0, 0, -1];
  for (let n = 0; n < count; n++) {
    const v = value(n);
    if (v > top[0]) [top[1], top[0], top[2]] = [top[0], v, n];
    else if (v > top[1]) top[1] = v;
  }
  return top;
}

/** What a previous stage decided around each cell: its probability, the best other one of its
 *  row and of its column, the best diagonal neighbour, the other cells' total in row and column. */
function contextFeatures(prob: Float64Array, I: number, J: number): number[][] {
  const at = (i: number, j: number) => (i < 0 || j < 0 || i >= I || j >= J ? 0 : prob[i * J + j]);
  const rowTop = Array.from({ length: I }, (_, i) => topTwo(J, (j) => prob[i * J + j]));
  const colTop = Array.from({ length: J }, (_, j) => topTwo(I, (i) => prob[i * J + j]));
  const rowSum = new Float64Array(I),
    colSum = new Float64Array(J);
  prob.forEach((v, x) => ((rowSum[Math.floor(x / J)] += v), (colSum[x % J] += v)));
  const rows: number[][] = [];
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      const p = prob[i * J + j];
      rows.push([
        p,
        bestOther(rowTop[i], j),
        bestOther(colTop[j], i),
        Math.max(at(i - 1, j - 1), at(i + 1, j + 1), at(i - 1, j + 1), at(i + 1, j - 1)),
        Math.max(at(i, j - 1), at(i, j + 1)),
        Math.max(at(i - 1, j), at(i + 1, j)),
        rowSum[i] - p,
        colSum[j] - p,
      ]);
    }
  return rows;
}

const sigmoid = (a: number) => 1 / (1 + Math.exp(-a));

function stageProbabilities(st: LinkStage, rows: number[][]): Float64Array {
  return Float64Array.from(rows, (r) =>
    sigmoid(r.reduce((a, v, d) => a + (st.weights[d + 1] * (v - st.mean[d])) / st.scale[d], st.weights[0])),
  );
}

/** Stage n's feature rows of a pair, given the previous stage's probabilities. */
function stageRows(base: number[][], p: PairSignals, previous: Float64Array | null): number[][] {
  if (!previous) return base;
  const context = contextFeatures(previous, p.I, p.J);
  return base.map((r, x) => [...r, ...context[x]]);
}

/** Link probability of each cell of a pair. */
export function linkProbabilities(c: LinkClassifier, p: PairSignals): Float64Array {
  const base = cellFeatures(p);
  let prob: Float64Array | null = null;
  for (const st of c.stages) prob = stageProbabilities(st, stageRows(base, p, prob));
  return prob!;
}

/** Column means and standard deviations (1 where a feature is constant). */
function standardiser(rows: number[][]): { mean: number[]; scale: number[] } {
  const D = rows[0].length;
  const mean = new Array<number>(D).fill(0),
    sq = new Array<number>(D).fill(0);
  for (const r of rows) r.forEach((v, d) => ((mean[d] += v), (sq[d] += v * v)));
  for (let d = 0; d < D; d++) mean[d] /= rows.length;
  const scale = sq.map((s, d) => Math.sqrt(Math.max(s / rows.length - mean[d] ** 2, 0)) || 1);
  return { mean, scale };
}

/** Logistic regression weights (bias first) by Newton–Raphson with an L2 penalty on all but the bias. */
function fitWeights(X: Matrix, y: Float64Array): number[] {
  const Xt = X.transpose();
  const penalty = Matrix.eye(X.columns).mul(L2);
  penalty.set(0, 0, BIAS_L2);
  let w = Matrix.zeros(X.columns, 1);
  for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
    const p = X.mmul(w).to1DArray().map(sigmoid);
    // Hessian AᵀA with A = diag(√(p(1 − p)))·X: exactly symmetric, as the Cholesky solve requires
    const A = X.clone();
    p.forEach((v, r) => A.mulRow(r, Math.sqrt(v * (1 - v))));
    const grad = Xt.mmul(Matrix.columnVector(p.map((v, r) => v - y[r]))).add(penalty.mmul(w));
    const delta = new CholeskyDecomposition(A.transpose().mmul(A).add(penalty)).solve(grad);
    w = w.sub(delta);
    if (delta.norm('max') < CONVERGED) break;
  }
  return w.to1DArray();
}

/** One stage fitted on feature rows and their labels. */
function fitStage(rows: number[][], y: Float64Array): LinkStage {
  const { mean, scale } = standardiser(rows);
  const X = new Matrix(rows.map((r) => [1, ...r.map((v, d) => (v - mean[d]) / scale[d])]));
  return { mean, scale, weights: fitWeights(X, y) };
}

/** Fits the link decision on pairs with known links (their signals from a model that did not train on them). */
export function fitLinkClassifier(pairs: readonly PairSignals[], links: CorpusLinks): LinkClassifier {
  const base = pairs.map(cellFeatures);
  const y = new Float64Array(base.reduce((n, b) => n + b.length, 0));
  let off = 0;
  pairs.forEach((p, k) => {
    for (const l of links[k] ?? []) if (l.s < p.I && l.t < p.J) y[off + l.s * p.J + l.t] = 1;
    off += p.I * p.J;
  });
  const c: LinkClassifier = { stages: [], threshold: 0.5 };
  let probs: (Float64Array | null)[] = pairs.map(() => null);
  for (let n = 0; n < STAGES; n++) {
    const rows = pairs.map((p, k) => stageRows(base[k], p, probs[k]));
    const st = fitStage(rows.flat(), y);
    c.stages.push(st);
    probs = rows.map((r) => stageProbabilities(st, r));
  }
  const gold = pairs.map((_, k) => ({ sure: (links[k] ?? []).map((l): [number, number] => [l.s, l.t]), possible: [] }));
  const aer = THRESHOLDS.map(
    (th) =>
      scoreAer(
        gold,
        pairs.map((p, k) => cellsAbove(probs[k]!, p.J, th)),
      ).aer,
  );
  c.threshold = THRESHOLDS[aer.indexOf(Math.min(...aer))];
  return c;
}

/** (s, t) of the cells whose probability reaches the threshold. */
export function cellsAbove(prob: Float64Array, J: number, threshold: number): [number, number][] {
  const out: [number, number][] = [];
  prob.forEach((v, x) => v >= threshold && out.push([Math.floor(x / J), x % J]));
  return out;
}
