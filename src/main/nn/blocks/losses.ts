// Losses (each returns a scalar mean over the batch).
//   InfoNCE, a, b [B, D] paired row by row, τ temperature, with u = a/‖a‖, v = b/‖b‖:
//     S = u·vᵀ/τ;  L = −mean_i log softmax(S)_ii  (symmetric: average with Sᵀ)
//   Margin contrastive (Hadsell et al.), y ∈ {1 similar, 0 dissimilar}, d = ‖a − b‖:
//     L = mean( y·d² + (1 − y)·max(0, m − d)² )
//   Softmax cross-entropy over a vocabulary, logits [N, V], targets [N] (int64),
//     optional weights w [N] (0 for padding):  L = Σ_i w_i·(−log softmax(z_i)[t_i]) / Σ w
//   The same through an output table E [V, D] (logits z = h·Eᵀ, h [..., D] flattened to [N, D]):
//     −log softmax(z_i)[t_i] = logsumexp(z_i) − h_i·E[t_i],  logsumexp(z) = m + log Σ exp(z − m),
//     m = max z (no gradient). The picked logit is a dot product of gathered rows, so no [N, V]
//     one-hot cotangent is zero-filled and scattered; flat rows make Ē one [D, N]·[N, V] GEMM
//     instead of a product per batch row summed over the batch; and logsumexp is built of
//     Max/Sub/Exp/Sum because onnxruntime's ReduceLogSumExp is four times slower than
//     Softmax on the same rows. This form makes a bilstm-ctl step about a third faster than
//     LogSoftmax–GatherElements (docs/experiments.md).
import type { Value } from '../graph.ts';
import {
  add,
  div,
  exp,
  eyeLike,
  gather,
  gatherElements,
  l2Normalize,
  log,
  logSoftmax,
  matmul,
  max,
  mul,
  neg,
  reduceMax,
  reduceMean,
  reduceSum,
  relu,
  reshape,
  sqrt,
  squeeze,
  stopGradient,
  sub,
  transposeLast,
  unsqueeze,
} from '../ops/all-ops.ts';

function diagonalMeanLogSoftmax(s: Value): Value {
  return reduceMean(reduceSum(mul(logSoftmax(s, 1), eyeLike(s)), [1]));
}

export interface InfoNceOptions {
  temperature?: number;
  symmetric?: boolean;
}

export function infoNce(a: Value, b: Value, o: InfoNceOptions = {}): Value {
  const s = mul(matmul(l2Normalize(a), transposeLast(l2Normalize(b))), 1 / (o.temperature ?? 0.05));
  const forward = neg(diagonalMeanLogSoftmax(s));
  if (!o.symmetric) return forward;
  return mul(add(forward, neg(diagonalMeanLogSoftmax(transposeLast(s)))), 0.5);
}

export function marginContrastive(a: Value, b: Value, similar: Value, margin = 1, eps = 1e-9): Value {
  const diff = sub(a, b);
  const d2 = reduceSum(mul(diff, diff), [-1]);
  const gap = relu(sub(margin, sqrt(add(d2, eps))));
  return reduceMean(add(mul(similar, d2), mul(sub(1, similar), mul(gap, gap))));
}

export function crossEntropy(logits: Value, targets: Value, weights?: Value): Value {
  return weightedMean(neg(squeeze(gatherElements(logSoftmax(logits, -1), unsqueeze(targets, [-1]), -1), [-1])), weights);
}

/** Cross-entropy of targets [...] under softmax(h·Eᵀ), h [..., D], table E [V, D]. */
export function tableCrossEntropy(h: Value, table: Value, targets: Value, weights?: Value): Value {
  const d = h.dim(-1);
  if (typeof d !== 'number') throw new Error('tableCrossEntropy: the width of h must be static');
  const rows = reshape(h, [-1, d]);
  const y = reshape(targets, [-1]);
  const picked = reduceSum(mul(rows, gather(table, y)), [-1]);
  const logits = matmul(rows, transposeLast(table));
  const top = stopGradient(reduceMax(logits, [-1], true));
  const lse = add(squeeze(top, [-1]), log(reduceSum(exp(sub(logits, top)), [-1])));
  return weightedMean(sub(lse, picked), weights && reshape(weights, [-1]));
}

function weightedMean(perItem: Value, weights?: Value): Value {
  if (!weights) return reduceMean(perItem);
  return div(reduceSum(mul(perItem, weights)), max(reduceSum(weights), 1e-9));
}
