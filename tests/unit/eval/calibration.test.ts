// Calibration of link scores: isotonic regression (pooled ties, monotone, interpolated,
// clamped), reliability bins and ECE, and the cross-fitted fit that an overconfident model
// needs — scores at 0.95 of links right half the time come out near 0.5.
import { describe, expect, test } from 'vitest';
import {
  calibrate,
  CALIBRATED_RANGE,
  expectedCalibrationError,
  fitCalibration,
  fitIsotonic,
  reliability,
  type Sample,
} from '../../../src/main/eval/calibration.ts';

const s = (score: number, correct: boolean): Sample => ({ score, correct });

/** A seeded generator (mulberry32), for samples the test can reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('calibration', () => {
  test('isotonic regression pools violators and ties into a non-decreasing map', () => {
    // Scores 0.1..0.5; outcomes 1,0 | 0 | 1,1 : the first two blocks violate and pool.
    const map = fitIsotonic([s(0.1, true), s(0.2, false), s(0.3, false), s(0.5, true), s(0.5, true)]);
    expect(map.x[0]).toBeCloseTo(0.2);
    expect(map.x[1]).toBe(0.5);
    expect(map.y).toEqual([1 / 3, 1]);
    expect(calibrate(map, 0)).toBeCloseTo(1 / 3);
    expect(calibrate(map, 0.35)).toBeCloseTo(1 / 3 + (0.15 / 0.3) * (2 / 3));
    expect(calibrate(map, 0.9)).toBe(CALIBRATED_RANGE[1]);
    const random1 = random(1);
    const many = Array.from({ length: 500 }, () => {
      const p = random1();
      return s(p, random1() < p * p);
    });
    const m = fitIsotonic(many);
    for (let i = 1; i < m.y.length; i++) {
      expect(m.y[i]).toBeGreaterThan(m.y[i - 1]);
      expect(m.x[i]).toBeGreaterThan(m.x[i - 1]);
    }
  });

  test('reliability bins and ECE: calibrated scores score near 0, overconfident ones their gap', () => {
    const r = random(7);
    const honest = Array.from({ length: 20000 }, () => {
      const p = r();
      return s(p, r() < p);
    });
    expect(expectedCalibrationError(reliability(honest))).toBeLessThan(0.02);
    const bins = reliability([s(0.95, true), s(0.95, false), s(0.05, false)]);
    expect(bins[9]).toMatchObject({ count: 2, accuracy: 0.5 });
    expect(bins[9].confidence).toBeCloseTo(0.95);
    expect(expectedCalibrationError(bins)).toBeCloseTo((2 / 3) * 0.45 + (1 / 3) * 0.05);
  });

  test('an overconfident model is calibrated on held-out pairs, its ECE cross-fitted', () => {
    const r = random(3);
    // 60 pairs of 10 links: scores near 0.95 right half the time, near 0.6 right a fifth of the time.
    const pairs = Array.from({ length: 60 }, () =>
      Array.from({ length: 10 }, (_, i) => (i % 2 ? s(0.93 + 0.05 * r(), r() < 0.5) : s(0.55 + 0.1 * r(), r() < 0.2))),
    );
    const fitted = fitCalibration(pairs)!;
    expect(fitted.summary).toMatchObject({ pairs: 60, links: 600, applied: true });
    expect(fitted.summary.eceRaw).toBeGreaterThan(0.35);
    expect(fitted.summary.eceCalibrated).toBeLessThan(0.1);
    expect(calibrate(fitted.map, 0.95)).toBeGreaterThan(0.35);
    expect(calibrate(fitted.map, 0.95)).toBeLessThan(0.65);
    expect(fitCalibration(pairs.slice(0, 5))).toBeNull(); // 50 links: too few
    expect(fitCalibration([Array.from({ length: 200 }, () => s(0.9, true))])).toBeNull(); // one outcome only
  });
});
