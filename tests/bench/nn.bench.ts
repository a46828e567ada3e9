// `npm run bench -- nn [--quick]`: the nn engine on this machine, in one run:
//   1. ORT MatMul peak: the best of [n×n]·[n×n] for n = 1024 and 2048 (GFLOP/s);
//   2a. full training steps (forward, backward, AdamW) of MatMul-bound blocks — an MLP and
//       a Transformer encoder layer — as achieved MatMul GFLOP/s and the ratio to the peak;
//   2b. the unrolled BiLSTM step (T=32, H=256, B=32, E=256) in ms;
//   3. AdamW in the graph vs as a host typed-array loop (same model, full step);
//   4. parameters fed as inputs every step vs resident (baked initializers): what keeping
//      them on the device could save at most. onnxruntime-node has no IO binding and no
//      preferredOutputLocation, so inputs are wrapped without copying and outputs come back
//      as new host arrays; baked weights also let ORT pre-pack MatMul operands.
// FLOPs count MatMul/Gemm work only: a forward product of [m×k]·[k×n] is 2mkn, and its
// backward is twice that (both operand gradients).
import { benchOptions } from './bench-options.ts';
import { transformerEncoderLayer } from '../../src/main/nn/blocks/attention.ts';
import { linear } from '../../src/main/nn/blocks/layers.ts';
import { biLstm } from '../../src/main/nn/blocks/lstm.ts';
import { Scope } from '../../src/main/nn/blocks/scope.ts';
import { grad } from '../../src/main/nn/autodiff.ts';
import { Graph, type Value } from '../../src/main/nn/graph.ts';
import { normalInit, Rng } from '../../src/main/nn/init.ts';
import { gelu, matmul, mul, reduceMean } from '../../src/main/nn/ops/all-ops.ts';
import { Trainer } from '../../src/main/nn/trainer.ts';
import { type Feeds, Program } from '../../src/main/nn/session.ts';
import { constantInit } from '../../src/main/nn/init.ts';

interface Timing {
  best: number;
  median: number;
}

/**
 * Times several jobs in turns (a, b, c, a, b, c, …) so that each sees the same share of
 * whatever else loads the machine; returns best and median milliseconds per job.
 */
export async function interleaved(jobs: readonly (() => Promise<unknown>)[], runs: number, warmup = 2): Promise<Timing[]> {
  for (let i = 0; i < warmup; i++) for (const f of jobs) await f();
  const ts = jobs.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [k, f] of jobs.entries()) {
      const t0 = performance.now();
      await f();
      ts[k].push(performance.now() - t0);
    }
  }
  return ts.map((t) => {
    t.sort((x, y) => x - y);
    return { best: t[0], median: t[Math.floor(t.length / 2)] };
  });
}

export const gflops = (flops: number, ms: number) => flops / ms / 1e6;
const rng = new Rng(1);
const randn = (shape: number[]) => normalInit(rng, shape, 1);

/** A job running [n×n]·[n×n] once, and its FLOP count. */
export async function matmulJob(n: number): Promise<{ run: () => Promise<unknown>; flops: number; release: () => Promise<void> }> {
  const g = new Graph();
  const y = matmul(g.input('a', 'float32', [n, n]), g.input('b', 'float32', [n, n]));
  const prog = await Program.compile(g, { y });
  const feeds = { a: randn([n, n]), b: randn([n, n]) };
  return { run: () => prog.run(feeds), flops: 2 * n ** 3, release: () => prog.release() };
}

interface Workload {
  name: string;
  build(): { g: Graph; loss: Value; feeds: Feeds };
  /** MatMul FLOPs of one forward pass. */
  forwardFlops: number;
}

/** Mean-square "loss" on a block's output: cheap, and it reaches every parameter. */
const meanSquare = (y: Value) => reduceMean(mul(y, y));

function mlpWorkload(batch: number, width: number, hidden: number): Workload {
  return {
    name: `MLP ${batch}×${width}→${hidden}→${width} (gelu)`,
    forwardFlops: 2 * 2 * batch * width * hidden,
    build: () => {
      const g = new Graph();
      const s = new Scope(g, new Rng(2));
      const x = g.input('x', 'float32', [batch, width]);
      const loss = meanSquare(linear(s.sub('l2'), gelu(linear(s.sub('l1'), x, hidden)), width));
      return { g, loss, feeds: { x: randn([batch, width]) } };
    },
  };
}

function encoderWorkload(b: number, t: number, d: number, heads: number, ff: number): Workload {
  const tokens = b * t;
  return {
    name: `Transformer layer B=${b} T=${t} D=${d} h=${heads} ff=${ff}`,
    forwardFlops: 2 * tokens * d * d * 4 + 2 * 2 * tokens * d * ff + 2 * 2 * b * t * t * d,
    build: () => {
      const g = new Graph();
      const x = g.input('x', 'float32', [b, t, d]);
      const mask = g.constant(constantInit([b, t], 1));
      const loss = meanSquare(transformerEncoderLayer(new Scope(g, new Rng(3)), x, mask, { heads, ffWidth: ff }));
      return { g, loss, feeds: { x: randn([b, t, d]) } };
    },
  };
}

