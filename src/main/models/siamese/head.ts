// Seed 004's siamese head: one linear layer (d×d, with bias) shared by both languages'
// frozen sentence embeddings, with dropout after it in training, trained with the
// contrastive margin loss of Hadsell et al. on the Euclidean distance D = ‖E_x − E_y‖:
//   L = ½(1 − l)·D² + ½·l·max(0, m − D)²,  m the margin
// where l = 0 for a project pair (x_i, y_i) and l = 1 for a mismatch (x_i, y_j), one per
// positive in each batch. The mismatch is, by `negatives`, a random other pair's target, or
// (seed 004's "worst" negative, its Table 13: 63.1 P@1 against 58.6 for random) the target
// of another pair of the same batch that is nearest to x_i under the head as it stands at
// that step (Euclidean distance between the head's outputs without dropout, the loss's
// distance), so it tracks the head as it trains rather than the frozen encoder's space; a
// target equal to y_i (a repeated translation) is never taken as its mismatch. With
// `negatives: 'average'` (its Table 13's third row, 57.3 P@1) a pair has no single mismatch:
// its mismatch term is ½·max(0, m − D(x_i, y_j))² averaged over every other target y_j of the
// batch (never its own, nor one equal to y_i), under the head as it trains. Embeddings
// in and out are normalised unit, center, unit (length 1, minus the mean of their
// language, length 1 again), as the paper does.
// Inputs: the sentence vectors of any family that gives them (the registry's SIAMESE_HEAD,
// sentence-encoders.ts: Bi-Sent2Vec, the BiLSTM's pooled encoder states, a transformer's
// mean-pooled layer; `mekong siamese`); the encoder stays frozen. The weight starts at the
// identity, so an untrained head leaves the space as it is and training only moves it where the pairs say;
// the paper's lr 5e-6 over 70 epochs is for mBERT's 768 dimensions. On Bi-Sent2Vec vectors
// (already one space for both languages, trained on the same pairs) the head changes
// retrieval P@1 by less than a point at the default lr (other rates:
// docs/experiments.md). Its use is for encoders whose languages are not aligned yet (mBERT
// in seed 004), which cannot be measured here.
// Trained in the one training stack (nn/Trainer, AdamW; epochs, progress and cancel in the fit
// loop, train/fit-loop.ts), saved as a model folder.
import { SIAMESE_DEFAULTS } from '../../../shared/aligner-defaults.ts';
import type { SiameseOptions } from '../../../shared/aligner-options.ts';
import { Graph, type Value } from '../../nn/graph.ts';
import { dropout } from '../../nn/ops/random.ts';
import { add, matmul, mul, reduceMean, reduceSum, relu, sqrt, sub, unsqueeze } from '../../nn/ops/all-ops.ts';
import { Rng } from '../../nn/init.ts';
import { floats, type Tensor } from '../../nn/tensor.ts';
import { Trainer } from '../../nn/trainer.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import { fit } from '../../train/fit-loop.ts';
import { unitRows } from '../../eval/csls.ts';

/** The head's training settings: its options (siameseOptionsSchema), defaults SIAMESE_DEFAULTS (shared/aligner-defaults.ts). */
export type SiameseConfig = SiameseOptions;

export interface SiameseHead {
  dim: number;
  /** [d, d], applied as y = x·W + b */
  weight: Float32Array;
  bias: Float32Array;
}

/** unit, center, unit (a copy). */
export function normalised(x: Float32Array, d: number): Float32Array {
  const out = unitRows(Float32Array.from(x), d);
  const n = out.length / d;
  const mean = new Float64Array(d);
  for (let o = 0; o < out.length; o += d) for (let t = 0; t < d; t++) mean[t] += out[o + t] / n;
  for (let o = 0; o < out.length; o += d) for (let t = 0; t < d; t++) out[o + t] -= mean[t];
  return unitRows(out, d);
}

/** The head applied to embeddings [n, d], then normalised unit/center/unit. */
export function applyHead(h: SiameseHead, x: Float32Array): Float32Array {
  const d = h.dim;
  const out = new Float32Array(x.length);
  for (let o = 0; o < x.length; o += d)
    for (let j = 0; j < d; j++) {
      let s = h.bias[j];
      for (let t = 0; t < d; t++) s += x[o + t] * h.weight[t * d + j];
      out[o + j] = s;
    }
  return normalised(out, d);
}

