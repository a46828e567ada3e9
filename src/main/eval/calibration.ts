// Calibrated link confidences: a model's link scores mapped to the share of such links
// that the gold holds, fitted by isotonic regression (pool-adjacent-violators) on pairs
// whose gold the model did not train on, and measured by reliability bins and expected
// calibration error (ECE: the count-weighted gap between confidence and accuracy). The
// ECE of the calibrated scores is cross-fitted — fitted on one half of the pairs, measured
// on the other, and the other way round — so it is not measured on the data it was fitted
// to. Hand-written: isotonic regression is a dozen lines, and no maintained npm package
// offers it with the tie handling and interpolation used here (as scikit-learn's
// IsotonicRegression: equal scores pooled, linear between block means, clamped outside).
import type { Calibration, ReliabilityBin } from '../../shared/calibration-report.ts';

/** A monotone map from raw score to calibrated probability: points (x ascending, y non-decreasing). */
export interface CalibrationMap {
  x: number[];
  y: number[];
}

/** One link the model proposed on a pair with gold: its raw score and whether the gold holds it (sure or possible). */
export interface Sample {
  score: number;
  correct: boolean;
}

/** Fewer links than this, or only one outcome among them, and no map is fitted. */
export const MIN_SAMPLES = 100;

export function fitIsotonic(samples: readonly Sample[]): CalibrationMap {
  // Pool equal scores first, then merge adjacent blocks while a mean decreases.
  const sorted = [...samples].sort((a, b) => a.score - b.score);
  const blocks: { x: number; y: number; n: number }[] = [];
  for (const s of sorted) {
    const last = blocks.at(-1);
    if (last && last.x / last.n === s.score) {
      last.x += s.score;
      last.y += s.correct ? 1 : 0;
      last.n++;
    } else blocks.push({ x: s.score, y: s.correct ? 1 : 0, n: 1 });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.y / a.n < b.y / b.n) break;
      blocks.splice(blocks.length - 2, 2, { x: a.x + b.x, y: a.y + b.y, n: a.n + b.n });
    }
  }
  return { x: blocks.map((b) => b.x / b.n), y: blocks.map((b) => b.y / b.n) };
}

/** A calibrated score never claims certainty: a block of a few hundred links all right (or all wrong) is evidence, not proof. */
export const CALIBRATED_RANGE: readonly [number, number] = [0.01, 0.99];

export function calibrate(map: CalibrationMap, score: number): number {
  const { x, y } = map;
  if (x.length === 0) return score;
  let p: number;
  if (score <= x[0]) p = y[0];
  else if (score >= x[x.length - 1]) p = y[y.length - 1];
  else {
    let hi = 1;
    while (x[hi] < score) hi++;
    p = y[hi - 1] + ((score - x[hi - 1]) / (x[hi] - x[hi - 1])) * (y[hi] - y[hi - 1]);
  }
  return Math.min(CALIBRATED_RANGE[1], Math.max(CALIBRATED_RANGE[0], p));
}

/** Equal-width bins over [0, 1]: how many links, their mean confidence, and the share the gold holds. */
export function reliability(samples: readonly Sample[], bins = 10): ReliabilityBin[] {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({
    lo: i / bins,
    hi: (i + 1) / bins,
    count: 0,
    confidence: 0,
    accuracy: 0,
  }));
  for (const s of samples) {
    const b = out[Math.min(bins - 1, Math.max(0, Math.floor(s.score * bins)))];
    b.count++;
    b.confidence += s.score;
    b.accuracy += s.correct ? 1 : 0;
  }
  for (const b of out) {
    if (b.count) {
      b.confidence /= b.count;
      b.accuracy /= b.count;
    }
  }
  return out;
}

export function expectedCalibrationError(bins: readonly ReliabilityBin[]): number {
  const n = bins.reduce((k, b) => k + b.count, 0);
  return n ? bins.reduce((e, b) => e + (b.count / n) * Math.abs(b.accuracy - b.confidence), 0) : 0;
}

/**
 * Fits the calibration of a model's links from per-pair samples (pairs with gold the model
 * did not train on); null when there are fewer than MIN_SAMPLES links or only one outcome.
 * `applied` says whether the scores are to be calibrated: when `wanted` and the cross-fitted
 * ECE is below the raw one (the raw scores are kept otherwise).
 */
export function fitCalibration(byPair: readonly Sample[][], wanted = true): { map: CalibrationMap; summary: Calibration } | null {
  const all = byPair.flat();
  const correct = all.filter((s) => s.correct).length;
  if (all.length < MIN_SAMPLES || correct === 0 || correct === all.length) return null;
  const folds = [byPair.filter((_, k) => k % 2 === 0).flat(), byPair.filter((_, k) => k % 2 === 1).flat()];
  const crossFitted = folds.flatMap((test, f) => {
    const map = fitIsotonic(folds[1 - f]);
    return test.map((s) => ({ score: calibrate(map, s.score), correct: s.correct }));
  });
  const raw = reliability(all);
  const calibrated = reliability(crossFitted);
  const eceRaw = expectedCalibrationError(raw);
  const eceCalibrated = expectedCalibrationError(calibrated);
  return {
    map: fitIsotonic(all),
    summary: {
      pairs: byPair.filter((p) => p.length).length,
      links: all.length,
      raw,
      calibrated,
      eceRaw,
      eceCalibrated,
      applied: wanted && eceCalibrated < eceRaw,
    },
  };
}
