// Alignment error rate and precision/recall/F1 against sure/possible gold (Och & Ney 2003).
//
// Math: with predicted links A, sure gold S and possible gold P ⊇ S (possible includes sure),
//   precision = |A∩P| / |A|,   recall = |A∩S| / |S|,   F1 = 2·precision·recall / (precision + recall)
//   AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|)
// counted over the whole corpus (micro-averaged), links as (source, target) index pairs; the
// gold's key sets are link-set.ts's AER view (alignedPair, aerKeySets).
// With `ignorePossible` the gold is its sure links alone (the sure-only evaluation): P = S, so
// a predicted link on a possible-only gold link counts as wrong in precision, and recall
// counts sure links as always; then
//   precision = |A∩S| / |A|,   recall = |A∩S| / |S|,   AER = 1 − 2|A∩S| / (|A| + |S|) = 1 − F1.
import { UserError } from '../errors.ts';
import { aerKeySets, pairKeySet, type AlignedPair } from '../../shared/link-set.ts';

export interface AerScore {
  precision: number;
  recall: number;
  f1: number;
  aer: number;
  pairs: number;
}

export interface AerOptions {
  /** score against the sure links alone (P = S) */
  ignorePossible?: boolean;
}

export function scoreAer(gold: readonly AlignedPair[], pred: readonly (readonly [number, number][])[], o: AerOptions = {}): AerScore {
  if (gold.length !== pred.length) throw new UserError(`gold has ${gold.length} pairs but prediction has ${pred.length}`);
  let a = 0,
    s = 0,
    as = 0,
    ap = 0;
  gold.forEach((g, k) => {
    const { sure, possible } = aerKeySets(g);
    const poss = o.ignorePossible ? sure : possible;
    const links = pairKeySet(pred[k]);
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
