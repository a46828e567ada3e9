// Gradient-check table for building blocks and losses (float64, parameters included):
// each row builds a block on tiny shapes and compares autodiff with finite differences.
import { describe, expect, test } from 'vitest';
import { transformerEncoderLayer, multiHeadAttention } from '../../../src/main/nn/blocks/attention.ts';
import { embedding, layerNorm, linear } from '../../../src/main/nn/blocks/layers.ts';
import { crossEntropy, infoNce, marginContrastive, tableCrossEntropy } from '../../../src/main/nn/blocks/losses.ts';
import { groupedLstm } from '../../../src/main/nn/blocks/grouped-lstm.ts';
import { biLstm } from '../../../src/main/nn/blocks/lstm.ts';
import { clsPool, maxPool, meanPool } from '../../../src/main/nn/blocks/pooling.ts';
import { Scope } from '../../../src/main/nn/blocks/scope.ts';
import { Graph, type Value } from '../../../src/main/nn/graph.ts';
import { gradcheck } from '../helpers/gradcheck.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { add, matmul, mul, transposeLast } from '../../../src/main/nn/ops/all-ops.ts';
import { Program } from '../../../src/main/nn/session.ts';
import { Tensor, floats, int64s } from '../../../src/main/nn/tensor.ts';

const rng = new Rng(3);
const t = (shape: number[]) =>
  new Tensor(
    'float64',
    Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.normal()),
    shape,
  );
const scope = (g: Graph) => new Scope(g, new Rng(5), 'float64');
const maskOf = (g: Graph, rows: number[][]) => g.constant(floats(rows.flat(), [rows.length, rows[0].length], 'float64'));

const ids = (g: Graph) => g.constant(int64s([0, 2, 2, 1, 0, 1], [2, 3]));

type Row = [name: string, build: (g: Graph, x: Value[]) => Value, inputs: Tensor[]];

const rows: Row[] = [
  ['Linear', (g, [x]) => linear(scope(g), x, 2), [t([2, 3, 3])]],
  [
    'Embedding (+ x) then LayerNorm',
    (g, [x]) => layerNorm(scope(g).sub('ln'), add(embedding(scope(g).sub('emb'), ids(g), 3, 3), x)),
    [t([2, 3, 3])],
  ],
  [
    'BiLSTM with padding mask',
    (g, [x]) =>
      biLstm(
        scope(g),
        x,
        maskOf(g, [
          [1, 1, 1],
          [1, 1, 0],
        ]),
        2,
      ),
    [t([2, 3, 2])],
  ],
  [
    'Grouped LSTM (two groups, input projection as row products)',
    (g, [a, b]) => add(...(groupedLstm([scope(g).sub('p'), scope(g).sub('q')], [a, b], 2) as [Value, Value])),
    [t([2, 3, 2]), t([2, 3, 2])],
  ],
  ['Multi-head attention', (g, [x]) => multiHeadAttention(scope(g), x, maskOf(g, [[1, 1, 0]]), 2), [t([1, 3, 4])]],
  [
    'Transformer encoder layer',
    (g, [x]) => transformerEncoderLayer(scope(g), x, maskOf(g, [[1, 1, 1]]), { heads: 1, ffWidth: 3, activation: 'relu' }),
    [t([1, 3, 2])],
  ],
  [
    'Mean pooling',
    (g, [x]) =>
      meanPool(
        x,
        maskOf(g, [
          [1, 1, 0],
          [1, 0, 0],
        ]),
      ),
    [t([2, 3, 2])],
  ],
  [
    'Max pooling',
    (g, [x]) =>
      maxPool(
        x,
        maskOf(g, [
          [1, 1, 0],
          [1, 0, 0],
        ]),
      ),
    [t([2, 3, 2])],
  ],
  ['CLS pooling', (_, [x]) => clsPool(x), [t([2, 3, 2])]],
  ['InfoNCE (τ = 0.5)', (_, [a, b]) => infoNce(a, b, { temperature: 0.5 }), [t([3, 4]), t([3, 4])]],
  ['InfoNCE symmetric', (_, [a, b]) => infoNce(a, b, { temperature: 0.5, symmetric: true }), [t([3, 4]), t([3, 4])]],
  ['Margin contrastive', (g, [a, b]) => marginContrastive(a, b, g.constant(floats([1, 0, 0], [3], 'float64')), 2), [t([3, 2]), t([3, 2])]],
  ['Cross-entropy', (g, [z]) => crossEntropy(z, g.constant(int64s([2, 0, 4]))), [t([3, 5])]],
  [
    'Cross-entropy weighted',
    (g, [z]) => crossEntropy(z, g.constant(int64s([2, 0, 4])), g.constant(floats([1, 1, 0], [3], 'float64'))),
    [t([3, 5])],
  ],
  [
    'Cross-entropy through an output table, weighted',
    (g, [h, table]) =>
      tableCrossEntropy(
        h,
        table,
        g.constant(int64s([2, 0, 4, 1, 1, 3], [2, 3])),
        maskOf(g, [
          [1, 1, 0],
          [1, 0, 1],
        ]),
      ),
    [t([2, 3, 4]), t([5, 4])],
  ],
];