/**
 * The training graph: the shared layer on both sides, dropout, the margin loss. With random
 * or hard negatives a batch is rows (x, y, label), each a pair (label 0) or a mismatch
 * (label 1), and the loss is the mean over the rows. With average negatives a batch is the
 * pairs (x_i, y_i) and `weights` [b, b] (mismatchWeights), pair i's mismatch term
 * Σ_j w_ij·½max(0, m − D(x_i, y_j))²; the loss is the same mean over 2b terms (b pairs, b
 * mismatch terms).
 */
export function siameseTrainingGraph(d: number, c: SiameseConfig): { g: Graph; loss: Value } {
  const g = new Graph();
  const x = g.input('x', 'float32', ['batch', d]);
  const y = g.input('y', 'float32', ['batch', d]);
  const eye = new Float32Array(d * d);
  for (let i = 0; i < d; i++) eye[i * d + i] = 1;
  const W = g.param('head.weight', [d, d], () => floats(eye, [d, d]));
  const b = g.param('head.bias', [d], () => floats(new Float32Array(d), [d]));
  const rng = new Rng(c.seed);
  const tower = (v: Value) => {
    const e = add(matmul(v, W), b);
    return c.dropout > 0 ? dropout(e, c.dropout, rng.int(2 ** 31)) : e;
  };
  const [ex, ey] = [tower(x), tower(y)];
  const diff = sub(ex, ey);
  const d2 = reduceSum(mul(diff, diff), [1]);
  const hinge2 = (squared: Value) => {
    const far = relu(sub(c.margin, sqrt(add(squared, 1e-9))));
    return mul(far, far);
  };
  if (c.negatives === 'average') {
    const w = g.input('weights', 'float32', ['batch', 'batch']);
    // every source against every target of the batch: [b, b, d] differences, [b, b] squared distances
    const cross = sub(unsqueeze(ex, [1]), unsqueeze(ey, [0]));
    const mismatch = reduceSum(mul(w, hinge2(reduceSum(mul(cross, cross), [2]))), [1]);
    return { g, loss: mul(reduceMean(add(d2, mismatch)), 0.25) };
  }
  const l = g.input('label', 'float32', ['batch']);
  const loss = reduceMean(mul(add(mul(sub(1, l), d2), mul(l, hinge2(d2))), 0.5));
  return { g, loss };
}

export interface SiameseTraining {
  head: SiameseHead;
  /** mean loss per epoch */
  losses: number[];
}

/** Rows `idx` of x [n, d] through the head: x·W + b, [idx.length, d]. */
function headRows(x: Float32Array, idx: readonly number[], d: number, W: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(idx.length * d);
  idx.forEach((i, k) => {
    const o = k * d;
    out.set(b, o);
    for (let t = 0; t < d; t++) {
      const v = x[i * d + t];
      if (v === 0) continue;
      const w = t * d;
      for (let j = 0; j < d; j++) out[o + j] += v * W[w + j];
    }
  });
  return out;
}

/** Rows `idx` of x [n, d], [idx.length, d]. */
function pickRows(x: Float32Array, idx: readonly number[], d: number): Float32Array {
  const out = new Float32Array(idx.length * d);
  idx.forEach((i, k) => out.set(x.subarray(i * d, (i + 1) * d), k * d));
  return out;
}

const squaredDistance = (a: Float32Array, ao: number, b: Float32Array, bo: number, d: number): number => {
  let s = 0;
  for (let t = 0; t < d; t++) {
    const e = a[ao + t] - b[bo + t];
    s += e * e;
  }
  return s;
};

/**
 * For each pair of the batch `idx`, the pair whose target is its hardest mismatch: among the
 * batch's other targets, the one nearest its source under the head (W, b); -1 when there
 * is none (a batch of one, or only repeats of its own target).
 */
export function hardestMismatches(
  x: Float32Array,
  y: Float32Array,
  idx: readonly number[],
  d: number,
  W: Float32Array,
  b: Float32Array,
): number[] {
  const ex = headRows(x, idx, d, W, b),
    ey = headRows(y, idx, d, W, b);
  return idx.map((_, k) => {
    let best = -1,
      bestD = Infinity;
    idx.forEach((j, m) => {
      if (m === k || squaredDistance(ey, m * d, ey, k * d, d) < 1e-12) return;
      const dist = squaredDistance(ex, k * d, ey, m * d, d);
      if (dist < bestD) [best, bestD] = [j, dist];
    });
    return best;
  });
}

