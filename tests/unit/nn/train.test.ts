// Training: a tiny MLP learns a nonlinear task; AdamW in the graph and on the host agree,
// also for a table whose gradient the host receives as rows; a resumed run reproduces the
// uninterrupted loss curve; the exported ONNX model runs alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { afterAll, describe, expect, test } from 'vitest';
import { exportOnnx, loadModelFolder, saveModelFolder } from '../../../src/main/nn/model-folder.ts';
import { Scope } from '../../../src/main/nn/blocks/scope.ts';
import { Graph } from '../../../src/main/nn/graph.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { concat, gather, matmul, mul, reduceMean, reshape, tanh } from '../../../src/main/nn/ops/all-ops.ts';
import { int64s } from '../../../src/main/nn/tensor.ts';
import { clipScale } from '../../../src/main/nn/optim/adamw.ts';
import { makeSchedule } from '../../../src/main/nn/optim/schedule.ts';
import { Trainer, type TrainerOptions } from '../../../src/main/nn/trainer.ts';
import { Program } from '../../../src/main/nn/session.ts';
import { mlp, rings } from './fixtures/rings.ts';

const tmp = mkdtempSync(join(tmpdir(), 'nn-train-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const opts = (o: Partial<TrainerOptions> = {}): TrainerOptions => ({
  schedule: { base: 0.05, warmup: 5, total: 60, decay: 'cosine' },
  weightDecay: 1e-4,
  clipNorm: 5,
  device: 'cpu',
  ...o,
});

async function curve(trainer: Trainer, steps: number, data = rings(64, 1)): Promise<number[]> {
  const losses: number[] = [];
  for (let i = 0; i < steps; i++) losses.push(await trainer.step(data));
  return losses;
}

