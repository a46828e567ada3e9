// Gradient-check table: one row per primitive op (and the small composites), each
// comparing autodiff against central finite differences in float64.
import { describe, expect, test } from 'vitest';
import { grad } from '../../../src/main/nn/autodiff.ts';
import { Graph, type Value } from '../../../src/main/nn/graph.ts';
import { gradcheck, type GradcheckOptions } from '../helpers/gradcheck.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import * as op from '../../../src/main/nn/ops/all-ops.ts';
import { getOp, registeredOps } from '../../../src/main/nn/graph.ts';
import { Tensor, int64s } from '../../../src/main/nn/tensor.ts';

const rng = new Rng(42);
/** A float64 tensor of N(0,1) draws, or uniform in [lo, hi] when given. */
function t(shape: number[], lo?: number, hi?: number): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const f = () => (lo === undefined ? rng.normal() : lo + (hi! - lo) * rng.next());
  return new Tensor('float64', Float64Array.from({ length: n }, f), shape);
}
const idx = (g: Graph, v: number[], shape?: number[]) => g.constant(int64s(v, shape ?? [v.length]));
const mask = (g: Graph, v: number[], shape: number[]) => g.constant(new Tensor('bool', Uint8Array.from(v), shape));

type Row = [name: string, build: (g: Graph, x: Value[]) => Value, inputs: Tensor[], opts?: GradcheckOptions];

