// How many links the posterior-threshold decoding (`post`) gives at each threshold: every
// statistical alignment counts its pairs' cells by mean posterior of the two directions, in
// bins of 0.01 from a low floor up, whatever decoding it was asked for (align/decode.ts
// LinkWriter, as it decodes), and a `post` run keeps the links at or above the threshold asked
// for. The counts are stored with the alignment's model row, so after a first Align run of a
// method the Align… dialog can say "≈ N links (x per pair)" for any threshold a `post` run of
// that method would use on the same pairs, without aligning again.

/** Link counts by score: counts[b] links scored in [b/100, (b+1)/100), the last bin holding 1.0. */
export interface LinkCountCurve {
  /** the method whose posteriors were counted (absent in curves stored before it was recorded) */
  method?: string;
  /** counted on a Chinese side's words after aligning it by character */
  byCharacter?: boolean;
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

/** A score as links store it: 4 decimals. */
export const storedScore = (x: number) => Math.round(x * 1e4) / 1e4;

/** Empty counts, to fill with countScore. */
export function emptyCounts(): number[] {
  return new Array<number>(BINS + 1).fill(0);
}

/** Counts one stored score into `counts`. */
export function countScore(counts: number[], score: number): void {
  counts[binOf(score)]++;
}

/** Counts the scores (null: a link without one, counted as 1) of links of `pairs` pairs decoded at `floor`. */
export function linkCountCurve(scores: Iterable<number | null>, pairs: number, floor: number): LinkCountCurve {
  const counts = emptyCounts();
  for (const s of scores) countScore(counts, s ?? 1);
  return { pairs, floor, counts };
}

/** How many links the curve's run gives at `threshold`; null below its floor (those links were not decoded). */
export function linksAt(curve: LinkCountCurve, threshold: number): number | null {
  if (threshold < curve.floor - 1e-9) return null;
  let n = 0;
  for (let b = binOf(threshold); b <= BINS; b++) n += curve.counts[b];
  return n;
}