describe('training', () => {
  test('a tiny MLP learns the rings task', async () => {
    const { g, logits, loss } = mlp();
    const trainer = await Trainer.create(g, loss, opts({ schedule: { base: 0.05, warmup: 5, total: 200, decay: 'cosine' } }));
    const losses = await curve(trainer, 200, rings(256, 1));
    expect(losses[199]).toBeLessThan(0.1 * losses[0]);
    const test = rings(200, 2);
    const fwd = await Program.compile(g, { logits }, { device: 'cpu' });
    const z = (await fwd.run({ ...test, ...Object.fromEntries(trainer.state.params) })).logits.data as Float32Array;
    const ys = test.y.data as BigInt64Array;
    const correct = ys.filter((y, i) => Number(z[2 * i + 1] > z[2 * i]) === Number(y)).length;
    expect(correct / 200).toBeGreaterThan(0.95);
    await fwd.release();
    await trainer.release();
  });

  test('AdamW in the graph and on the host give the same curve', async () => {
    const a = mlp();
    const b = mlp();
    // A small clip norm, so that clipping is active in both implementations.
    const inGraph = await Trainer.create(a.g, a.loss, opts({ optimizer: 'graph', clipNorm: 0.05 }));
    const onHost = await Trainer.create(b.g, b.loss, opts({ optimizer: 'host', clipNorm: 0.05 }));
    const [la, lb] = [await curve(inGraph, 20), await curve(onHost, 20)];
    la.forEach((l, i) => expect(lb[i]).toBeCloseTo(l, 4));
    await inGraph.release();
    await onHost.release();
  });

  test.each(['float32', 'float64'] as const)(
    'a table read through two Gathers (repeated and negative indices): its gradient as rows on the host = the dense one in the graph (%s)',
    async (dtype) => {
      const build = () => {
        const g = new Graph();
        const s = new Scope(g, new Rng(7), dtype);
        const table = s.normal('table', [10, 4], 1);
        const a = gather(table, g.input('a', 'int64', [5]));
        const b = reshape(gather(table, g.input('b', 'int64', [1, 3])), [3, 4]);
        const y = tanh(matmul(concat([a, b], 0), s.weight('w', [4, 2])));
        return { g, loss: reduceMean(mul(y, y)) };
      };
      const feeds = { a: int64s([3, 3, 0, 9, -1]), b: int64s([2, 3, 9], [1, 3]) };
      const [x, y] = [build(), build()];
      const inGraph = await Trainer.create(x.g, x.loss, opts({ optimizer: 'graph', clipNorm: 0.05 }));
      const onHost = await Trainer.create(y.g, y.loss, opts({ optimizer: 'host', clipNorm: 0.05 }));
      for (let i = 0; i < 5; i++) expect(await onHost.step(feeds)).toBeCloseTo(await inGraph.step(feeds), 5);
      const [ta, tb] = [inGraph, onHost].map((t) => Array.from(t.state.params.get('table')!.data as Float32Array));
      ta.forEach((v, i) => expect(tb[i]).toBeCloseTo(v, 5));
      // rows the Gathers never read moved only by weight decay, the others by their gradients
      expect(tb[4 * 1]).toBeCloseTo(ta[4 * 1], 6);
      await inGraph.release();
      await onHost.release();
    },
  );

  test.each(['host', 'graph'] as const)('resuming from a checkpoint reproduces the uninterrupted curve (AdamW %s)', async (optimizer) => {
    const whole = mlp();
    const straight = await Trainer.create(whole.g, whole.loss, opts({ optimizer }));
    const reference = await curve(straight, 12);
    const first = mlp();
    const t1 = await Trainer.create(first.g, first.loss, opts({ optimizer }));
    const head = await curve(t1, 6);
    const family = { family: 'mlp', version: 1, files: [] };
    saveModelFolder(join(tmp, `ckpt-${optimizer}`), family, { config: { hidden: 16 }, tensors: t1.state.params, optimizer: t1.state });
    const second = mlp();
    const t2 = await Trainer.create(second.g, second.loss, opts({ optimizer }));
    const { config, optimizer: state } = loadModelFolder<{ hidden: number }>(join(tmp, `ckpt-${optimizer}`), family);
    expect(config.hidden).toBe(16);
    expect(() => loadModelFolder(join(tmp, `ckpt-${optimizer}`), { ...family, family: 'bilstm' })).toThrow(/a mlp model, not bilstm/);
    t2.restore(state!);
    const tail = await curve(t2, 6);
    expect([...head, ...tail]).toEqual(reference);
    for (const t of [straight, t1, t2]) await t.release();
  });

  test('frozen parameters keep their values while the others train', async () => {
    const { g, loss } = mlp();
    const trainer = await Trainer.create(g, loss, opts({ frozen: ['l1.w', 'l1.b'] }));
    const before = Array.from(trainer.state.params.get('l1.w')!.data as Float32Array);
    const l2 = Array.from(trainer.state.params.get('l2.w')!.data as Float32Array);
    await curve(trainer, 3);
    expect(Array.from(trainer.state.params.get('l1.w')!.data as Float32Array)).toEqual(before);
    expect(Array.from(trainer.state.params.get('l2.w')!.data as Float32Array)).not.toEqual(l2);
    expect(trainer.state.m.has('l1.w')).toBe(false);
    await trainer.release();
  });

  test('the exported forward model runs standalone with its weights', async () => {
    const { g, logits, loss } = mlp();
    const trainer = await Trainer.create(g, loss, opts());
    await curve(trainer, 5);
    const model = exportOnnx(g, { logits }, trainer.state.params);
    const session = await ort.InferenceSession.create(model);
    expect(session.inputNames).toEqual(['x']);
    const x = rings(4, 3).x;
    const alone = (await session.run({ x })).logits.data;
    const fwd = await Program.compile(g, { logits }, { device: 'cpu' });
    const viaInputs = (await fwd.run({ x, ...Object.fromEntries(trainer.state.params) })).logits.data;
    expect(Array.from(alone as Float32Array)).toEqual(Array.from(viaInputs as Float32Array));
    await session.release();
    await fwd.release();
    await trainer.release();
  });
});

test('global-norm clipping scale', () => {
  expect(clipScale([Float32Array.of(3), Float32Array.of(4)], 1)).toBeCloseTo(0.2, 6);
  expect(clipScale([Float32Array.of(0.3, 0.4)], 1)).toBe(1);
  expect(clipScale([Float32Array.of(30)], undefined)).toBe(1);
});

test('warm-up then cosine decay', () => {
  const s = makeSchedule({ base: 1, warmup: 4, total: 14, decay: 'cosine', minRatio: 0.1 });
  expect([0, 1, 3].map(s)).toEqual([0.25, 0.5, 1]);
  expect(s(9)).toBeCloseTo(0.55, 10);
  expect(s(14)).toBeCloseTo(0.1, 10);
  expect(makeSchedule({ base: 2, total: 10, decay: 'linear' })(5)).toBeCloseTo(1, 10);
});
