// Training the neural aligner: pairs are grouped into length buckets (vocab-batches.ts bucketOf),
// each bucket's graph is compiled once into a Trainer on first use, and all Trainers share
// one set of parameters and AdamW moments (their state maps are the same objects, updated
// in place by the host optimiser), so batches of any bucket advance one model.
// Training graphs have a static batch dimension (makeBatches fills every batch): onnxruntime
// spends most of a session's build on a symbolic batch (a static one builds about four times
// faster: docs/experiments.md).
// Pairs with gold links are repeated `goldRepeat` times per epoch so that a few dozen
// corrected pairs weigh against thousands of unsupervised ones. Rare input words are
// dropped to the unknown word now and then (word-dropout.ts). The epochs run in the fit loop
// (train/fit-loop.ts): this file draws each epoch's batches and takes a step; the loop
// reports progress, checks cancel, saves and scores checkpoints.
import { cloneTensor, Rng, type Tensor, Trainer } from '../../nn/index.ts';
import type { LinkClassifier } from './link-classifier.ts';
import { buildNetwork, type NetworkOptions } from './network.ts';
import type { ModelDims } from './encoder-decoder.ts';
import { batchFeeds, bucketOf, buildVocab, type NeuralVocab, sideSize } from './vocab-batches.ts';
import type { CorpusLinks } from '../../../shared/link-set.ts';
import { grownParams, grownVocab } from './vocab-growth.ts';
import { dropWords, wordCounts } from './word-dropout.ts';
import { defaultEpochs } from '../../../shared/epochs.ts';
import { BILSTM_DEFAULTS, BILSTM_SUPERVISED_WEIGHTS } from '../../../shared/aligner-defaults.ts';
import type { DeviceSetting, DeviceUse } from '../../../shared/device-settings.ts';
import { deviceSetting } from '../../nn/devices.ts';
import { silentContext, type JobContext } from '../../jobs/job-context.ts';
import { abortable, fit, type FitOptions } from '../../train/fit-loop.ts';

export interface NeuralConfig extends NetworkOptions {
  dim: number;
  epochs: number;
  batchSize: number;
  lr: number;
  merges: number;
  maxSubwords: number;
  /** longer sentences are cut to this length for training */
  maxLength: number;
  goldRepeat: number;
  /** α of the frequency-based word dropout (word-dropout.ts); 0 = off */
  wordDropout: number;
  /** epochs of self-training that followed (method.ts): recorded on a saved model, not read by training */
  selfTrainEpochs?: number;
  threads?: number;
  /** where training and embedding sessions run (default: MEKONG_NN_DEVICE, else auto); not a property of the model, so not saved with it */
  device?: DeviceSetting;
}

// lr 5e-3: on a small corpus it trains a better model than 3e-3 in as many pair-passes, and
// the loss still falls at 40 epochs, so small corpora get more epochs (shared/epochs.ts).
// Other rates, sizes and the training speed: docs/experiments.md.
// Without `epochs` in its config, trainNeural trains defaultEpochs(pairs) (shared/epochs.ts:
// 20 from 1,000 pairs on, up to 80 below); DEFAULT_CONFIG's 20 is for callers spelling it out.
// The options a user can set default to BILSTM_DEFAULTS (shared/aligner-defaults.ts); the rest are the model's own.
const D = BILSTM_DEFAULTS;
export const DEFAULT_CONFIG: NeuralConfig = {
  dim: D.dim,
  epochs: D.epochs,
  batchSize: D.batchSize,
  lr: D.lr,
  merges: 2000,
  maxSubwords: 6,
  maxLength: 64,
  goldRepeat: 4,
  wordDropout: D.wordDropout,
  temperature: D.temperature,
  negatives: 'inter+intra',
  pooling: 'mean',
  ctlWeight: D.ctlWeight,
  wordTemperature: 0.1,
  weights: { ...D.weights },
  seed: 1,
};

/** Objective weights (base / AWP / WTR) used when gold links are given (BILSTM_SUPERVISED_WEIGHTS). */
export const SUPERVISED_WEIGHTS = BILSTM_SUPERVISED_WEIGHTS;

export interface TrainData {
  src: readonly string[][];
  tgt: readonly string[][];
  gold?: CorpusLinks;
  rejected?: CorpusLinks;
}

export interface NeuralModel {
  config: NeuralConfig;
  vocab: NeuralVocab;
  dims: ModelDims;
  params: Map<string, Tensor>;
  /** the link decision learned from held-out gold links (aligner.ts), if any was */
  decision?: LinkClassifier;
}

/**
 * How a training runs: its job context (progress, cancel), checkpoints and events (the fit
 * loop's, train/fit-loop.ts), and what only this family reports.
 */
