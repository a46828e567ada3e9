// The HMM's sentence-end transition and its fertility projection, on hand-made emission
// matrices where each decides the most probable link (both tests fail without them).
import { expect, test } from 'vitest';
import { Hmm } from '../../../src/main/align/models/hmm.ts';

/** Posteriors for emissions rows[a][b] (gen a, obs b) with null emission 0.01. */
function posteriors(rows: number[][]): number[][] {
  const I = rows.length,
    J = rows[0].length;
  const em = new Float64Array((I + 1) * J).fill(0.01);
  rows.forEach((r, a) => r.forEach((x, b) => (em[a * J + b] = x)));
  const post = new Float64Array((I + 1) * J);
  new Hmm().posteriors(em, I, J, post, false);
  return rows.map((_, a) => Array.from(post.subarray(a * J, (a + 1) * J)));
}

const best = (post: number[][], b: number) => post.reduce((m, row, a) => (row[b] > post[m][b] ? a : m), 0);

test('the last obs word is pulled to the end of the gen sentence', () => {
  // obs 2 fits gen 2 (a +1 jump) and gen 4 (a +3 jump, then the +1 jump to the end) alike, gen 4 slightly better
  const e = 1e-3;
  const post = posteriors([
    [1, e, e],
    [e, 1, e],
    [e, e, 0.5],
    [e, e, e],
    [e, e, 0.6],
  ]);
  expect(best(post, 0)).toBe(0);
  expect(best(post, 1)).toBe(1);
  expect(best(post, 2)).toBe(4);
});

test('a gen word cannot take every obs word (expected fertility pushed towards 1)', () => {
  // gen 1 explains all four obs words better than their own partners do (0.5 vs 0.1):
  // unconstrained, it takes all four (expected fertility 2.9)
  const e = 1e-3;
  const post = posteriors([
    [0.1, e, e, e],
    [0.5, 0.5, 0.5, 0.5],
    [e, e, 0.1, e],
    [e, e, e, 0.1],
  ]);
  expect([0, 1, 2, 3].map((b) => best(post, b))).toEqual([0, 1, 2, 3]);
  expect(post[1].reduce((s, x) => s + x, 0)).toBeLessThan(2.5);
});