/**
 * For the pairs `idx` of a batch, the weights [b, b] of average negatives: row k spreads 1
 * evenly over the batch's targets other than pair k's own and not equal to it (a repeated
 * translation); a row with none (a batch of one, or only repeats) is 0, and that pair has no
 * mismatch term.
 */
export function mismatchWeights(y: Float32Array, idx: readonly number[], d: number): Float32Array {
  const b = idx.length;
  const w = new Float32Array(b * b);
  idx.forEach((i, k) => {
    const others = idx.flatMap((j, m) => (m !== k && squaredDistance(y, j * d, y, i * d, d) >= 1e-12 ? [m] : []));
    for (const m of others) w[k * b + m] = 1 / others.length;
  });
  return w;
}

/**
 * Trains the head on pairs (x_i, y_i) of frozen embeddings [n, d] (normalised here first),
 * each batch half positives and half mismatches (config.negatives says which; with average
 * negatives, each batch's pairs and every other target of it).
 */
export async function trainSiameseHead(
  xRaw: Float32Array,
  yRaw: Float32Array,
  d: number,
  config: Partial<SiameseConfig> = {},
  ctx: JobContext = silentContext(),
): Promise<SiameseTraining> {
  const c = { ...SIAMESE_DEFAULTS, ...config };
  const x = normalised(xRaw, d),
    y = normalised(yRaw, d);
  const n = x.length / d;
  if (n < 2) throw new Error('siamese head: at least two pairs are needed (a mismatch needs another sentence)');
  const { g, loss } = siameseTrainingGraph(d, c);
  const half = Math.max(1, c.batch >> 1);
  const perEpoch = Math.ceil(n / half);
  const trainer = await Trainer.create(g, loss, {
    schedule: { base: c.lr, warmup: Math.min(50, perEpoch), total: perEpoch * c.epochs, decay: 'linear', minRatio: 0.05 },
    clipNorm: 5,
    weightDecay: 0,
  });
  const rng = new Rng(c.seed + 1);
  let order: number[] = [];
  try {
    const { losses } = await fit(
      {
        epochs: c.epochs,
        stepsPerEpoch: perEpoch,
        beginEpoch() {
          order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
        },
        step({ index, step }) {
          const idx = order.slice(index * half, (index + 1) * half);
          trainer.state.step = step;
          if (c.negatives === 'average') {
            const rows = (v: Float32Array) => floats(pickRows(v, idx, d), [idx.length, d]);
            const weights = floats(mismatchWeights(y, idx, d), [idx.length, idx.length]);
            return trainer.step({ x: rows(x), y: rows(y), weights });
          }
          const B = 2 * idx.length;
          const xb = new Float32Array(B * d),
            yb = new Float32Array(B * d),
            lb = new Float32Array(B);
          const p = trainer.state.params;
          const hard =
            c.negatives === 'hard'
              ? hardestMismatches(x, y, idx, d, p.get('head.weight')!.data as Float32Array, p.get('head.bias')!.data as Float32Array)
              : null;
          idx.forEach((i, k) => {
            // a mismatch: the batch's hardest target, or (random, or none in the batch) another pair's target, never the pair's own
            const j = hard && hard[k] >= 0 ? hard[k] : (i + 1 + rng.int(n - 1)) % n;
            xb.set(x.subarray(i * d, (i + 1) * d), k * d);
            yb.set(y.subarray(i * d, (i + 1) * d), k * d);
            xb.set(x.subarray(i * d, (i + 1) * d), (idx.length + k) * d);
            yb.set(y.subarray(j * d, (j + 1) * d), (idx.length + k) * d);
            lb[idx.length + k] = 1;
          });
          return trainer.step({ x: floats(xb, [B, d]), y: floats(yb, [B, d]), label: floats(lb, [B]) });
        },
        model: () => trainer.state.params,
      },
      ctx,
      { phase: { label: 'siamese head: epoch' } },
    );
    const p = trainer.state.params;
    const data = (t: Tensor | undefined) => Float32Array.from(t!.data as Float32Array);
    return { head: { dim: d, weight: data(p.get('head.weight')), bias: data(p.get('head.bias')) }, losses };
  } finally {
    await trainer.release();
  }
}
