// Functions built from primitives (their gradients come from the primitives' VJPs):
//   gelu(x)       = ½·x·(1 + erf(x/√2))
//   layerNorm(x)  = (x − μ)/√(σ² + ε) ⊙ γ + β, μ and σ² over the last axis
//   l2Normalize(x) = x / √(Σ x² + ε) over `axis`
import type { Value } from '../graph.ts';
import { add, div, erf, mul, reduceMean, reduceSum, sqrt, sub } from './core.ts';

export function gelu(x: Value): Value {
  return mul(mul(x, 0.5), add(erf(mul(x, Math.SQRT1_2)), 1));
}

export function layerNorm(x: Value, gamma: Value, beta: Value, eps = 1e-5): Value {
  const xc = sub(x, reduceMean(x, [-1], true));
  const variance = reduceMean(mul(xc, xc), [-1], true);
  return add(mul(div(xc, sqrt(add(variance, eps))), gamma), beta);
}

export function l2Normalize(x: Value, axis = -1, eps = 1e-12): Value {
  return div(x, sqrt(add(reduceSum(mul(x, x), [axis], true), eps)));
}