const rows: Row[] = [
  ['MatMul 2-D', (_, [a, b]) => op.matmul(a, b), [t([2, 3]), t([3, 4])]],
  ['MatMul batched × matrix', (_, [a, b]) => op.matmul(a, b), [t([2, 2, 3]), t([3, 2])]],
  ['MatMul broadcast batch', (_, [a, b]) => op.matmul(a, b), [t([2, 2, 3]), t([1, 3, 2])]],
  ['MatMul with a transposed weight (x·Wᵀ)', (_, [x, w]) => op.matmul(x, op.transposeLast(w)), [t([2, 3, 4]), t([5, 4])]],
  ['MatMul 2-D of two transposes', (_, [a, b]) => op.matmul(op.transposeLast(a), op.transposeLast(b)), [t([3, 2]), t([4, 3])]],
  [
    'MatMul symbolic batch',
    (_, [a, b]) => op.matmul(a, b),
    [t([3, 2, 3]), t([3, 2])],
    {
      shapes: [
        ['B', 2, 3],
        [3, 2],
      ],
    },
  ],
  [
    'MatMul weights broadcast over the batch (grouped, folded into rows)',
    (_, [a, b]) => op.matmul(a, b),
    [t([2, 3, 2, 3]), t([2, 1, 3, 2])],
  ],
  [
    'MatMul weights used at three steps (gradients stacked into one product)',
    (_, [a, b, c, w]) => op.sum([op.matmul(a, w), op.matmul(b, w), op.matmul(c, w)]),
    [t([2, 2, 3]), t([2, 1, 3]), t([2, 2, 3]), t([2, 3, 4])],
  ],
  ['Gemm', (_, [a, b, c]) => op.gemm(a, b, c, { alpha: 0.7, beta: 1.3 }), [t([2, 3]), t([3, 4]), t([4])]],
  ['Gemm transA transB', (_, [a, b, c]) => op.gemm(a, b, c, { transA: true, transB: true }), [t([3, 2]), t([4, 3]), t([2, 1])]],
  ['Add broadcast', (_, [a, b]) => op.add(a, b), [t([2, 3]), t([3])]],
  ['Sub broadcast', (_, [a, b]) => op.sub(a, b), [t([2, 3]), t([2, 1])]],
  ['Mul broadcast', (_, [a, b]) => op.mul(a, b), [t([2, 1, 3]), t([4, 1])]],
  ['Div broadcast', (_, [a, b]) => op.div(a, b), [t([2, 3]), t([3], 0.5, 2)]],
  ['Pow', (_, [a, b]) => op.pow(a, b), [t([2, 3], 0.5, 2), t([3], -1, 2)]],
  ['Sum (variadic, broadcast)', (_, [a, b, c]) => op.sum([a, b, c]), [t([2, 3]), t([3]), t([2, 1])]],
  ['Max elementwise', (_, [a, b]) => op.max(a, b), [t([2, 3]), t([2, 3])]],
  ['Neg', (_, [x]) => op.neg(x), [t([2, 3])]],
  ['Exp', (_, [x]) => op.exp(x), [t([2, 3])]],
  ['Exp under a reduction (its cotangent left unexpanded)', (_, [x]) => op.reduceSum(op.exp(x), [1]), [t([2, 3])]],
  ['Log', (_, [x]) => op.log(x), [t([2, 3], 0.5, 3)]],
  ['Sqrt', (_, [x]) => op.sqrt(x), [t([2, 3], 0.5, 3)]],
  ['Tanh', (_, [x]) => op.tanh(x), [t([2, 3])]],
  ['Sigmoid', (_, [x]) => op.sigmoid(x), [t([2, 3])]],
  ['Relu', (_, [x]) => op.relu(x), [t([2, 3], 0.1, 1)]],
  ['Relu negative side', (_, [x]) => op.relu(op.sub(x, 0.5)), [t([2, 3], 0.6, 1)]],
  ['Softmax', (_, [x]) => op.softmax(x, 1), [t([2, 4])]],
  ['LogSoftmax', (_, [x]) => op.logSoftmax(x, -1), [t([2, 4])]],
  ['ReduceSum', (_, [x]) => op.reduceSum(x, [1]), [t([2, 3, 2])]],
  ['ReduceSum keepdims', (_, [x]) => op.reduceSum(x, [0, 2], true), [t([2, 3, 2])]],
  ['ReduceMean', (_, [x]) => op.reduceMean(x, [-1]), [t([2, 3])]],
  ['ReduceMean symbolic', (_, [x]) => op.reduceMean(x, [0], true), [t([3, 2])], { shapes: [['N', 2]] }],
  ['ReduceMax', (_, [x]) => op.reduceMax(x, [1]), [t([3, 4])]],
  ['LogSumExp', (_, [x]) => op.logSumExp(x, [1]), [t([3, 4])]],
  ['Gather (embedding, repeats)', (g, [e]) => op.gather(e, idx(g, [1, 3, 1, 0], [2, 2])), [t([4, 3])]],
  [
    'Gather of one table twice (one scatter-add)',
    (g, [e]) =>
      op.add(op.reduceSum(op.gather(e, idx(g, [1, 3, 1])), [0]), op.reduceSum(op.gather(e, idx(g, [0, 1, 1, 2], [2, 2])), [0, 1])),
    [t([4, 3])],
  ],
  [
    'Gather of a tied table (rows scatter-added into the head product)',
    (g, [e]) => op.matmul(op.gather(e, idx(g, [1, 3, 1])), op.transposeLast(e)),
    [t([4, 3])],
  ],
  ['GatherElements', (g, [x]) => op.gatherElements(x, idx(g, [2, 0, 1, 2], [2, 2]), 1), [t([2, 3])]],
  ['Concat', (_, [a, b]) => op.concat([a, b, a], 1), [t([2, 1]), t([2, 3])]],
  [
    'Concat symbolic',
    (_, [a, b]) => op.concat([a, b], 0),
    [t([2, 2]), t([1, 2])],
    {
      shapes: [
        ['A', 2],
        ['B', 2],
      ],
    },
  ],
  ['Slice', (_, [x]) => op.slice(x, [1, -3], [3, -1], [0, 1]), [t([4, 5])]],
  ['Split (one piece unused)', (_, [x]) => op.mul(op.split(x, [1, 2, 1], 1)[1], 2), [t([2, 4])]],
  ['Reshape', (_, [x]) => op.reshape(x, [3, -1]), [t([2, 3])]],
  ['Transpose', (_, [x]) => op.transpose(x, [2, 0, 1]), [t([2, 3, 2])]],
  ['Squeeze/Unsqueeze', (_, [x]) => op.unsqueeze(op.squeeze(x, [1]), [0]), [t([2, 1, 3])]],
  ['Expand', (_, [x]) => op.expand(x, x.graph.ints([2, 3, 4]), [2, 3, 4]), [t([3, 1])]],
  ['Where', (g, [a, b]) => op.where(mask(g, [1, 0, 1, 0, 0, 1], [2, 3]), a, b), [t([2, 3]), t([3])]],
  ['LayerNorm (decomposed)', (_, [x, s, b]) => op.layerNorm(x, s, b), [t([2, 4]), t([4]), t([4])]],
  ['L2 normalize', (_, [x]) => op.l2Normalize(x), [t([2, 3])]],
  ['Cast (float64 → float64) and Identity', (_, [x]) => op.identity(op.cast(x, 'float64')), [t([2, 2])]],
  ['EyeLike (constant in x)', (_, [x]) => op.mul(x, op.eyeLike(x)), [t([3, 3])]],
  ['Dropout (seeded, training)', (_, [x]) => op.dropout(x, 0.5, 11), [t([3, 4])], { freshSession: true }],
];

