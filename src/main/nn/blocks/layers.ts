// Basic layers. Linear: y = x·W + b with W [in, out] (x [..., in]). Embedding: row lookup
// E[ids] with E [vocab, dim]. LayerNorm over the last axis with learned γ, β.
// Dropout is seeded and applied only when a rate > 0 is given (training graphs).
import type { Value } from '../graph.ts';
import { add, dropout, gather, layerNorm as ln, matmul } from '../ops/all-ops.ts';
import type { Scope } from './scope.ts';

export interface LinearOptions {
  bias?: boolean;
}

export function linear(s: Scope, x: Value, out: number, o: LinearOptions = {}): Value {
  const inDim = x.dim(-1);
  if (typeof inDim !== 'number') throw new Error(`linear: input feature dim must be static, got ${x}`);
  const y = matmul(x, s.weight('w', [inDim, out]));
  return o.bias === false ? y : add(y, s.filled('b', [out], 0));
}

export function embedding(s: Scope, ids: Value, vocab: number, dim: number): Value {
  if (ids.dtype !== 'int64') throw new Error(`embedding: ids must be int64, got ${ids}`);
  return gather(s.normal('table', [vocab, dim], 1 / Math.sqrt(dim)), ids);
}

export function layerNorm(s: Scope, x: Value, eps = 1e-5): Value {
  const d = x.dim(-1) as number;
  return ln(x, s.filled('gamma', [d], 1), s.filled('beta', [d], 0), eps);
}

/** Dropout with a per-site seed derived from the scope's Rng; identity when rate is 0. */
export function maybeDropout(s: Scope, x: Value, rate: number): Value {
  return rate > 0 ? dropout(x, rate, s.rng.int(2 ** 31)) : x;
}
