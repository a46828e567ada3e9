// Word translation over whole vocabularies (eval/csls.ts): CSLS with K = 3 (seed 003's P@1
// extraction) and the plain nearest neighbour (seed 002's NN rows), against a hand computation
// on unit vectors in the plane whose neighbours are known, where a hub target makes the two
// disagree.
import { expect, test } from 'vitest';
import { cslsTranslations, nearestTranslations, vocabularyTranslations } from '../../../src/main/eval/csls.ts';

const rad = (deg: number) => (deg * Math.PI) / 180;
const plane = (angles: number[]) => Float32Array.from(angles.flatMap((a) => [Math.cos(rad(a)), Math.sin(rad(a))]));
const cos = (deg: number) => Math.cos(rad(deg));

// Sources a 0°, b 30°, c 60°, d 200°; targets p 20°, q 45°, r 100°, s 250°.
const X = plane([0, 30, 60, 200]);
const Y = plane([20, 45, 100, 250]);

test('CSLS with K = 3 against the hand computation: the hub q loses c to r, which the nearest neighbour picks', async () => {
  // r_T(c): c's three nearest targets q (15°), p (40°), r (40°): (cos 15° + 2·cos 40°) / 3 = 0.8327
  // r_S(q): q's three nearest sources b (15°), c (15°), a (45°): (2·cos 15° + cos 45°) / 3 = 0.8797
  // r_S(r): r's three nearest sources c (40°), b (70°), a or d (100°): (cos 40° + cos 70° + cos 100°) / 3 = 0.3115
  const rTc = (cos(15) + 2 * cos(40)) / 3;
  const rSq = (2 * cos(15) + cos(45)) / 3;
  const rSr = (cos(40) + cos(70) + cos(100)) / 3;
  // CSLS(c, r) = 2·cos 40° − r_T(c) − r_S(r) = 0.3879 > CSLS(c, q) = 2·cos 15° − r_T(c) − r_S(q) = 0.2195
  const c = (await cslsTranslations(X, Y, 2, 3, 2))[2];
  expect(c.map((t) => t.index)).toEqual([2, 1]);
  expect(c[0].score).toBeCloseTo(2 * cos(40) - rTc - rSr, 5);
  expect(c[1].score).toBeCloseTo(2 * cos(15) - rTc - rSq, 5);
  expect(c[0].score).toBeCloseTo(0.3879, 4);
  // the other sources' best: a → p, b → p (0.3085 before q's 0.2879), d → s
  expect((await cslsTranslations(X, Y, 2, 3, 1)).map((row) => row[0].index)).toEqual([0, 0, 2, 3]);
  // plain cosine: c's nearest is the hub q (15°), then p and r (40°, the first listed first)
  const nn = await nearestTranslations(X, Y, 2, 3);
  expect(nn[2].map((t) => t.index)).toEqual([1, 0, 2]);
  expect(nn[2][0].score).toBeCloseTo(cos(15), 6);
  expect(nn.map((row) => row[0].index)).toEqual([0, 0, 1, 3]);
});

test('vocabularyTranslations runs the extraction asked for, and a short candidate list stops at the candidates', async () => {
  expect(await vocabularyTranslations(X, Y, 2, { kind: 'csls', K: 3 }, 4)).toEqual(await cslsTranslations(X, Y, 2, 3, 4));
  expect(await vocabularyTranslations(X, Y, 2, { kind: 'nn' }, 4)).toEqual(await nearestTranslations(X, Y, 2, 4));
  expect((await nearestTranslations(X, plane([10]), 2, 5)).map((row) => row.length)).toEqual([1, 1, 1, 1]);
});
