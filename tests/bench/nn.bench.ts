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
import { transformerEncoderLayer } from '../../src/main/nn/blocks/attention.ts';
import { linear } from '../../src/main/nn/blocks/layers.ts';
import { biLstm } from '../../src/main/nn/blocks/lstm.ts';
import { Scope } from '../../src/main/nn/blocks/scope.ts';
import { grad } from '../../src/main/nn/autodiff.ts';
import { Graph, type Value } from '../../src/main/nn/graph.ts';
import { normalInit, Rng } from '../../src/main/nn/init.ts';
import { gelu, matmul, mul, reduceMean } from '../../src/main/nn/ops/index.ts';
import { Trainer } from '../../src/main/nn/runtime/trainer.ts';
import { type Feeds, Program } from '../../src/main/nn/session.ts';
import { constantInit } from '../../src/main/nn/init.ts';

interface Timing {
  best: number;
  median: number;
}

async function time(f: () => Promise<unknown>, runs: number, warmup = 2): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await f();
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return { best: ts[0], median: ts[Math.floor(ts.length / 2)] };
}

const gflops = (flops: number, ms: number) => flops / ms / 1e6;
const rng = new Rng(1);
const randn = (shape: number[]) => normalInit(rng, shape, 1);

async function matmulPeak(n: number, runs: number): Promise<number> {
  const g = new Graph();
  const y = matmul(g.input('a', 'float32', [n, n]), g.input('b', 'float32', [n, n]));
  const prog = await Program.compile(g, { y });
  const feeds = { a: randn([n, n]), b: randn([n, n]) };
  const t = await time(() => prog.run(feeds), runs);
  await prog.release();
  const peak = gflops(2 * n ** 3, t.best);
  console.log(`matmul           [${n}×${n}]·[${n}×${n}]  ${t.best.toFixed(1)} ms  ${peak.toFixed(1)} GFLOP/s (median run ${t.median.toFixed(1)} ms)`);
  return peak;
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

async function trainStep(w: Workload, optimizer: 'graph' | 'host', runs: number): Promise<Timing> {
  const { g, loss, feeds } = w.build();
  const trainer = await Trainer.create(g, loss, { schedule: { base: 1e-4 }, optimizer, clipNorm: 1 });
  const t = await time(() => trainer.step(feeds), runs);
  await trainer.release();
  return t;
}

function report(w: Workload, label: string, t: Timing, peak?: number): void {
  const achieved = gflops(3 * w.forwardFlops, t.best);
  const ratio = peak ? `  ${((100 * achieved) / peak).toFixed(0)}% of peak` : '';
  console.log(`${label.padEnd(16)} ${w.name}: ${t.best.toFixed(1)} ms/step (median ${t.median.toFixed(1)})  ${achieved.toFixed(1)} GFLOP/s${ratio}`);
}

/** Gradient step with parameters fed each run vs baked into the model as initializers. */
async function residency(w: Workload, runs: number): Promise<void> {
  const { g, loss, feeds } = w.build();
  const params = [...g.params.values()];
  const outs: Record<string, Value> = { loss };
  grad(loss, params.map((p) => p.value)).forEach((gr, i) => (outs[`g${i}`] = gr));
  const values = new Map(params.map((p) => [p.value.name, p.init]));
  const fed = await Program.compile(g, outs);
  const baked = await Program.compile(g, outs, { bake: values });
  const tf = await time(() => fed.run({ ...feeds, ...Object.fromEntries(values) }), runs);
  const tb = await time(() => baked.run(feeds), runs);
  const mb = params.reduce((a, p) => a + p.init.data.length * 4, 0) / 2 ** 20;
  console.log(`residency        ${w.name} (${mb.toFixed(0)} MiB params): fed ${tf.best.toFixed(1)} ms, resident ${tb.best.toFixed(1)} ms → saves ${(tf.best - tb.best).toFixed(1)} ms/step`);
  await fed.release();
  await baked.release();
}

export default async function nnBench(args: string[]): Promise<void> {
  const runs = args.includes('--quick') ? 3 : 8;
  const peak = Math.max(await matmulPeak(1024, runs * 2), await matmulPeak(2048, runs));
  console.log(`matmul peak      ${peak.toFixed(1)} GFLOP/s`);
  const mlp = mlpWorkload(1024, 1024, 4096);
  const enc = encoderWorkload(16, 128, 512, 8, 2048);
  const lstm = bilstmWorkload(32, 32, 256, 256);
  const best = { graph: Infinity, host: Infinity };
  for (const opt of ['graph', 'host'] as const) {
    const t = await trainStep(mlp, opt, runs);
    best[opt] = t.best;
    report(mlp, `step (AdamW ${opt})`, t, peak);
  }
  console.log(`adamw            in-graph ${best.graph.toFixed(1)} ms vs host loop ${best.host.toFixed(1)} ms per MLP step → ${best.graph <= best.host ? 'in-graph' : 'host'} is faster`);
  report(enc, 'step (AdamW graph)', await trainStep(enc, 'graph', runs), peak);
  const tl = await trainStep(lstm, 'graph', runs);
  report(lstm, 'step (AdamW graph)', tl);
  console.log(`bilstm           ${tl.best.toFixed(1)} ms/step (target ≤ 100 ms)`);
  await residency(mlp, runs);
}
