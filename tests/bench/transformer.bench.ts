// `npm run bench -- transformer [--layers 12] [--hidden 768] [--heads 12] [--ff 3072]
//                               [--batch 8] [--lens 32,64] [--runs 4] [--skip-training]`
// A BERT-base-shaped encoder (random weights; the graph models/transformer builds from a
// Hugging Face folder, encoder-graph.ts) on this machine's CPU, so users without a GPU know
// what to expect: forward passes (the last hidden state) and full training steps (forward,
// backward through every layer, AdamW on every weight; the loss a mean square of the last
// hidden state, as cheap as any fine-tuning head) per second at each sequence length, with
// the MatMul FLOPs they do as a share of the MatMul peak measured in the same run (the best
// of a [1024×1024]² and a [2048×2048]² product, each timed in turns with the encoder's runs:
// nn.bench.ts interleaved). FLOPs per layer and
// token: Q, K, V and output projections 8·H², the feed-forward 4·H·F, attention 4·T·H; a
// training step does three times the forward's.
import { benchOptions, numberList, numberOption } from './bench-options.ts';
import { parseEncoderConfig, firstPosition } from '../../src/main/models/transformer/hf-config.ts';
import { encoderParamShapes } from '../../src/main/models/transformer/hf-weights.ts';
import { ATTENTION_MASK, buildEncoderGraph, INPUT_IDS, POSITION_IDS } from '../../src/main/models/transformer/encoder-graph.ts';
import { constantInit, normalInit, Rng } from '../../src/main/nn/init.ts';
import { mul, reduceMean } from '../../src/main/nn/ops/all-ops.ts';
import { Program } from '../../src/main/nn/session.ts';
import { int64s, type Tensor } from '../../src/main/nn/tensor.ts';
import { Trainer } from '../../src/main/nn/trainer.ts';
import { gflops, interleaved, matmulJob } from './nn.bench.ts';

const VOCAB = 8000;

export default async function transformerBench(args: string[]): Promise<void> {
  const o = benchOptions('transformer', args, {
    layers: { type: 'string', default: '12' },
    hidden: { type: 'string', default: '768' },
    heads: { type: 'string', default: '12' },
    ff: { type: 'string', default: '3072' },
    batch: { type: 'string', default: '8' },
    lens: { type: 'string', default: '32,64' },
    runs: { type: 'string', default: '4' },
    'skip-training': { type: 'boolean', default: false },
  });
  if (!o) return;
  const [L, H, heads, F] = (['layers', 'hidden', 'heads', 'ff'] as const).map((n) => numberOption(n, o[n])!);
  const B = numberOption('batch', o.batch)!;
  const lens = numberList('lens', o.lens);
  const runs = numberOption('runs', o.runs)!;
  const config = parseEncoderConfig(
    {
      model_type: 'bert',
      hidden_size: H,
      num_hidden_layers: L,
      num_attention_heads: heads,
      intermediate_size: F,
      vocab_size: VOCAB,
      max_position_embeddings: 512,
      type_vocab_size: 2,
      hidden_act: 'gelu',
      layer_norm_eps: 1e-12,
    },
    'transformer bench',
  );
  const rng = new Rng(1);
  const weights = new Map<string, Tensor>();
  for (const [name, shape] of encoderParamShapes(config))
    weights.set(name, name.endsWith('LayerNorm.weight') ? constantInit(shape, 1) : normalInit(rng, shape, 0.02));
  const params = [...weights.values()].reduce((n, t) => n + t.data.length, 0);
  console.log(`encoder: ${L} layers, hidden ${H}, ${heads} heads, feed-forward ${F}, ${(params / 1e6).toFixed(0)}M parameters; batch ${B}`);
  const mm = await matmulJob(1024),
    mm2 = await matmulJob(2048);
  for (const T of lens) {
    const feeds = {
      [INPUT_IDS]: int64s(
        Array.from({ length: B * T }, (_, i) => 5 + ((i * 7919) % (VOCAB - 5))),
        [B, T],
      ),
      [ATTENTION_MASK]: int64s(new Array<number>(B * T).fill(1), [B, T]),
      [POSITION_IDS]: int64s(
        Array.from({ length: B * T }, (_, i) => firstPosition(config) + (i % T)),
        [B, T],
      ),
    };
    const flops = B * T * L * (8 * H * H + 4 * H * F + 4 * T * H);
    const { graph, hidden } = buildEncoderGraph(config, weights);
    const forward = await Program.compile(graph, { y: hidden[L] });
    const fed = { ...feeds, ...Object.fromEntries(weights) };
    const jobs = [mm.run, mm2.run, () => forward.run(fed)];
    let trainer: Trainer | null = null;
    if (!o['skip-training']) {
      const g = buildEncoderGraph(config, weights);
      const y = g.hidden[L];
      trainer = await Trainer.create(g.graph, reduceMean(mul(y, y)), { schedule: { base: 1e-5 }, clipNorm: 1 });
      const t = trainer;
      jobs.push(() => t.step(feeds));
    }
    const [peak, peak2, fwd, step] = await interleaved(jobs, runs, 1);
    const p = Math.max(gflops(mm.flops, peak.best), gflops(mm2.flops, peak2.best));
    const line = (what: string, t: { best: number }, f: number) =>
      `  ${what} ${(1000 / t.best).toFixed(2)}/s (${t.best.toFixed(0)} ms), ${gflops(f, t.best).toFixed(1)} GFLOP/s = ${((100 * gflops(f, t.best)) / p).toFixed(0)}% of the MatMul peak`;
    console.log(`sequence ${T} (MatMul peak ${p.toFixed(1)} GFLOP/s in this run):`);
    console.log(line('forward', fwd, flops));
    if (step) console.log(line('training step', step, 3 * flops));
    await forward.release();
    await trainer?.release();
  }
  await mm.release();
  await mm2.release();
}