export interface NeuralTraining extends FitOptions<NeuralModel> {
  ctx?: JobContext;
  /** once the first session opened: the device asked for and the provider that runs the training */
  onDevice?: (use: DeviceUse) => void;
  /** as each length bucket's session is ready: its length and how long it took to build (the bench reports memory per bucket) */
  onBucket?: (T: number, buildMs: number) => void;
  /** after each step: its index in the fit (0-based), its MatMul FLOPs on request and where its time went (the bench's share of the peak) */
  onFlops?: (step: number, flops: () => number, ms: Trainer['lastStepMs']) => void;
}

export function modelDims(v: NeuralVocab, dim: number): ModelDims {
  return { dim, srcVocab: sideSize(v.src), tgtVocab: sideSize(v.tgt), subwords: v.subwordCount, maxSubwords: v.maxSubwords };
}

/**
 * Batches of exactly `c.batchSize` pair indices, each within one length bucket, in a shuffled
 * order. A bucket with fewer entries than a batch joins the next longer bucket (its pairs fit
 * there, padded further); the longest, if still short, takes in the next shorter one. A
 * bucket's last, partial batch is filled with entries drawn at random from the rest of its
 * bucket, so those few pairs are seen twice in that epoch; only a corpus smaller than one
 * batch repeats pairs inside a batch.
 */
export function makeBatches(data: TrainData, c: NeuralConfig, rng: Rng): { T: number; idx: number[] }[] {
  const B = c.batchSize;
  const byBucket = new Map<number, number[]>();
  data.src.forEach((s, k) => {
    if (!s.length || !data.tgt[k].length) return;
    const T = bucketOf(Math.min(c.maxLength, Math.max(s.length, data.tgt[k].length)));
    const reps = data.gold?.[k]?.length ? c.goldRepeat : 1;
    for (let r = 0; r < reps; r++) (byBucket.get(T) ?? byBucket.set(T, []).get(T)!).push(k);
  });
  const out: { T: number; idx: number[] }[] = [];
  const ascending = [...byBucket].sort((a, b) => a[0] - b[0]);
  for (const [T, ks] of atLeastOneBatch(ascending, B)) {
    rng.shuffle(ks);
    // after the shuffle, the first entries are a random draw from those outside the last batch
    for (let i = 0; i < ks.length; i += B) {
      const idx = ks.slice(i, i + B);
      for (let j = 0; idx.length < B; j++) idx.push(ks[j % ks.length]);
      out.push({ T, idx });
    }
  }
  return rng.shuffle(out);
}

/** Buckets (ascending length) merged upwards until each holds at least `B` entries, or one is left. */
function atLeastOneBatch(buckets: [number, number[]][], B: number): [number, number[]][] {
  const out: [number, number[]][] = [];
  let carry: number[] = [];
  for (const [T, ks] of buckets) {
    carry = carry.length ? carry.concat(ks) : ks;
    if (carry.length < B) continue;
    out.push([T, carry]);
    carry = [];
  }
  if (carry.length) {
    const T = buckets[buckets.length - 1][0];
    out.push([T, (out.pop()?.[1] ?? []).concat(carry)]);
  }
  return out;
}

/**
 * Moves a batch of the shortest bucket to the front (the rest keep their order): the first
 * step then waits only for the cheapest session to compile. On the bundled sample (265
 * long pairs) the first step came 6.1 s after the start; the other buckets compile after
 * it (BucketTrainers.prefetch).
 */
export function firstShortest(batches: { T: number }[]): void {
  let k = 0;
  for (let i = 1; i < batches.length; i++) if (batches[i].T < batches[k].T) k = i;
  batches.unshift(...batches.splice(k, 1));
}

/**
 * One Trainer per bucket length, compiled on first use; `prefetch` queues the others, in the
 * order the epoch will need them, one at a time, between the first steps. onnxruntime-node
 * builds a session on the calling thread, so a build holds up the steps while it runs rather
 * than running beside them: on 5k en–de pairs the six buckets' builds are about a fifth of
 * the first epoch (docs/experiments.md).
 */
class BucketTrainers {
  private readonly trainers = new Map<number, Promise<Trainer>>();
  private first: Trainer | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** set by release: compilations queued but not begun are dropped */
  private released = false;
  constructor(
    private readonly dims: ModelDims,
    private readonly c: NeuralConfig,
    private readonly totalSteps: number,
    private readonly signal: AbortSignal,
    private readonly start?: ReadonlyMap<string, Tensor>,
    private readonly hooks: Pick<NeuralTraining, 'onDevice' | 'onBucket'> = {},
  ) {}

  get(T: number): Promise<Trainer> {
    let t = this.trainers.get(T);
    if (!t) this.trainers.set(T, (t = this.create(T)));
    return t;
  }

