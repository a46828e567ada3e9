// Pooling a sequence [B, T, D] to [B, D] under a mask [B, T] (1 = token, 0 = padding):
//   mean: Σ_t m_t x_t / max(Σ_t m_t, 1)     max: max_t (x_t + (m_t − 1)·1e9)
//   cls:  x_0 (the first position)
import type { Value } from '../graph.ts';
import { add, div, max, mul, reduceMax, reduceSum, slice, squeeze, sub, unsqueeze } from '../ops/all-ops.ts';

export function meanPool(x: Value, mask: Value): Value {
  const m = unsqueeze(mask, [-1]);
  return div(reduceSum(mul(x, m), [1]), max(reduceSum(m, [1]), 1));
}

export function maxPool(x: Value, mask: Value): Value {
  return reduceMax(add(x, mul(sub(unsqueeze(mask, [-1]), 1), 1e9)), [1]);
}

export function clsPool(x: Value): Value {
  return squeeze(slice(x, [0], [1], [1]), [1]);
}
