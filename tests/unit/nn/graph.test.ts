// The graph builder: shape and dtype checks fail where the mistake is made, symbolic dims
// reach the ONNX file, unused nodes are pruned, and int64 / float64 graphs run.
import { expect, test } from 'vitest';
import { grad } from '../../../src/main/nn/autodiff.ts';
import { Graph } from '../../../src/main/nn/graph.ts';
import { ModelProto } from '../../../src/main/nn/onnx/schema.ts';
import { toModelProto } from '../../../src/main/nn/onnx/serialize.ts';
import * as op from '../../../src/main/nn/ops/all-ops.ts';
import { Program } from '../../../src/main/nn/session.ts';
import { floats, int64s } from '../../../src/main/nn/tensor.ts';

test('shape and dtype mistakes are caught while building', () => {
  const g = new Graph();
  const a = g.input('a', 'float32', [2, 3]);
  expect(() => op.matmul(a, g.input('b', 'float32', [4, 5]))).toThrow('MatMul: inner dims 3 ≠ 4');
  expect(() => op.add(a, g.input('c', 'float32', [4]))).toThrow('cannot broadcast 3 with 4');
  expect(() => op.add(a, g.input('d', 'float64', [3]))).toThrow(/Add: dtype mismatch/);
  expect(() => g.input('a', 'float32', [1])).toThrow('graph: duplicate name a');
  expect(() => grad(op.reduceSum(a), [a]).map(String)).not.toThrow();
  expect(() => grad(a, [a])).toThrow(/loss must be a float scalar/);
});

test('shapes are inferred, symbolic dims kept', () => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 'T', 8]);
  expect(op.reshape(x, [0, 0, 2, 4]).shape).toEqual(['B', 'T', 2, 4]);
  // flattening names the product; unflattening gives the symbol back
  const y = g.input('y', 'float32', [2, 'B', 33, 8]);
  const rows = op.reshape(y, [0, -1, 8]);
  expect(rows.shape).toEqual([2, 'B*33', 8]);
  expect(op.reshape(rows, [0, -1, 33, 8]).shape).toEqual([2, 'B', 33, 8]);
  expect(op.reshape(rows, [0, -1, 11, 8]).shape).toEqual([2, 'B*3', 11, 8]);
  expect(op.reduceMean(x, [1], true).shape).toEqual(['B', 1, 8]);
  expect(op.concat([x, x], 2).shape).toEqual(['B', 'T', 16]);
  expect(op.split(x, [3, 5], 2).map((v) => v.shape)).toEqual([
    ['B', 'T', 3],
    ['B', 'T', 5],
  ]);
  expect(op.gather(g.input('e', 'float32', [100, 4]), g.input('ids', 'int64', ['B', 'T'])).shape).toEqual(['B', 'T', 4]);
});

test('the ONNX model carries symbolic dims, opset 18, and only the needed nodes', () => {
  const g = new Graph();
  const x = g.input('x', 'float32', ['B', 4]);
  op.exp(x); // not needed for y
  const y = op.tanh(x);
  const m = ModelProto.toObject(ModelProto.decode(toModelProto(g, { y })), { longs: Number }) as {
    opsetImport: { version: number }[];
    graph: {
      node: { opType: string }[];
      input: { type: { tensorType: { shape: { dim: { dimParam?: string; dimValue?: number }[] } } } }[];
    };
  };
  expect(m.opsetImport[0].version).toBe(18);
  expect(m.graph.node.map((n) => n.opType)).toEqual(['Tanh', 'Identity']);
  expect(m.graph.input[0].type.tensorType.shape.dim).toEqual([{ dimParam: 'B' }, { dimValue: 4 }]);
});

test('int64 and float64 graphs run', async () => {
  const g = new Graph();
  const i = op.add(g.input('i', 'int64', [3]), g.scalar(10, 'int64'));
  const f = op.sqrt(g.input('f', 'float64', [2]));
  await expect(Program.compile(g, { i, f })).rejects.toThrow("output name 'i' is already an input");
  const p = await Program.compile(g, { j: i, s: f }, { device: 'cpu' });
  const out = await p.run({ i: int64s([1, 2, 3]), f: floats([4, 2], [2], 'float64') });
  expect(Array.from(out.j.data as BigInt64Array)).toEqual([11n, 12n, 13n]);
  expect((out.s.data as Float64Array)[1]).toBe(Math.SQRT2);
  await expect(p.run({ i: int64s([1, 2, 3]) })).rejects.toThrow("run: missing feed 'f'");
  await p.release();
});

test('parameters: declared once, shared by name, shape-checked', () => {
  const g = new Graph();
  const init = () => floats([1, 2], [2]);
  const a = g.param('w', [2], init);
  expect(g.param('w', [2], init)).toBe(a);
  expect(() => g.param('w', [3], init)).toThrow('param w: shape [3] ≠ [2]');
  expect([...g.params.keys()]).toEqual(['w']);
});
