// Seed 004's siamese head: the margin loss of a batch against a hand computation, the
// unit/center/unit normalisation, the hard ("worst") mismatch of each pair of a batch by hand
// under a given head (not the frozen space), the "average" negatives' loss of a 3-pair batch by
// hand (each pair's mismatch term averaged over the batch's other targets, a repeat of its own
// target left out), and training on embeddings where half the dimensions are
// each language's own noise: the shared layer learns to drop them, and retrieval P@1 rises.
import { expect, test } from 'vitest';
import { retrievalAccuracy } from '../../../../src/main/eval/retrieval.ts';
import { SIAMESE_DEFAULTS } from '../../../../src/shared/aligner-defaults.ts';
import {
  applyHead,
  hardestMismatches,
  mismatchWeights,
  normalised,
  siameseTrainingGraph,
  trainSiameseHead,
} from '../../../../src/main/models/siamese/head.ts';
import { Rng } from '../../../../src/main/nn/init.ts';
import { Program } from '../../../../src/main/nn/session.ts';
import { floats } from '../../../../src/main/nn/tensor.ts';

test('the margin loss of a batch, by hand: ½D² for pairs, ½max(0, m − D)² for mismatches', async () => {
  const d = 2;
  const { g, loss } = siameseTrainingGraph(d, { ...SIAMESE_DEFAULTS, dropout: 0 });
  const prog = await Program.compile(g, { loss });
  const eye = floats([1, 0, 0, 1], [2, 2]);
  const x = [0, 0, 0, 0, 0, 0];
  const y = [0.3, 0.4, 0.3, 0.4, 3, 4]; // distances 0.5, 0.5, 5
  const label = [0, 1, 1];
  const out = await prog.run({
    x: floats(x, [3, d]),
    y: floats(y, [3, d]),
    label: floats(label, [3]),
    'head.weight': eye,
    'head.bias': floats([0, 0], [2]),
  });
  const byHand = (0.5 * 0.25 + 0.5 * (1 - 0.5) ** 2 + 0) / 3;
  expect((out.loss.data as Float32Array)[0]).toBeCloseTo(byHand, 6);
  await prog.release();
});

test('average negatives by hand: a 3-pair batch, each mismatch term averaged over the other targets, never a repeat of its own', async () => {
  const d = 2;
  const { g, loss } = siameseTrainingGraph(d, { ...SIAMESE_DEFAULTS, dropout: 0, negatives: 'average' });
  const prog = await Program.compile(g, { loss });
  // sources all at the origin; targets y0 = (0.3, 0.4) (D 0.5), y1 = (0, 0.8) (D 0.8), y2 = y0 (a repeated translation)
  const x = new Float32Array(6);
  const y = Float32Array.from([0.3, 0.4, 0, 0.8, 0.3, 0.4]);
  const weights = mismatchWeights(y, [0, 1, 2], d);
  // pair 0: its mismatches y1 only (y2 repeats y0); pair 1: y0 and y2, half each; pair 2: y1 only
  expect(Array.from(weights)).toEqual([0, 1, 0, 0.5, 0, 0.5, 0, 1, 0]);
  const out = await prog.run({
    x: floats(x, [3, d]),
    y: floats(y, [3, d]),
    weights: floats(weights, [3, 3]),
    'head.weight': floats([1, 0, 0, 1], [2, 2]),
    'head.bias': floats([0, 0], [2]),
  });
  const pos = 0.5 * (0.25 + 0.64 + 0.25);
  const hinge = (dist: number) => 0.5 * Math.max(0, 1 - dist) ** 2;
  const mismatch = hinge(0.8) + (hinge(0.5) + hinge(0.5)) / 2 + hinge(0.8);
  // the mean over six terms, as random and hard negatives' three pairs and three mismatches
  expect((out.loss.data as Float32Array)[0]).toBeCloseTo((pos + mismatch) / 6, 6);
  await prog.release();
  // a batch of one, or of repeats only: no mismatch term
  expect(Array.from(mismatchWeights(y, [0], d))).toEqual([0]);
  expect(Array.from(mismatchWeights(y, [0, 2], d))).toEqual([0, 0, 0, 0]);
});

