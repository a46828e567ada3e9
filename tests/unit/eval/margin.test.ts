// CSLS over whole sets, the distance margin with and without an extra term, pair scores, mining and the threshold search
// (eval/csls.ts, eval/margin.ts, eval/threshold-search.ts) against values computed by hand.
import { describe, expect, test } from 'vitest';
import { silentContext } from '../../../src/main/jobs/job-context.ts';
import { cslsTranslations, neighbourhoods } from '../../../src/main/eval/csls.ts';
import { distanceMargin, flaggingThreshold, minePairs, parallelismScores, ratioMargin } from '../../../src/main/eval/margin.ts';
import { bestThreshold } from '../../../src/main/eval/threshold-search.ts';
import { CancelledError } from '../../../src/main/errors.ts';

/** Unit vectors in the plane at these angles (degrees), as [n, 2] rows. */
const at = (...deg: number[]) => Float32Array.from(deg.flatMap((a) => [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)]));
const cos = (a: number) => Math.cos((a * Math.PI) / 180);

describe('neighbourhoods and CSLS', () => {
  // x at 0°, 90°; y at 10°, 60°, 100°.
  const x = at(0, 90),
    y = at(10, 60, 100);

  test('k nearest on each side, best first, with their mean cosine', async () => {
    const nb = await neighbourhoods(x, y, 2, 2);
    expect([...nb.xNear]).toEqual([0, 1, 2, 1]); // x0: 10° then 60°; x1: 100° then 60°
    expect(nb.xMean[0]).toBeCloseTo((cos(10) + cos(60)) / 2, 6);
    expect(nb.xMean[1]).toBeCloseTo((cos(10) + cos(30)) / 2, 6);
    expect([...nb.yNear]).toEqual([0, 1, 1, 0, 1, 0]); // y1 at 60°: 90° (30°) before 0° (60°)
    expect(nb.yMean[2]).toBeCloseTo((cos(10) + cos(100)) / 2, 6);
  });

  test('fewer candidates than k: missing slots are −1 and the mean is over those found', async () => {
    const nb = await neighbourhoods(at(0), at(20), 2, 3);
    expect([...nb.xNear]).toEqual([0, -1, -1]);
    expect(nb.xMean[0]).toBeCloseTo(cos(20), 6);
  });

  test('CSLS translations: 2·cos − r_T − r_S, best first', async () => {
    const nb = await neighbourhoods(x, y, 2, 2);
    const found = await cslsTranslations(x, y, 2, 2, 3);
    const csls = (i: number, j: number, deg: number) => 2 * cos(deg) - nb.xMean[i] - nb.yMean[j];
    expect(found[0].map((t) => t.index)).toEqual([0, 1, 2]);
    expect(found[0][1].score).toBeCloseTo(csls(0, 1, 60), 5);
    // For x1 (90°): y2 at 100° (10°) and y1 at 60° (30°); y1's neighbourhood is the tighter one.
    expect(found[1][0]).toEqual({ index: 2, score: expect.closeTo(csls(1, 2, 10), 5) });
    expect(found[1][1].score).toBeCloseTo(csls(1, 1, 30), 5);
  });

  test('stops with CancelledError when the signal fires', async () => {
    const c = new AbortController();
    c.abort();
    await expect(neighbourhoods(x, y, 2, 2, silentContext(c.signal))).rejects.toThrow(CancelledError);
  });
});

describe('distance margin', () => {
  test('s − (r_x + r_y) / 2', () => {
    expect(distanceMargin(0.8, 0.6, 0.4)).toBeCloseTo(0.3, 12);
    expect(distanceMargin(-1.5, -1, -2)).toBeCloseTo(0, 12);
  });

  test('pair scores by hand, with the rival that beats a non-parallel pair', async () => {
    // Pairs 0 and 1 parallel (x and y 5° apart); pair 2's target is y at 85°, right by x1 (90°).
    const x = at(0, 90, 45),
      y = at(5, 95, 85);
    const s = await parallelismScores({ x, y, dim: 2 }, 0, { k: 2 }); // scores ≈ 0.28, 0.08, −0.06
    const nb = await neighbourhoods(x, y, 2, 2);
    expect(s[0].score).toBeCloseTo(cos(5) - (nb.xMean[0] + nb.yMean[0]) / 2, 5);
    expect(s[2].score).toBeCloseTo(cos(40) - (nb.xMean[2] + nb.yMean[2]) / 2, 5);
    expect(s.map((p) => p.flagged)).toEqual([false, false, true]);
    // y2 (85°) is nearest to x1 (90°): the rival of pair 2 is source 1.
    expect(s[2].rival).toEqual({ side: 'source', index: 1, score: expect.closeTo(cos(5) - (nb.xMean[1] + nb.yMean[2]) / 2, 5) });
  });

  test('mining: each sentence in at most one pair, best first, from the threshold up', async () => {
    // x0 ≈ y1, x1 ≈ y0; x2 has no partner near it except y0 and y1 (taken); y2 is far from all.
    const x = at(0, 90, 50),
      y = at(92, 3, 200);
    const all = await minePairs({ x, y, dim: 2 }, -Infinity, { k: 2 });
    expect(all.slice(0, 2).map((p) => [p.src, p.tgt])).toEqual(
      expect.arrayContaining([
        [0, 1],
        [1, 0],
      ]),
    );
    const srcs = all.map((p) => p.src),
      tgts = all.map((p) => p.tgt);
    expect(new Set(srcs).size).toBe(srcs.length);
    expect(new Set(tgts).size).toBe(tgts.length);
    for (let i = 1; i < all.length; i++) expect(all[i].score).toBeLessThanOrEqual(all[i - 1].score);
    const kept = await minePairs({ x, y, dim: 2 }, all[1].score, { k: 2 });
    expect(kept).toEqual(all.slice(0, 2));
  });
});

