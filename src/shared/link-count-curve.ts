// How many links the posterior-threshold decoding (`post`) gives at each threshold: the
// statistical Align job decodes at a low floor once, counts its links by score in bins of
// 0.01, and keeps the links at or above the threshold asked for; the counts are stored with
// the alignment's model row, so the Align… dialog can say "≈ N links (x per pair)" for any
// threshold the next run might use on the same pairs, without aligning again.

/** Link counts by score: counts[b] links scored in [b/100, (b+1)/100), the last bin holding 1.0. */
export interface LinkCountCurve {
  /** pairs aligned */
  pairs: number;
  /** the lowest threshold the counts answer for: links below it were not decoded */
  floor: number;
  /** BINS + 1 counts */
  counts: number[];
}

/** Bins per unit of score. */
const BINS = 100;

/** The threshold below which the Align job decodes no link, so a curve answers from here up. */
export const CURVE_FLOOR = 0.05;

/** The bin of a threshold or a score (scores are stored to 4 decimals; 1e-6 keeps 0.29 * 100 = 28.999999999999996 in bin 29). */
const binOf = (x: number) => Math.min(BINS, Math.max(0, Math.floor(x * BINS + 1e-6)));

/** Counts the scores (null: a link without one, counted as 1) of links of `pairs` pairs decoded at `floor`. */
export function linkCountCurve(scores: Iterable<number | null>, pairs: number, floor: number): LinkCountCurve {
  const counts = new Array<number>(BINS + 1).fill(0);
  for (const s of scores) counts[binOf(s ?? 1)]++;
  return { pairs, floor, counts };
}

/** How many links the curve's run gives at `threshold`; null below its floor (those links were not decoded). */
export function linksAt(curve: LinkCountCurve, threshold: number): number | null {
  if (threshold < curve.floor - 1e-9) return null;
  let n = 0;
  for (let b = binOf(threshold); b <= BINS; b++) n += curve.counts[b];
  return n;
}
