// Multi-head self-attention and a pre-LN Transformer encoder layer.
// Math, for x [B, T, D], h heads of width d = D/h, key mask m [B, T] (1 = token):
//   Q, K, V = x·Wq, x·Wk, x·Wv reshaped to [B, h, T, d]
//   A = softmax(Q·Kᵀ/√d + (m − 1)·1e9) over keys;  out = concat_heads(Drop(A)·V)·Wo
//   (Drop: the caller's dropout of the attention probabilities in training, else none)
// The projections default to our linear layers (W [in, out], named q/k/v/o under the scope);
// a model loaded from elsewhere passes its own (models/transformer: transformers' [out, in]).
// Encoder layer (pre-LN): x ← x + Drop(MHA(LN(x)));  x ← x + Drop(W₂·act(W₁·LN(x))), act = gelu
import type { Value } from '../graph.ts';
import { add, gelu, matmul, mul, relu, reshape, softmax, sub, transpose, transposeLast, unsqueeze } from '../ops/all-ops.ts';
import { layerNorm, linear, maybeDropout } from './layers.ts';
import type { Scope } from './scope.ts';

function heads(x: Value, h: number, d: number): Value {
  return transpose(reshape(x, [0, 0, h, d]), [0, 2, 1, 3]);
}

/** A projection of attention: role q, k, v (of the input) or o (of the merged heads) to `width` features. */
export type AttentionProjection = (role: 'q' | 'k' | 'v' | 'o', x: Value, width: number) => Value;

export function multiHeadAttention(
  s: Scope,
  x: Value,
  mask: Value,
  numHeads: number,
  project: AttentionProjection = (role, y, width) => linear(s.sub(role), y, width),
  dropProbs: (a: Value) => Value = (a) => a,
): Value {
  const width = x.dim(-1) as number;
  if (width % numHeads !== 0) throw new Error(`attention: width ${width} not divisible by ${numHeads} heads`);
  const d = width / numHeads;
  const q = heads(project('q', x, width), numHeads, d);
  const k = heads(project('k', x, width), numHeads, d);
  const v = heads(project('v', x, width), numHeads, d);
  const bias = mul(sub(unsqueeze(mask, [1, 2]), 1), 1e9);
  const a = softmax(add(mul(matmul(q, transposeLast(k)), 1 / Math.sqrt(d)), bias), -1);
  const merged = reshape(transpose(matmul(dropProbs(a), v), [0, 2, 1, 3]), [0, 0, width]);
  return project('o', merged, width);
}

export interface EncoderLayerOptions {
  heads: number;
  ffWidth: number;
  dropout?: number;
  /** Feed-forward activation (default gelu; relu where float64 Erf is unavailable). */
  activation?: 'gelu' | 'relu';
}

export function transformerEncoderLayer(s: Scope, x: Value, mask: Value, o: EncoderLayerOptions): Value {
  const width = x.dim(-1) as number;
  const rate = o.dropout ?? 0;
  const attn = multiHeadAttention(s.sub('attn'), layerNorm(s.sub('ln1'), x), mask, o.heads);
  const x1 = add(x, maybeDropout(s, attn, rate));
  const act = o.activation === 'relu' ? relu : gelu;
  const ff = linear(s.sub('ff2'), act(linear(s.sub('ff1'), layerNorm(s.sub('ln2'), x1), o.ffWidth)), width);
  return add(x1, maybeDropout(s, ff, rate));
}
