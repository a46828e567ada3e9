// G independent left-to-right LSTMs unrolled together: one batched MatMul per step for all
// of them, so the unrolled graph has G times fewer nodes (ONNX Runtime's session build
// time grows faster than linearly with node count; it dominated training on long buckets).
// Math, for group g with input x_g [B, T, F], weights Wx_g [F, 4H], b_g [4H], Wh_g [H, 4H],
// gate order [i, f, o, g]:
//   z = x_{g,t}·Wx_g + b_g + h·Wh_g;  [i, f, o] = σ(z[:3H]);  ĝ = tanh(z[3H:])
//   c' = f ⊙ c + i ⊙ ĝ;  h' = o ⊙ tanh(c')
// Sequences are right-padded and states are not masked: positions after a sequence's end
// carry values the callers mask. Groups given the same scope share their weights.
import type { Value } from '../graph.ts';
import type { Scope } from './scope.ts';
import { add, concat, matmul, mul, reshape, sigmoid, split, squeeze, tanh, unsqueeze, zerosLike } from '../ops/index.ts';

function stacked(scopes: readonly Scope[], make: (s: Scope) => Value): Value {
  return concat(
    scopes.map((s) => unsqueeze(make(s), [0])),
    0,
  );
}

/** Runs LSTM g over inputs[g] ([B, T, F], same shapes) → outputs [B, T, H] per group. */
export function groupedLstm(scopes: readonly Scope[], inputs: readonly Value[], hidden: number): Value[] {
  const x = concat(
    inputs.map((v) => unsqueeze(v, [0])),
    0,
  );
  const F = inputs[0].dim(-1) as number;
  const T = inputs[0].dim(1) as number;
  const wx = stacked(scopes, (s) => s.weight('x.w', [F, 4 * hidden]));
  const bx = stacked(scopes, (s) => unsqueeze(s.filled('x.b', [4 * hidden], 0), [0]));
  const wh = stacked(scopes, (s) => s.weight('h.w', [hidden, 4 * hidden]));
  // The input projection as G products of [B·T, F] rows: broadcast over [G, B, T, F] against
  // [G, 1, F, 4H], onnxruntime ran G·B small products, and the forward one took 9.6 ms of a
  // bilstm-ctl step at T = 32 (4.7 ms as G products). Time-major rows (contiguous steps to
  // split and join) cost more in the two transposes than they saved.
  const rows = add(matmul(reshape(x, [0, -1, F]), wx), bx);
  const proj = split(reshape(rows, [0, -1, T, 4 * hidden]), new Array<number>(T).fill(1), 2).map((p) => squeeze(p, [2]));
  let h = zerosLike(split(proj[0], [hidden, 3 * hidden], 2)[0]);
  let c = h;
  const out: Value[] = [];
  for (const p of proj) {
    const [ifo, zg] = split(add(p, matmul(h, wh)), [3 * hidden, hidden], 2);
    const [i, f, o] = split(sigmoid(ifo), [hidden, hidden, hidden], 2);
    c = add(mul(f, c), mul(i, tanh(zg)));
    h = mul(o, tanh(c));
    out.push(unsqueeze(h, [2]));
  }
  const all = concat(out, 2);
  return split(all, new Array<number>(inputs.length).fill(1), 0).map((v) => squeeze(v, [0]));
}
