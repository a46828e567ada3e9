// LSTM cell and bidirectional LSTM, unrolled over a static (bucketed) length T.
// Math, per step with input projection pₜ = xₜ·Wx + b and gate order [i, f, o, g]:
//   z = pₜ + h·Wh;  [i, f, o] = σ(z[:3H]);  g = tanh(z[3H:])
//   c' = f ⊙ c + i ⊙ g;  h' = o ⊙ tanh(c')
// Sequences are right-padded; mask m ∈ {0,1} per batch row ([B, 1] per step). Outputs are
// y = m ⊙ [h₁ … h_T] (one product). The forward direction meets padding only after a
// sequence's last token, so its state needs no masking; the backward direction meets it
// first, so there padded steps keep the (zero) state:  c ← c + m·(c' − c),  h ← h + m·(h' − h).
// The input projection for all steps is one MatMul.
import type { Value } from '../graph.ts';
import {
  add,
  concat,
  matmul,
  mul,
  reshape,
  sigmoid,
  slice,
  split,
  squeeze,
  sub,
  tanh,
  transpose,
  unsqueeze,
  zerosLike,
} from '../ops/all-ops.ts';
import { linear } from './layers.ts';
import type { Scope } from './scope.ts';

export interface LstmState {
  h: Value;
  c: Value;
}

/** One LSTM step from a precomputed input projection p [B, 4H]; m [B, 1] masks padding. */
export function lstmCell(wh: Value, p: Value, s: LstmState, m: Value | null): LstmState {
  const hidden = wh.dim(0) as number;
  const [ifo, zg] = split(add(p, matmul(s.h, wh)), [3 * hidden, hidden], 1);
  const [i, f, o] = split(sigmoid(ifo), [hidden, hidden, hidden], 1);
  const c2 = add(mul(f, s.c), mul(i, tanh(zg)));
  const h2 = mul(o, tanh(c2));
  if (!m) return { h: h2, c: c2 };
  return { h: add(s.h, mul(m, sub(h2, s.h))), c: add(s.c, mul(m, sub(c2, s.c))) };
}

/** Splits [B, T, F] into T steps of [B, F]. */
function steps(x: Value): Value[] {
  const t = x.dim(1);
  if (typeof t !== 'number') throw new Error(`lstm: sequence length must be static (bucketed), got ${x}`);
  const pieces = split(transpose(x, [1, 0, 2]), new Array<number>(t).fill(1), 0);
  return pieces.map((p) => squeeze(p, [0]));
}

/** One direction over right-padded steps: outputs [B, T, H], zero at padded positions. */
export function lstm(s: Scope, x: Value, mask: Value, hidden: number, reverse = false): Value {
  const proj = steps(linear(s.sub('x'), x, 4 * hidden));
  const masks = reverse ? steps(unsqueeze(mask, [-1])) : [];
  const wh = s.weight('h.w', [hidden, 4 * hidden]);
  const h0 = zerosLike(slice(proj[0], [0], [hidden], [1]));
  let state: LstmState = { h: h0, c: h0 };
  const out: Value[] = new Array(proj.length);
  for (let k = 0; k < proj.length; k++) {
    const t = reverse ? proj.length - 1 - k : k;
    state = lstmCell(wh, proj[t], state, reverse ? masks[t] : null);
    out[t] = state.h;
  }
  return mul(reshape(concat(out, 1), [0, proj.length, hidden]), unsqueeze(mask, [-1]));
}

/** Bidirectional LSTM: [B, T, E] → [B, T, 2H] (forward ++ backward features). */
export function biLstm(s: Scope, x: Value, mask: Value, hidden: number): Value {
  return concat([lstm(s.sub('fwd'), x, mask, hidden), lstm(s.sub('bwd'), x, mask, hidden, true)], 2);
}
