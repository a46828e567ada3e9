// Seeded dropout in training mode. With keep-mask m (bool) and rate p:
//   y = x ⊙ m / (1 − p),   x̄ = ȳ ⊙ m / (1 − p).
// The seed is an attribute, so a given session draws the same sequence of masks on every
// run from creation on: runs are reproducible, and each step still gets a fresh mask.
import { defop, type Value } from '../graph.ts';
import { cast, mul } from './core.ts';
import { attrInt, req } from './shape-rules.ts';

/** Training-mode dropout; returns the output (the mask stays internal). */
export function dropout(x: Value, rate: number, seed: number): Value {
  const g = x.graph;
  return g.apply('Dropout', [x, g.scalar(rate, x.dtype), g.scalar(1, 'bool')], { seed, _rate: { f: rate } })[0];
}

defop('Dropout', {
  impure: true,
  infer: ([x], attrs) => {
    attrInt(attrs, 'seed');
    return [
      { dtype: req(x, 'Dropout').dtype, shape: x!.shape },
      { dtype: 'bool', shape: x!.shape },
    ];
  },
  vjp: ({ outputs: [, mask], ct, attrs }) => {
    const rate = (attrs._rate as { f: number }).f;
    return [mul(ct, mul(cast(mask, ct.dtype), 1 / (1 - rate))), null, null];
  },
});
