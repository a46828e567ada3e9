// Shape plumbing used by VJP rules: summing a cotangent back over broadcast axes,
// expanding a reduced cotangent, zeros shaped like a value.
import type { Value } from '../graph.ts';
import { constantOfShape, reshape, shapeOf } from './shape.ts';
import { reduceSum } from './reduce.ts';

/** Sums `g` (shaped like a broadcast result) down to the shape of `target`. */
export function unbroadcast(g: Value, target: Value): Value {
  const lead = g.rank - target.rank;
  let r = g;
  if (lead > 0) r = reduceSum(r, range(lead), false);
  const axes: number[] = [];
  target.shape.forEach((d, i) => {
    const gd = r.shape[i];
    if (d === gd) return;
    if (d === 1) axes.push(i);
    else if (gd !== 1) throw new Error(`unbroadcast: ambiguous dims ${gd} → ${d} (give static shapes)`);
  });
  if (axes.length) r = reduceSum(r, axes, true);
  return r.shape.every((d, i) => d === target.shape[i]) ? r : reshape(r, shapeOf(target), target.shape);
}

export function zerosLike(x: Value): Value {
  return constantOfShape(shapeOf(x), x.shape, 0, x.dtype);
}

export function range(n: number, from = 0): number[] {
  return Array.from({ length: n - from }, (_, i) => i + from);
}
