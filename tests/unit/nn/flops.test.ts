// MatMul FLOPs of a training step (flops.ts through Trainer.matmulFlops): forward and
// backward products counted by hand, the batch size taken from the feeds, a dimension that a
// Reshape derives from the batch worked out, a Gemm with a transposed operand, a product no
// output needs left out; and the split of a step's time the neural bench prints.
import { describe, expect, test } from 'vitest';
import { Scope } from '../../../src/main/nn/blocks/scope.ts';
import { Graph } from '../../../src/main/nn/graph.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { add, gemm, matmul, reduceMean, reshape } from '../../../src/main/nn/ops/all-ops.ts';
import { Trainer } from '../../../src/main/nn/trainer.ts';
import { floats } from '../../../src/main/nn/tensor.ts';

const options = {
  schedule: { base: 0.01, warmup: 0, total: 1, decay: 'linear' as const },
  weightDecay: 0,
  clipNorm: 5,
  device: 'cpu' as const,
};

describe('matmulFlops', () => {
  test('counts 2mkn per product, forward and backward, with the sizes from the feeds', async () => {
    const g = new Graph();
    const s = new Scope(g, new Rng(1));
    const x = g.input('x', 'float32', ['B', 4, 3]);
    const q = g.input('q', 'float32', [3, 'N']);
    const w = s.normal('w', [3, 5], 0.1);
    const v = s.normal('v', [5, 2], 0.1);
    const h = matmul(reshape(x, [-1, 3]), w); // [B·4, 3]·[3, 5]: B·4 is a symbol Reshape derives
    matmul(h, h); // needed by no output: not counted
    const viaGemm = gemm(q, w, null, { transA: true }); // qᵀ [N, 3] · w [3, 5]
    const loss = add(reduceMean(matmul(h, v)), reduceMean(viaGemm));
    const trainer = await Trainer.create(g, loss, options);
    const B = 2,
      N = 7;
    const feeds = { x: floats(new Array(B * 12).fill(0.5), [B, 4, 3]), q: floats(new Array(3 * N).fill(0.25), [3, N]) };
    // Forward: (B·4)·3·5, (B·4)·5·2, N·3·5 multiply–adds. Backward: x and q are inputs, so no
    // gradient flows into them: h·w → dW; h·v → dH and dV; the Gemm → dW.
    const hw = 2 * (B * 4) * 3 * 5,
      hv = 2 * (B * 4) * 5 * 2,
      qw = 2 * N * 3 * 5;
    expect(trainer.matmulFlops(feeds)).toBe(2 * hw + 3 * hv + 2 * qw);
    await trainer.release();
  });

  test("a step's time is split into the session run and the host update, as the neural bench reports it", async () => {
    const g = new Graph();
    const s = new Scope(g, new Rng(1));
    const x = g.input('x', 'float32', ['B', 3]);
    const w = s.normal('w', [3, 64], 0.1);
    const trainer = await Trainer.create(g, reduceMean(matmul(x, w)), options);
    expect(trainer.lastStepMs).toEqual({ run: 0, update: 0 });
    const t0 = performance.now();
    await trainer.step({ x: floats(new Array(6).fill(0.5), [2, 3]) });
    const wall = performance.now() - t0;
    const { run, update } = trainer.lastStepMs;
    expect(run).toBeGreaterThan(0);
    expect(update).toBeGreaterThan(0);
    expect(run + update).toBeLessThanOrEqual(wall);
    await trainer.release();
  });
});
