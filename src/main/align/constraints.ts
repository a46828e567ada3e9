// Per-pair link constraints from the project: gold links (fixed, and used as evidence by
// clamping the posteriors of their words) and links a linguist rejected (never proposed).
//
// Encoding: Map from pair index k to an Int32Array of triples (s, t, code), code GOLD,
// GOLD_POSSIBLE or REJECTED, with s a source and t a target position (0-based). applyConstraints works in
// the local gen×obs layout of directional-model.ts, so it maps (s, t) to (a, b) for the direction.
import type { Link, LinkRef } from '../../shared/link-set.ts';
import { T_FLOOR } from './translation-table.ts';
import type { Direction } from './view.ts';

export const GOLD = 1;
export const REJECTED = 2;
export const GOLD_POSSIBLE = 3;

export type Constraints = Map<number, Int32Array>;

/** Per pair, its gold or rejected links; a gold link without a kind is sure. */
export type ConstraintLinks = readonly (readonly (LinkRef & Partial<Link>)[] | undefined)[];

/** Builds the constraint map; `gold[k]` / `rejected[k]` list pair k's links (may be sparse). */
export function buildConstraints(n: number, gold?: ConstraintLinks, rejected?: ConstraintLinks): Constraints {
  const out: Constraints = new Map();
  for (let k = 0; k < n; k++) {
    const g = gold?.[k] ?? [];
    const r = rejected?.[k] ?? [];
    if (g.length + r.length === 0) continue;
    const data = new Int32Array(3 * (g.length + r.length));
    let p = 0;
    for (const l of g) data.set([l.s, l.t, l.kind === 'possible' ? GOLD_POSSIBLE : GOLD], p++ * 3);
    for (const l of r) data.set([l.s, l.t, REJECTED], p++ * 3);
    out.set(k, data);
  }
  return out;
}

/**
 * Masks the emission matrix of one pair (gen length I, obs length J): an obs word with gold
 * links may only align to its gold gen words (not null); rejected links get probability 0.
 * An obs word left with nothing keeps a floor null probability.
 */
export function applyConstraints(data: Int32Array, dir: Direction, em: Float64Array, I: number, J: number): void {
  const fixed = new Uint8Array(J);
  const allowed = new Uint8Array((I + 1) * J);
  for (let p = 0; p < data.length; p += 3) {
    const a = dir === 'fwd' ? data[p] : data[p + 1];
    const b = dir === 'fwd' ? data[p + 1] : data[p];
    if (a >= I || b >= J) continue;
    if (data[p + 2] !== REJECTED) {
      fixed[b] = 1;
      allowed[a * J + b] = 1;
    } else em[a * J + b] = 0;
  }
  for (let b = 0; b < J; b++) {
    let any = 0;
    for (let a = 0; a <= I; a++) {
      const x = a * J + b;
      if (fixed[b] && !allowed[x]) em[x] = 0;
      any += em[x];
    }
    if (any === 0) em[I * J + b] = T_FLOOR;
  }
}