function bilstmWorkload(b: number, t: number, e: number, h: number): Workload {
  return {
    name: `BiLSTM T=${t} H=${h} B=${b} E=${e}`,
    forwardFlops: 2 * (2 * b * t * e * 4 * h + 2 * b * t * h * 4 * h),
    build: () => {
      const g = new Graph();
      const x = g.input('x', 'float32', [b, t, e]);
      const mask = g.constant(constantInit([b, t], 1));
      return { g, loss: meanSquare(biLstm(new Scope(g, new Rng(4)), x, mask, h)), feeds: { x: randn([b, t, e]) } };
    },
  };
}

async function trainer(w: Workload, optimizer: 'graph' | 'host'): Promise<{ run: () => Promise<unknown>; release: () => Promise<void> }> {
  const { g, loss, feeds } = w.build();
  const t = await Trainer.create(g, loss, { schedule: { base: 1e-4 }, optimizer, clipNorm: 1 });
  return { run: () => t.step(feeds), release: () => t.release() };
}

function report(w: Workload, label: string, t: Timing, peak?: number): void {
  const achieved = gflops(3 * w.forwardFlops, t.best);
  const ratio = peak ? `  ${((100 * achieved) / peak).toFixed(0)}% of peak ${peak.toFixed(1)}` : '';
  console.log(
    `${label.padEnd(18)} ${w.name}: ${t.best.toFixed(1)} ms/step (median ${t.median.toFixed(1)})  ${achieved.toFixed(1)} GFLOP/s${ratio}`,
  );
}

/** Gradient step with parameters fed each run vs baked into the model as initializers. */
async function residency(w: Workload, runs: number): Promise<void> {
  const { g, loss, feeds } = w.build();
  const params = [...g.params.values()];
  const outs: Record<string, Value> = { loss };
  grad(
    loss,
    params.map((p) => p.value),
  ).forEach((gr, i) => (outs[`g${i}`] = gr));
  const values = new Map(params.map((p) => [p.value.name, p.init]));
  const fed = await Program.compile(g, outs);
  const baked = await Program.compile(g, outs, { bake: values });
  const all = { ...feeds, ...Object.fromEntries(values) };
  const [tf, tb] = await interleaved([() => fed.run(all), () => baked.run(feeds)], runs);
  const mb = params.reduce((a, p) => a + p.init.data.length * 4, 0) / 2 ** 20;
  console.log(
    `residency          ${w.name} (${mb.toFixed(0)} MiB params): fed ${tf.best.toFixed(1)} ms, resident ${tb.best.toFixed(1)} ms → saves ${(tf.best - tb.best).toFixed(1)} ms/step`,
  );
  await fed.release();
  await baked.release();
}

/** Steps of `w` in turns with the 1024 MatMul; returns the step timing and the peak seen. */
async function againstPeak(w: Workload, optimizers: ('graph' | 'host')[], runs: number): Promise<{ steps: Timing[]; peak: number }> {
  const mm = await matmulJob(1024);
  const jobs = await Promise.all(optimizers.map((o) => trainer(w, o)));
  const [p, ...steps] = await interleaved([mm.run, ...jobs.map((j) => j.run)], runs);
  for (const j of jobs) await j.release();
  await mm.release();
  return { steps, peak: gflops(mm.flops, p.best) };
}

export default async function nnBench(args: string[]): Promise<void> {
  const o = benchOptions('nn', args, { quick: { type: 'boolean', default: false } });
  if (!o) return;
  const runs = o.quick ? 3 : 8;
  const peaks: number[] = [];
  for (const n of [1024, 2048]) {
    const mm = await matmulJob(n);
    const [t] = await interleaved([mm.run], n === 1024 ? 2 * runs : runs);
    peaks.push(gflops(mm.flops, t.best));
    console.log(
      `matmul             [${n}×${n}]·[${n}×${n}]  ${t.best.toFixed(1)} ms  ${peaks.at(-1)!.toFixed(1)} GFLOP/s (median run ${t.median.toFixed(1)} ms)`,
    );
    await mm.release();
  }
  const mlp = mlpWorkload(1024, 1024, 4096);
  const enc = encoderWorkload(16, 128, 512, 8, 2048);
  const lstm = bilstmWorkload(32, 32, 256, 256);
  const m = await againstPeak(mlp, ['graph', 'host'], runs);
  const e = await againstPeak(enc, ['host'], runs);
  const l = await againstPeak(lstm, ['host'], runs);
  // Ratios use the best MatMul rate seen anywhere in this run: the conservative reading.
  const peak = Math.max(...peaks, m.peak, e.peak, l.peak);
  console.log(`matmul peak        ${peak.toFixed(1)} GFLOP/s (best seen in this run)`);
  report(mlp, 'step (AdamW graph)', m.steps[0], peak);
  report(mlp, 'step (AdamW host)', m.steps[1], peak);
  const [tg, th] = [m.steps[0].best, m.steps[1].best];
  console.log(
    `adamw              in-graph ${tg.toFixed(1)} ms vs host loop ${th.toFixed(1)} ms per MLP step → ${tg <= th ? 'in-graph' : 'host'} is faster`,
  );
  report(enc, 'step (AdamW host)', e.steps[0], peak);
  report(lstm, 'step (AdamW host)', l.steps[0]);
  console.log(`bilstm             ${l.steps[0].best.toFixed(1)} ms/step (target ≤ 100 ms)`);
  await residency(mlp, runs);
}