describe('blocks and losses match finite differences (float64)', () => {
  test.each(rows)('%s', async (_name, build, inputs) => {
    expect(await gradcheck(build, inputs)).toBeLessThan(1e-6);
  });
});

test('BiLSTM: a right-padded sequence gives the same features as the unpadded one', async () => {
  const x = t([1, 4, 2]);
  const run = async (len: number, mask: number[]) => {
    const g = new Graph();
    const xs = g.input('x', 'float64', [1, len, 2]);
    const y = biLstm(scope(g), xs, g.constant(floats(mask, [1, len], 'float64')), 3);
    const p = await Program.compile(g, { y }, { device: 'cpu' });
    const feed = new Tensor('float64', (x.data as Float64Array).slice(0, len * 2), [1, len, 2]);
    const params = Object.fromEntries([...g.params].map(([n, q]) => [n, q.init]));
    const out = Array.from((await p.run({ x: feed, ...params })).y.data as Float64Array);
    await p.release();
    return out;
  };
  const padded = await run(4, [1, 1, 1, 0]);
  const exact = await run(3, [1, 1, 1]);
  padded.slice(0, 18).forEach((v, i) => expect(v).toBeCloseTo(exact[i], 12));
  expect(padded.slice(18).every((v) => v === 0)).toBe(true);
});

test('cross-entropy through a table equals cross-entropy of the logits, for a symbolic batch and logits past the range of exp', async () => {
  const h = t([2, 3, 4]);
  (h.data as Float64Array).forEach((_, i, a) => (a[i] *= 60));
  const table = t([5, 4]);
  const targets = int64s([2, 0, 4, 1, 1, 3], [2, 3]);
  const weights = floats([1, 1, 0, 1, 0, 1], [2, 3], 'float64');
  const g = new Graph();
  const [hs, ys, ws] = [g.input('h', 'float64', ['B', 3, 4]), g.input('y', 'int64', ['B', 3]), g.input('w', 'float64', ['B', 3])];
  const e = g.constant(table);
  const viaTable = tableCrossEntropy(hs, e, ys, ws);
  const viaLogits = crossEntropy(matmul(hs, transposeLast(e)), ys, ws);
  const p = await Program.compile(g, { viaTable, viaLogits: mul(viaLogits, 1) }, { device: 'cpu' });
  const out = await p.run({ h, y: targets, w: weights });
  await p.release();
  const [a, b] = [Number(out.viaTable.data[0]), Number(out.viaLogits.data[0])];
  expect(Number.isFinite(a) && a > 1).toBe(true);
  expect(a).toBeCloseTo(b, 9);
});
