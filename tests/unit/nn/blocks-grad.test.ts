// Gradient-check table for building blocks and losses (float64, parameters included):
// each row builds a block on tiny shapes and compares autodiff with finite differences.
import { describe, expect, test } from 'vitest';
import { transformerEncoderLayer, multiHeadAttention } from '../../../src/main/nn/blocks/attention.ts';
import { embedding, layerNorm, linear } from '../../../src/main/nn/blocks/layers.ts';
import { crossEntropy, infoNce, marginContrastive } from '../../../src/main/nn/blocks/losses.ts';
import { biLstm } from '../../../src/main/nn/blocks/lstm.ts';
import { clsPool, maxPool, meanPool } from '../../../src/main/nn/blocks/pooling.ts';
import { Scope } from '../../../src/main/nn/blocks/scope.ts';
import type { Graph, Value } from '../../../src/main/nn/graph.ts';
import { gradcheck } from '../../../src/main/nn/gradcheck.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { add } from '../../../src/main/nn/ops/index.ts';
import { Tensor, floats, int64s } from '../../../src/main/nn/tensor.ts';

const rng = new Rng(3);
const t = (shape: number[]) =>
  new Tensor('float64', Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.normal()), shape);
const scope = (g: Graph) => new Scope(g, new Rng(5), 'float64');
const maskOf = (g: Graph, rows: number[][]) => g.constant(floats(rows.flat(), [rows.length, rows[0].length], 'float64'));

const ids = (g: Graph) => g.constant(int64s([0, 2, 2, 1, 0, 1], [2, 3]));

type Row = [name: string, build: (g: Graph, x: Value[]) => Value, inputs: Tensor[]];

const rows: Row[] = [
  ['Linear', (g, [x]) => linear(scope(g), x, 2), [t([2, 3, 3])]],
  ['Embedding (+ x) then LayerNorm', (g, [x]) => layerNorm(scope(g).sub('ln'), add(embedding(scope(g).sub('emb'), ids(g), 3, 3), x)), [t([2, 3, 3])]],
  ['BiLSTM with padding mask', (g, [x]) => biLstm(scope(g), x, maskOf(g, [[1, 1, 1], [1, 1, 0]]), 2), [t([2, 3, 2])]],
  ['Multi-head attention', (g, [x]) => multiHeadAttention(scope(g), x, maskOf(g, [[1, 1, 0]]), 2), [t([1, 3, 4])]],
  ['Transformer encoder layer', (g, [x]) => transformerEncoderLayer(scope(g), x, maskOf(g, [[1, 1, 1]]), { heads: 1, ffWidth: 3, activation: 'relu' }), [t([1, 3, 2])]],
  ['Mean pooling', (g, [x]) => meanPool(x, maskOf(g, [[1, 1, 0], [1, 0, 0]])), [t([2, 3, 2])]],
  ['Max pooling', (g, [x]) => maxPool(x, maskOf(g, [[1, 1, 0], [1, 0, 0]])), [t([2, 3, 2])]],
  ['CLS pooling', (_, [x]) => clsPool(x), [t([2, 3, 2])]],
  ['InfoNCE (τ = 0.5)', (_, [a, b]) => infoNce(a, b, { temperature: 0.5 }), [t([3, 4]), t([3, 4])]],
  ['InfoNCE symmetric', (_, [a, b]) => infoNce(a, b, { temperature: 0.5, symmetric: true }), [t([3, 4]), t([3, 4])]],
  ['Margin contrastive', (g, [a, b]) => marginContrastive(a, b, g.constant(floats([1, 0, 0], [3], 'float64')), 2), [t([3, 2]), t([3, 2])]],
  ['Cross-entropy', (g, [z]) => crossEntropy(z, g.constant(int64s([2, 0, 4]))), [t([3, 5])]],
  ['Cross-entropy weighted', (g, [z]) => crossEntropy(z, g.constant(int64s([2, 0, 4])), g.constant(floats([1, 1, 0], [3], 'float64'))), [t([3, 5])]],
];

describe('blocks and losses match finite differences (float64)', () => {
  test.each(rows)('%s', async (_name, build, inputs) => {
    expect(await gradcheck(build, inputs)).toBeLessThan(1e-6);
  });
});
