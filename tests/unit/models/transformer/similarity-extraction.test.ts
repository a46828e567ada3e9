// Each extraction method on small hand-made similarity matrices whose answer is worked out
// by hand in the comments.
import { expect, test } from 'vitest';
import {
  argmaxLinks,
  entmaxLinks,
  iterMaxLinks,
  linkProbabilities,
  matchLinks,
  pmiMatrix,
  softmaxLinks,
} from '../../../../src/main/models/transformer/similarity-extraction.ts';

/** The cells of a 0/1 matrix as "i-j". */
const cells = (m: Uint8Array, J: number) => [...m.keys()].filter((x) => m[x]).map((x) => `${Math.floor(x / J)}-${x % J}`);

test('ArgMax keeps the cells that are both their row’s and their column’s maximum', () => {
  // row maxima: 0→0, 1→0, 2→2; column maxima: 0→0, 1→1, 2→2 → intersection 0-0, 2-2
  const sim = Float64Array.of(0.9, 0.1, 0.2, 0.8, 0.3, 0.1, 0.1, 0.2, 0.7);
  expect(cells(argmaxLinks(sim, 3, 3), 3)).toEqual(['0-0', '2-2']);
  expect(cells(argmaxLinks(new Float64Array(0), 0, 3), 3)).toEqual([]);
});

test('IterMax adds, among the words left unlinked, the mutual best of the damped matrix', () => {
  // rows: [0.9 0.1 0.2 0.1] [0.8 0.3 0.1 0.25] [0.1 0.2 0.7 0.1] [0.05 0.6 0.1 0.55]
  // ArgMax: 0-0, 2-2, 3-1; row 1 and column 3 stay unlinked. Round 2 damps cells with one
  // side linked by 0.9 and drops cells with both: row 1 = [0.72 0.27 0.09 0.25],
  // column 3 = [0.09 0.25 0.09 0.495]; mutual maxima: 1-0 (0.72) and 3-3 (0.495).
  const sim = Float64Array.of(0.9, 0.1, 0.2, 0.1, 0.8, 0.3, 0.1, 0.25, 0.1, 0.2, 0.7, 0.1, 0.05, 0.6, 0.1, 0.55);
  expect(cells(argmaxLinks(sim, 4, 4), 4)).toEqual(['0-0', '2-2', '3-1']);
  expect(cells(iterMaxLinks(sim, 4, 4), 4)).toEqual(['0-0', '1-0', '2-2', '3-1', '3-3']);
  // max_count 1 is ArgMax; two words a side stop after ArgMax as SimAlign does
  expect(cells(iterMaxLinks(sim, 4, 4, 1), 4)).toEqual(['0-0', '2-2', '3-1']);
  expect(cells(iterMaxLinks(Float64Array.of(0.9, 0.8, 0.7, 0.1), 2, 2), 2)).toEqual(['0-0']);
});

test('Match finds the assignment of largest total, not the greedy one', () => {
  // greedy takes 0-0 (0.9) then 1-1 (0.1): 1.0; the optimum is 0-1 + 1-0 = 0.8 + 0.85 = 1.65
  const sim = Float64Array.of(0.9, 0.8, 0.85, 0.1);
  expect(cells(matchLinks(sim, 2, 2), 2)).toEqual(['0-1', '1-0']);
  // rectangular 2×3: min(I, J) = 2 links, best total 0.7 + 0.9 (0-2, 1-0)
  const wide = Float64Array.of(0.6, 0.1, 0.7, 0.9, 0.8, 0.2);
  expect(cells(matchLinks(wide, 2, 3), 3)).toEqual(['0-2', '1-0']);
});

test('awesome-align: a link where both directional softmaxes pass the threshold', () => {
  // rows: [10 0 3] → [0.9990 4.5e-5 9.1e-4], [0 0 3] → [0.045 0.045 0.909];
  // columns: [10 0] → [0.99995 4.5e-5], [0 0] and [3 3] → [0.5 0.5].
  // 0-2 fails its row (9.1e-4 < 1e-3), 1-0 its column (4.5e-5); at 0.1, 1-1 fails its row too.
  const s = Float64Array.of(10, 0, 3, 0, 0, 3);
  expect(cells(softmaxLinks(s, 2, 3, 1e-3), 3)).toEqual(['0-0', '1-1', '1-2']);
  expect(cells(softmaxLinks(s, 2, 3, 0.1), 3)).toEqual(['0-0', '1-2']);
  const p = linkProbabilities(s, 2, 3);
  for (const x of p) expect(x >= 0 && x <= 1).toBe(true);
  expect(p[0]).toBeGreaterThan(p[1]);
});

test('PMI: log p(i,j) − log p(i) − log p(j) of the whole-matrix softmax; it favours rare partners', () => {
  const s = Float64Array.of(2, 0, 1, 1);
  const pmi = pmiMatrix(s, 2, 2);
  const z = Math.exp(2) + 1 + 2 * Math.E;
  const p = [Math.exp(2) / z, 1 / z, Math.E / z, Math.E / z];
  const row = [p[0] + p[1], p[2] + p[3]],
    col = [p[0] + p[2], p[1] + p[3]];
  pmi.forEach((v, x) => expect(v).toBeCloseTo(Math.log(p[x] / (row[x >> 1] * col[x % 2])), 12));
  // column 0 is everybody's favourite in raw scores; under PMI row 1 goes to column 1
  expect(cells(argmaxLinks(Float64Array.of(3, 1, 2.9, 2), 2, 2), 2)).toEqual(['0-0']);
  expect(cells(argmaxLinks(pmiMatrix(Float64Array.of(3, 1, 2.9, 2), 2, 2), 2, 2), 2)).toEqual(['0-0', '1-1']);
});

test('awesome-align with entmax15: sparse in both directions, links where both are non-zero', () => {
  // row 0 = [10, 0, 3]: (z − 10)/2 = [0, −5, −3.5] → support {0}, p = [1, 0, 0];
  // row 1 = [0, 0, 3]: [−1.5, −1.5, 0] → τ = −1 (support {2}: 1 − 0 = 1) → [0, 0, 1];
  // column 0 = [10, 0] → [1, 0]; columns 1 and 2 = [0, 0], [3, 3] → [0.5, 0.5]: links 0-0, 1-2.
  const s = Float64Array.of(10, 0, 3, 0, 0, 3);
  expect(cells(entmaxLinks(s, 2, 3), 3)).toEqual(['0-0', '1-2']);
  // close scores keep several partners: row [1, 1.2, 0.9] → all three non-zero
  expect(cells(entmaxLinks(Float64Array.of(1, 1.2, 0.9), 1, 3), 3)).toEqual(['0-0', '0-1', '0-2']);
});
