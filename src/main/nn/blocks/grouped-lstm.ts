// G independent left-to-right LSTMs unrolled together: one batched MatMul per step for all
// of them, so the unrolled graph has G times fewer nodes (ONNX Runtime's session build
// time grows faster than linearly with node count; it dominated training on long buckets).
// Math, for group g with input x_g [B, T, F], weights Wx_g [F, 4H], b_g [4H], Wh_g [H, 4H],
// gate order [i, f, o, g]:
//   z = x_{g,t}·Wx_g + b_g + h·Wh_g;  [i, f, o] = σ(z[:3H]);  ĝ = tanh(z[3H:])
//   c' = f ⊙ c + i ⊙ ĝ;  h' = o ⊙ tanh(c')
// Sequences are right-padded and states are not masked: positions after a sequence's end
// carry values the callers mask. Groups given the same scope share their weights.
// The cell gate uses tanh(z) = 2σ(2z) − 1: the g columns of Wx, b and Wh are doubled once
// per graph, so each step takes one Sigmoid over all 4H columns and one four-way Split, whose
// gradient is one Concat (a Split of [i, f, o | g] then of [i, f, o] cost two Concats a step
// in the backward pass, 130 of a T = 32 step's 174). Fewer nodes, for a step as fast
// (docs/experiments.md).
import type { Value } from '../graph.ts';
import { type FloatDType, floats, type Tensor } from '../tensor.ts';
import type { Scope } from './scope.ts';
import { add, concat, matmul, mul, reshape, sigmoid, split, squeeze, sub, tanh, unsqueeze, zerosLike } from '../ops/all-ops.ts';

/** [4H]: 1 over the i, f, o columns, 2 over g's. */
function gateScale(H: number, dtype: FloatDType): Tensor {
  const k = Array.from({ length: 4 * H }, (_, j) => (j < 3 * H ? 1 : 2));
  return floats(k, [4 * H], dtype);
}

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
  const H = hidden;
  // [1, 1, 1, 2] per gate block: the cell gate's pre-activation doubled (header)
  const k = scopes[0].graph.constant(gateScale(H, scopes[0].dtype));
  const scaled = (make: (s: Scope) => Value) => mul(stacked(scopes, make), k);
  const wx = scaled((s) => s.weight('x.w', [F, 4 * H]));
  const bx = scaled((s) => unsqueeze(s.filled('x.b', [4 * H], 0), [0]));
  const wh = scaled((s) => s.weight('h.w', [H, 4 * H]));
  // The input projection as G products of [B·T, F] rows: broadcast over [G, B, T, F] against
  // [G, 1, F, 4H], onnxruntime runs G·B small products, twice as slow. Time-major rows
  // (contiguous steps to split and join) cost more in the two transposes than they save
  // (docs/experiments.md).
  const rows = add(matmul(reshape(x, [0, -1, F]), wx), bx);
  const proj = split(reshape(rows, [0, -1, T, 4 * H]), new Array<number>(T).fill(1), 2).map((p) => squeeze(p, [2]));
  let h = zerosLike(split(proj[0], [H, 3 * H], 2)[0]);
  let c = h;
  const out: Value[] = [];
  for (const p of proj) {
    const [i, f, o, sg] = split(sigmoid(add(p, matmul(h, wh))), [H, H, H, H], 2);
    c = add(mul(f, c), mul(i, sub(mul(sg, 2), 1)));
    h = mul(o, tanh(c));
    out.push(unsqueeze(h, [2]));
  }
  const all = concat(out, 2);
  return split(all, new Array<number>(inputs.length).fill(1), 0).map((v) => squeeze(v, [0]));
}
