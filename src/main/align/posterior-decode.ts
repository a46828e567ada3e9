// The posterior-threshold decoding (`post`: the links whose mean posterior of the two
// directions reaches a threshold) as the app's Align job runs it: the engine decodes once at
// the lower of the threshold and CURVE_FLOOR, the links are counted by score (the curve the
// Align… dialog reads to say how many links another threshold would give), and only the links
// at or above the threshold asked for are kept. With directions trained in agreement (agree)
// this decoding also holds every grow-diag-final-and link at thresholds up to 0.5 (decode.ts
// keeps only MAP links of mean posterior ≥ 0.5 for the heuristics), so it is grow-diag-final-
// and plus the confident posterior links.
import type { Link } from '../../shared/domain.ts';
import { CURVE_FLOOR, linkCountCurve, type LinkCountCurve } from '../../shared/link-count-curve.ts';
import { STATISTICAL_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { symmetrisationName } from '../../shared/methods.ts';

/** The decoding that takes a posterior threshold. */
export const THRESHOLD_DECODING = 'post';

/** Whether `sym` (either name) is the posterior-threshold decoding. */
export function isThresholdDecoding(sym: string): boolean {
  return symmetrisationName(sym) === THRESHOLD_DECODING;
}

/** The threshold the engine decodes at to count the links of every threshold from CURVE_FLOOR up. */
export function decodeThreshold(threshold = STATISTICAL_DEFAULTS.threshold): number {
  return Math.min(threshold, CURVE_FLOOR);
}

/** Links decoded at decodeThreshold(threshold) → those scoring at least `threshold`, and the curve of all. */
export function cutToThreshold(
  links: readonly (readonly Link[])[],
  threshold = STATISTICAL_DEFAULTS.threshold,
): { links: Link[][]; curve: LinkCountCurve } {
  function* scores() {
    for (const ls of links) for (const l of ls) yield l.score;
  }
  const curve = linkCountCurve(scores(), links.length, decodeThreshold(threshold));
  return { links: [...linksAtLeast(links, threshold)], curve };
}

/** Each pair's links scoring at least `threshold` (a link without a score counts as certain), pair by pair as they are read. */
export function* linksAtLeast(perPair: Iterable<readonly Link[]>, threshold: number): Generator<Link[]> {
  for (const links of perPair) yield links.filter((l) => (l.score ?? 1) >= threshold);
}
