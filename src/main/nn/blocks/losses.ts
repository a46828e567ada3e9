// Losses (each returns a scalar mean over the batch).
//   InfoNCE, a, b [B, D] paired row by row, τ temperature, with u = a/‖a‖, v = b/‖b‖:
//     S = u·vᵀ/τ;  L = −mean_i log softmax(S)_ii  (symmetric: average with Sᵀ)
//   Margin contrastive (Hadsell et al.), y ∈ {1 similar, 0 dissimilar}, d = ‖a − b‖:
//     L = mean( y·d² + (1 − y)·max(0, m − d)² )
//   Softmax cross-entropy over a vocabulary, logits [N, V], targets [N] (int64),
//     optional weights w [N] (0 for padding):  L = Σ_i w_i·(−log softmax(z_i)[t_i]) / Σ w
import type { Value } from '../graph.ts';
import {
  add,
  div,
  eyeLike,
  gatherElements,
  l2Normalize,
  logSoftmax,
  matmul,
  max,
  mul,
  neg,
  reduceMean,
  reduceSum,
  relu,
  sqrt,
  squeeze,
  sub,
  transposeLast,
  unsqueeze,
} from '../ops/index.ts';

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
  const picked = squeeze(gatherElements(logSoftmax(logits, -1), unsqueeze(targets, [-1]), -1), [-1]);
  if (!weights) return neg(reduceMean(picked));
  return neg(div(reduceSum(mul(picked, weights)), max(reduceSum(weights), 1e-9)));
}