describe('margin over cosine plus an extra term', () => {
  test('the extra term re-ranks the pairs, by hand', async () => {
    // x0 at 0°, x1 at 90°; y0 at 40°, y1 at 50°: by cosine x0–y0 and x1–y1; the extra term
    // (0.5 for the crossed pairs) makes x0–y1 and x1–y0 the pairs. Every sentence's
    // neighbourhood (k = 2) holds both candidates: r = (cos 40° + cos 50° + 0.5) / 2 for all.
    const x = at(0, 90),
      y = at(40, 50);
    const extra = (i: number, j: number) => (i !== j ? 0.5 : 0);
    const r = (cos(40) + cos(50) + 0.5) / 2;
    const mined = await minePairs({ x, y, dim: 2, extra }, -Infinity, { k: 2 });
    expect(mined.map((p) => [p.src, p.tgt]).sort()).toEqual([
      [0, 1],
      [1, 0],
    ]);
    for (const p of mined) expect(p.score).toBeCloseTo(cos(50) + 0.5 - r, 5);
    const s = await parallelismScores({ x, y, dim: 2, extra }, 0, { k: 2 });
    expect(s[0].score).toBeCloseTo(cos(40) - r, 5);
    expect(s[0]).toMatchObject({ flagged: true, rival: { index: 1, score: expect.closeTo(cos(50) + 0.5 - r, 5) } });
  });

  test("a sentence's k best come from more cosine candidates than k, ranked by the pair score", async () => {
    // x0 at 0°; y at 10°, 20°, 30°; the extra term lifts y2, the farthest by cosine. With k = 1,
    // r(x0) is s(x0, y2) = cos 30° + 1, and y2's only candidate is x0: margin(x0, y2) = 0.
    const extra = (_: number, j: number) => (j === 2 ? 1 : 0);
    const mined = await minePairs({ x: at(0), y: at(10, 20, 30), dim: 2, extra }, -Infinity, { k: 1 });
    expect(mined).toEqual([{ src: 0, tgt: 2, score: expect.closeTo(0, 5) }]);
  });
});

describe('threshold search', () => {
  test('the middle point of best F1 (built case)', () => {
    // Sorted: 0.9 ✓, 0.8 ✓, 0.7 ✗, 0.6 ✓, 0.2 ✗; 4 true items in all.
    // Cuts: after 0.9 F1 = 2·1·¼/1.25 = 0.4; after 0.8: 2·1·½/1.5 = 0.667; after 0.7: P ⅔ R ½ → 0.571;
    // after 0.6: P ¾ R ¾ → 0.75; after 0.2: P ⅗ R ¾ → 0.667. Best: between 0.6 and 0.2.
    const c = [0.7, 0.9, 0.2, 0.6, 0.8].map((score) => ({ score, correct: score !== 0.7 && score !== 0.2 }));
    const t = bestThreshold(c, 4);
    expect(t.threshold).toBeCloseTo(0.4, 12);
    expect(t.f1).toBeCloseTo(0.75, 12);
    expect([t.precision, t.recall, t.accepted]).toEqual([0.75, 0.75, 4]);
  });

  test('ties are not split, and nothing correct means accept nothing', () => {
    const t = bestThreshold(
      [
        { score: 1, correct: true },
        { score: 1, correct: false },
        { score: 0, correct: false },
      ],
      1,
    );
    expect(t.accepted).toBe(2);
    expect(t.threshold).toBe(0.5);
    expect(bestThreshold([{ score: 1, correct: false }], 3)).toMatchObject({ threshold: Infinity, f1: 0 });
  });

  test('flagging threshold: flag below it', () => {
    const t = flaggingThreshold([1.2, 0.5, 1.1, 0.7, 0.95], [false, true, false, true, false]);
    expect(t.threshold).toBeCloseTo(0.825, 12);
    expect(t.f1).toBe(1);
  });
});

describe('ratio margin (seed 001, BUCC)', () => {
  test('s / ((r_x + r_y) / 2)', () => {
    expect(ratioMargin(0.8, 0.6, 0.4)).toBeCloseTo(1.6, 12);
  });

  test('mining by the ratio, scores by hand', async () => {
    // x at 0°, 90°; y at 80°, 10°. k = 2 covers every candidate: r(x0) = (cos 10 + cos 80)/2 = r(x1) = r(y0) = r(y1).
    const x = at(0, 90),
      y = at(80, 10);
    const r = (cos(10) + cos(80)) / 2;
    const mined = await minePairs({ x, y, dim: 2 }, -Infinity, { k: 2, margin: 'ratio' });
    expect(mined.map((p) => [p.src, p.tgt])).toEqual(
      expect.arrayContaining([
        [0, 1],
        [1, 0],
      ]),
    );
    for (const p of mined) expect(p.score).toBeCloseTo(cos(10) / r, 5);
    // the threshold keeps the pairs from it up
    expect(await minePairs({ x, y, dim: 2 }, cos(10) / r + 1e-3, { k: 2, margin: 'ratio' })).toEqual([]);
  });

  test('refused with an extra term in the pair score', async () => {
    await expect(minePairs({ x: at(0), y: at(5), dim: 2, extra: () => -1 }, 0, { margin: 'ratio' })).rejects.toThrow(
      /ratio margin needs a positive pair score/,
    );
  });
});
