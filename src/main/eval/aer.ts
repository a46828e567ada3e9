// Alignment error rate and precision/recall/F1 against sure/possible gold (Och & Ney 2003).
//
// Math: with predicted links A, sure gold S and possible gold P ⊇ S (possible includes sure),
//   precision = |A∩P| / |A|,   recall = |A∩S| / |S|,   F1 = 2·precision·recall / (precision + recall)
//   AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)
// counted over the whole corpus (micro-averaged), links as (source, target) index pairs.
import { UserError } from '../errors.ts';
import type { AlignedPair, Link } from '../../shared/domain.ts';

/** `links` split by kind, the scorer's view of a gold pair. */
export function alignedPair(links: readonly Link[]): AlignedPair {
  const out: AlignedPair = { sure: [], possible: [] };
  for (const l of links) (l.kind === 'sure' ? out.sure : out.possible).push([l.s, l.t]);
  return out;
}

export interface AerScore {
  precision: number;
  recall: number;
  f1: number;
  aer: number;
  pairs: number;
}

const key = (i: number, j: number) => i * 0x100000 + j;

export function scoreAer(gold: readonly AlignedPair[], pred: readonly (readonly [number, number][])[]): AerScore {
  if (gold.length !== pred.length) throw new UserError(`gold has ${gold.length} pairs but prediction has ${pred.length}`);
  let a = 0,
    s = 0,
    as = 0,
    ap = 0;
  gold.forEach((g, k) => {
    const sure = new Set(g.sure.map(([i, j]) => key(i, j)));
    const poss = new Set([...sure, ...g.possible.map(([i, j]) => key(i, j))]);
    const links = new Set(pred[k].map(([i, j]) => key(i, j)));
    a += links.size;
    s += sure.size;
    for (const x of links) {
      if (sure.has(x)) as++;
      if (poss.has(x)) ap++;
    }
  });
  const precision = a > 0 ? ap / a : 0;
  const recall = s > 0 ? as / s : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  const aer = a + s > 0 ? 1 - (as + ap) / (a + s) : 0;
  return { precision, recall, f1, aer, pairs: gold.length };
}
