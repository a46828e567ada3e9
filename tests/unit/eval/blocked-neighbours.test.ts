// The blocked nearest-neighbour search of eval/csls.ts (matrix products in onnxruntime, TopK per
// row and per column, column picks merged across blocks) against the scalar search it replaced,
// written out here: one pass over every (i, j) in index order keeping each row's and each
// column's k best (a later candidate only displaces a strictly smaller one). On random unit
// vectors the neighbours and their order are the same and the values agree to float32
// precision; on small integer vectors, where many products tie exactly and every value is
// exact in both, the results are identical, ties in index order, whatever the block size.
import { describe, expect, test } from 'vitest';
import { cslsTranslations, nearestTranslations, neighbourhoods, type Neighbourhoods, unitRows } from '../../../src/main/eval/csls.ts';
import { Rng } from '../../../src/main/nn/init.ts';

function keep(near: Int32Array, sim: Float32Array, at: number, k: number, index: number, value: number): void {
  if (value <= sim[at + k - 1]) return;
  let p = at + k - 1;
  while (p > at && sim[p - 1] < value) {
    sim[p] = sim[p - 1];
    near[p] = near[p - 1];
    p--;
  }
  sim[p] = value;
  near[p] = index;
}

function means(near: Int32Array, sim: Float32Array, n: number, k: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0,
      c = 0;
    for (let r = 0; r < k; r++) if (near[i * k + r] >= 0) ((s += sim[i * k + r]), c++);
    out[i] = c ? s / c : 0;
  }
  return out;
}

const dot = (x: Float32Array, i: number, y: Float32Array, j: number, d: number) => {
  let s = 0;
  for (let t = 0; t < d; t++) s += x[i * d + t] * y[j * d + t];
  return s;
};

/** The scalar search: every (i, j) in index order. */
function scalarNeighbourhoods(x: Float32Array, y: Float32Array, d: number, k: number): Neighbourhoods {
  const I = x.length / d,
    J = y.length / d;
  const xNear = new Int32Array(I * k).fill(-1),
    yNear = new Int32Array(J * k).fill(-1);
  const xSim = new Float32Array(I * k).fill(-Infinity),
    ySim = new Float32Array(J * k).fill(-Infinity);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      const s = dot(x, i, y, j, d);
      keep(xNear, xSim, i * k, k, j, s);
      keep(yNear, ySim, j * k, k, i, s);
    }
  return { k, xNear, xSim, xMean: means(xNear, xSim, I, k), yNear, ySim, yMean: means(yNear, ySim, J, k) };
}

function scalarBest(I: number, J: number, n: number, score: (i: number, j: number) => number) {
  const near = new Int32Array(n),
    sim = new Float32Array(n);
  const out: { index: number; score: number }[][] = [];
  for (let i = 0; i < I; i++) {
    near.fill(-1);
    sim.fill(-Infinity);
    for (let j = 0; j < J; j++) keep(near, sim, 0, n, j, score(i, j));
    const row: { index: number; score: number }[] = [];
    for (let r = 0; r < n && near[r] >= 0; r++) row.push({ index: near[r], score: sim[r] });
    out.push(row);
  }
  return out;
}

function scalarCsls(x: Float32Array, y: Float32Array, d: number, K: number, n: number) {
  const nb = scalarNeighbourhoods(x, y, d, K);
  return scalarBest(x.length / d, y.length / d, n, (i, j) => 2 * dot(x, i, y, j, d) - nb.xMean[i] - nb.yMean[j]);
}

const scalarNearest = (x: Float32Array, y: Float32Array, d: number, n: number) =>
  scalarBest(x.length / d, y.length / d, n, (i, j) => dot(x, i, y, j, d));

const gaussianRows = (rng: Rng, n: number, d: number) =>
  unitRows(
    Float32Array.from({ length: n * d }, () => rng.normal()),
    d,
  );

/** Rows of −1, 0, 1, with some rows repeated (exact ties between candidates). */
function integerRows(rng: Rng, n: number, d: number): Float32Array {
  const v = Float32Array.from({ length: n * d }, () => rng.int(3) - 1);
  for (let r = 0; r < n; r += 4) v.copyWithin(r * d, ((r * 7) % n) * d, ((r * 7) % n) * d + d);
  return v;
}

const indices = (rows: { index: number }[][]) => rows.map((r) => r.map((t) => t.index));
const scores = (rows: { score: number }[][]) => rows.flatMap((r) => r.map((t) => t.score));

describe.each([undefined, 1, 5, 16])('blocks of %s rows', (blockRows) => {
  const size = { blockRows };

  test('random unit vectors: the same neighbours in the same order, values to float32 precision', async () => {
    const rng = new Rng(7);
    const d = 8;
    const x = gaussianRows(rng, 37, d),
      y = gaussianRows(rng, 53, d);
    const want = scalarNeighbourhoods(x, y, d, 3);
    const got = await neighbourhoods(x, y, d, 3, undefined, size);
    expect([...got.xNear]).toEqual([...want.xNear]);
    expect([...got.yNear]).toEqual([...want.yNear]);
    for (const key of ['xSim', 'ySim', 'xMean', 'yMean'] as const) got[key].forEach((v, i) => expect(v).toBeCloseTo(want[key][i], 5));
    for (const [mine, theirs] of [
      [await cslsTranslations(x, y, d, 3, 5, undefined, size), scalarCsls(x, y, d, 3, 5)],
      [await nearestTranslations(x, y, d, 5, undefined, size), scalarNearest(x, y, d, 5)],
    ]) {
      expect(indices(mine)).toEqual(indices(theirs));
      scores(mine).forEach((v, i) => expect(v).toBeCloseTo(scores(theirs)[i], 5));
    }
  });

  test.each([2, 4])('integer vectors with exact ties, K = %i: identical results, ties in index order', async (K) => {
    const rng = new Rng(11 + K);
    const d = 4;
    const x = integerRows(rng, 30, d),
      y = integerRows(rng, 25, d);
    const want = scalarNeighbourhoods(x, y, d, K);
    const got = await neighbourhoods(x, y, d, K, undefined, size);
    expect(got).toEqual(want);
    // the case holds ties that decide the order: some row's K-th and (K+1)-th products are equal
    const products = (i: number) => Array.from({ length: 25 }, (_, j) => dot(x, i, y, j, d)).sort((a, b) => b - a);
    expect(Array.from({ length: 30 }, (_, i) => products(i)).some((p) => p[K - 1] === p[K])).toBe(true);
    expect(await cslsTranslations(x, y, d, K, 6, undefined, size)).toEqual(scalarCsls(x, y, d, K, 6));
    expect(await nearestTranslations(x, y, d, 6, undefined, size)).toEqual(scalarNearest(x, y, d, 6));
  });
});

test('more neighbours asked than candidates, and empty sides', async () => {
  const rng = new Rng(3);
  const x = integerRows(rng, 6, 3),
    y = integerRows(rng, 2, 3);
  expect(await neighbourhoods(x, y, 3, 4, undefined, { blockRows: 4 })).toEqual(scalarNeighbourhoods(x, y, 3, 4));
  expect(await cslsTranslations(x, y, 3, 4, 5)).toEqual(scalarCsls(x, y, 3, 4, 5));
  const none = await neighbourhoods(new Float32Array(0), y, 3, 2);
  expect([...none.yNear]).toEqual([-1, -1, -1, -1]);
  expect(await nearestTranslations(x, new Float32Array(0), 3, 2)).toEqual(Array.from({ length: 6 }, () => []));
});