describe('VJP rules match finite differences (float64)', () => {
  test.each(rows)('%s', async (_name, build, inputs, opts) => {
    expect(await gradcheck(build, inputs, opts)).toBeLessThan(1e-6);
  });
});

// ORT's CPU provider has no float64 Erf kernel, so Erf (and Gelu built on it) are checked
// in float32 with a larger step; the tolerance reflects float32 rounding, not the rule.
const f32 = (x: Tensor) => new Tensor('float32', Float32Array.from(x.data as Float64Array), x.dims);
const erfRows: Row[] = [
  ['Erf', (_, [x]) => op.erf(x), [f32(t([2, 3]))], { h: 1e-2 }],
  ['Gelu (erf)', (_, [x]) => op.gelu(x), [f32(t([2, 3]))], { h: 1e-2 }],
];

describe('VJP rules match finite differences (float32, no float64 kernel)', () => {
  test.each(erfRows)('%s', async (_name, build, inputs, opts) => {
    expect(await gradcheck(build, inputs, opts)).toBeLessThan(2e-3);
  });
});

test('every registered op with a VJP appears in a gradient-check row', () => {
  const used = new Set<string>();
  for (const [, build, inputs] of [...rows, ...erfRows]) {
    const g = new Graph();
    build(
      g,
      inputs.map((x, i) => g.input(`x${i}`, x.type as 'float64', [...x.dims])),
    );
    for (const n of g.nodes) used.add(n.op);
  }
  const withVjp = registeredOps().filter((name) => getOp(name).vjp && name !== 'StopGradient');
  expect(withVjp.filter((name) => !used.has(name))).toEqual([]);
});

test('a weight used transposed (x·Wᵀ) gets its gradient as one product, not as a Transpose of one', () => {
  const g = new Graph();
  const x = g.input('x', 'float32', [2, 3, 4]);
  const w = g.input('w', 'float32', [5, 4]);
  const [dw] = grad(op.reduceMean(op.matmul(x, op.transposeLast(w))), [w]);
  const { nodes } = g.live([dw]);
  expect(dw.shape).toEqual([5, 4]);
  expect(nodes.some((n) => n.op === 'Transpose' && n.inputs[0]?.producer?.op === 'MatMul')).toBe(false);
});

test('a tied table (embedding and output head) gets its gradient without a zero-filled table or a Sum', () => {
  const g = new Graph();
  const e = g.input('e', 'float32', [6, 4]);
  const h = g.input('h', 'float32', [2, 4]);
  const words = op.gather(e, idx(g, [1, 3, 1], [1, 3]));
  const [de] = grad(op.add(op.reduceMean(words), op.reduceMean(op.matmul(h, op.transposeLast(e)))), [e]);
  const { nodes } = g.live([de]);
  expect(de.producer?.op).toBe('ScatterND');
  expect(nodes.some((n) => n.op === 'ConstantOfShape' || n.op === 'Sum')).toBe(false);
});

test('a wrong VJP would be caught: the check fails for a perturbed function', async () => {
  // Stop-gradient hides half of y = x·x from autodiff, so the check must report an error.
  const err = await gradcheck((_, [x]) => op.mul(x, op.stopGradient(x)), [t([2, 2], 0.5, 1)]);
  expect(err).toBeGreaterThan(0.1);
});