  /** Queues the sessions of `lengths` to compile, in that order, after the one under way (a failure surfaces when that bucket is used). */
  prefetch(lengths: readonly number[]): void {
    for (const T of lengths) {
      if (this.trainers.has(T)) continue;
      const next = this.queue.then(async () => {
        // a turn of the event loop first: timers held up by the last build (a worker's cancel poll) run, and may end the training
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (this.released || this.signal.aborted) throw new Error(`bucket ${T} dropped: training ended`);
        return this.create(T);
      });
      this.trainers.set(T, next);
      this.queue = next.catch(() => undefined);
    }
  }

  private async create(T: number): Promise<Trainer> {
    const started = performance.now();
    const net = buildNetwork(T, this.c.batchSize, this.dims, this.c);
    const schedule = {
      base: this.c.lr,
      warmup: Math.min(100, this.totalSteps / 10),
      total: this.totalSteps,
      decay: 'linear' as const,
      minRatio: 0.05,
    };
    const t = await Trainer.create(net.graph, net.loss, {
      schedule,
      clipNorm: 5,
      weightDecay: 0,
      device: this.c.device,
      threads: this.c.threads,
    });
    if (this.first) Object.assign(t.state, { params: this.first.state.params, m: this.first.state.m, v: this.first.state.v });
    else {
      this.first = t;
      this.hooks.onDevice?.({ requested: deviceSetting(this.c.device), used: t.device });
      for (const [name, p] of this.start ?? []) if (t.state.params.has(name)) t.state.params.set(name, cloneTensor(p));
    }
    this.hooks.onBucket?.(T, performance.now() - started);
    return t;
  }

  get params(): Map<string, Tensor> {
    return this.first!.state.params;
  }

  /** Releases every compiled session, once the compilation under way (if any) ends: a cancelled run does not wait for the queued ones. */
  async release(): Promise<void> {
    this.released = true;
    for (const pending of this.trainers.values()) {
      const t = await pending.catch(() => null);
      await t?.release();
    }
  }
}

/**
 * Trains a model on `data`: from scratch, or continuing from `start` (a saved model: its
 * dimension, parameters and vocabulary are kept, the vocabulary grown by the words of `data`
 * it lacks (vocab-growth.ts); the optimiser starts afresh).
 */
export async function trainNeural(
  data: TrainData,
  config: Partial<NeuralConfig> = {},
  training: NeuralTraining = {},
  start?: NeuralModel,
): Promise<NeuralModel> {
  const c = {
    ...DEFAULT_CONFIG,
    epochs: defaultEpochs(data.src.length),
    ...config,
    ...(start ? { dim: start.dims.dim, maxSubwords: start.vocab.maxSubwords } : {}),
  };
  const ctx = training.ctx ?? silentContext();
  const vocab = start ? grownVocab(start.vocab, data.src, data.tgt) : buildVocab(data.src, data.tgt, c.merges, c.maxSubwords);
  const dims = modelDims(vocab, c.dim);
  const rng = new Rng(c.seed + 1);
  const dropRng = new Rng(c.seed + 2);
  const counts = { s: wordCounts(vocab.src, data.src), t: wordCounts(vocab.tgt, data.tgt) };
  const perEpoch = stepsPerEpoch(data, c);
  const trainers = new BucketTrainers(
    dims,
    c,
    Math.max(1, perEpoch * c.epochs),
    ctx.signal,
    start && grownParams(start.params, start.dims, dims),
    training,
  );
  const model = (): NeuralModel => ({ config: c, vocab, dims, params: trainers.params });
  let batches: { T: number; idx: number[] }[] = [];
  try {
    await fit(
      {
        epochs: c.epochs,
        stepsPerEpoch: perEpoch,
        beginEpoch(epoch) {
          batches = makeBatches(data, c, rng);
          if (epoch === 0) firstShortest(batches);
        },
        async step({ index, step }) {
          const b = batches[index];
          const t = await abortable(trainers.get(b.T), ctx.signal);
          if (step === 0) trainers.prefetch([...new Set(batches.map((x) => x.T))]);
          t.state.step = step;
          const pick = <X>(xs: readonly X[] | undefined) => (xs ? b.idx.map((k) => xs[k]) : undefined);
          const feeds = batchFeeds(
            vocab,
            { src: pick(data.src)!, tgt: pick(data.tgt)!, gold: pick(data.gold), rejected: pick(data.rejected) },
            b.T,
          );
          if (c.wordDropout > 0)
            for (const x of ['s', 't'] as const) dropWords(feeds[`${x}.ids`].data as BigInt64Array, counts[x], c.wordDropout, dropRng);
          const loss = await t.step(feeds);
          training.onFlops?.(step, () => t.matmulFlops(feeds), t.lastStepMs);
          return loss;
        },
        model,
      },
      ctx,
      training,
    );
    return model();
  } finally {
    await trainers.release();
  }
}

/** Optimiser steps of one epoch on `data` (the same every epoch: the batches' count does not depend on their draw). */
export function stepsPerEpoch(data: TrainData, c: NeuralConfig): number {
  return makeBatches(data, c, new Rng(c.seed)).length;
}