test('unit, center, unit: rows of length 1 whose mean is near 0', () => {
  const x = Float32Array.from([3, 4, 1, 0, 0, 2, 5, 5]);
  const n = normalised(x, 2);
  for (let r = 0; r < 4; r++) expect(Math.hypot(n[2 * r], n[2 * r + 1])).toBeCloseTo(1, 5);
  expect(Array.from(x)).toEqual([3, 4, 1, 0, 0, 2, 5, 5]);
});

test("hard negatives by hand: each pair's nearest other target of the batch under the head, never a repeat of its own", () => {
  const d = 2;
  // targets y0..y3; y3 repeats y0 (a second translation of the same sentence)
  const x = Float32Array.from([1, 0, 0, 1, 0.9, 0.2, 5, 5]);
  const y = Float32Array.from([1, 0.1, 0, 1, 1, -0.1, 1, 0.1]);
  const eye = Float32Array.from([1, 0, 0, 1]),
    zero = new Float32Array(2);
  // identity head: x0 (1,0) is nearest y2 (1,−0.1) among y1, y2 (y3 repeats its own target); x1 (0,1) nearest y0 (1,0.1);
  // x2 (0.9,0.2) nearest y0, which y3 repeats, is also other than its own; x3 nearest y1 … but y0 repeats y3, so y0 is skipped
  expect(hardestMismatches(x, y, [0, 1, 2, 3], d, eye, zero)).toEqual([2, 0, 0, 1]);
  // the batch is a subset: candidates are its own targets only
  expect(hardestMismatches(x, y, [1, 2], d, eye, zero)).toEqual([2, 1]);
  // under the head, not the frozen space: x0 = (1,0) is nearest (0.8,0.6) as it is (d² 0.4 against 1.25), but a head
  // keeping the second dimension alone maps x0 to (0,0), nearer (0,−0.5) (d² 0.25) than (0,0.6) (0.36)
  const [hx, hy] = [Float32Array.from([1, 0, 0, 0, 0, 0]), Float32Array.from([1, 0, 0.8, 0.6, 0, -0.5])];
  expect(hardestMismatches(hx, hy, [0, 1, 2], d, eye, zero)[0]).toBe(1);
  expect(hardestMismatches(hx, hy, [0, 1, 2], d, Float32Array.from([0, 0, 0, 1]), zero)[0]).toBe(2);
  // a batch of one, or of repeats only: none
  expect(hardestMismatches(x, y, [0], d, eye, zero)).toEqual([-1]);
  expect(hardestMismatches(x, y, [0, 3], d, eye, zero)).toEqual([-1, -1]);
});

test.each(['hard', 'average'] as const)(
  'training (%s negatives) drops the dimensions that are each language alone, and retrieval improves',
  async (negatives) => {
    const d = 16,
      n = 300,
      rng = new Rng(3);
    const gauss = () => rng.normal();
    const x = new Float32Array(n * d),
      y = new Float32Array(n * d);
    for (let i = 0; i < n; i++)
      for (let t = 0; t < d; t++) {
        const shared = gauss();
        // dims 0–7: the meaning both sentences share (plus a little noise); dims 8–15: unrelated on each side, larger
        x[i * d + t] = t < 8 ? shared + 0.1 * gauss() : 2 * gauss();
        y[i * d + t] = t < 8 ? shared + 0.1 * gauss() : 2 * gauss();
      }
    const before = await retrievalAccuracy(normalised(x, d), normalised(y, d), d);
    const { head, losses } = await trainSiameseHead(x, y, d, { epochs: 30, lr: 1e-2, negatives });
    const after = await retrievalAccuracy(applyHead(head, x), applyHead(head, y), d);
    expect(losses.at(-1)!).toBeLessThan(losses[0]);
    expect(after.forward[1]).toBeGreaterThan(before.forward[1] + 0.2);
    expect(after.backward[1]).toBeGreaterThan(before.backward[1] + 0.2);
    expect(after.forward[5]).toBeGreaterThanOrEqual(after.forward[1]);
  },
  60_000,
);
