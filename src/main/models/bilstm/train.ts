// Training the neural aligner: pairs are grouped into length buckets (vocab.ts bucketOf),
// each bucket's graph is compiled once into a Trainer on first use, and all Trainers share
// one set of parameters and AdamW moments (their state maps are the same objects, updated
// in place by the host optimiser), so batches of any bucket advance one model.
// Training graphs have a static batch dimension (makeBatches fills every batch): onnxruntime
// spends most of a session's build on a symbolic batch. T 48's training graph (5k en–de
// pairs' vocabulary) built in 5.0–7.2 s with the batch symbolic, 1.4 s with it fixed at 32.
// Pairs with gold links are repeated `goldRepeat` times per epoch so that a few dozen
// corrected pairs weigh against thousands of unsupervised ones. Rare input words are
// dropped to the unknown word now and then (word-dropout.ts).
import { cloneTensor, Rng, type Tensor, Trainer } from '../../nn/index.ts';
import type { LinkClassifier } from './link-classifier.ts';
import { buildNetwork, type NetworkOptions } from './network.ts';
import type { ModelDims } from './encoder-decoder.ts';
import { batchFeeds, bucketOf, buildVocab, type NeuralVocab, type PairLinks, sideSize } from './vocab.ts';
import { grownParams, grownVocab } from './vocab-growth.ts';
import { dropWords, wordCounts } from './word-dropout.ts';
import { defaultEpochs } from '../../../shared/epochs.ts';
import { BILSTM_DEFAULTS } from '../../../shared/methods.ts';
import type { DeviceSetting, DeviceUse } from '../../../shared/device-settings.ts';
import { deviceSetting } from '../../nn/devices.ts';

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

// lr 5e-3 over 40 epochs beat 3e-3 over 20 on ro-en 248 (AER 0.541 vs 0.629, gdfa); the loss
// was still falling at 40 epochs, so small corpora want more epochs than the default.
// 5k en-de news pairs (23 tokens a sentence) × 20 epochs: see `npm run bench -- neural --speed 5000`.
// Without `epochs` in its config, trainNeural trains defaultEpochs(pairs) (shared/epochs.ts:
// 20 from 1,000 pairs on, up to 80 below); DEFAULT_CONFIG's 20 is for callers spelling it out.
// The options a user can set default to BILSTM_DEFAULTS (shared/methods.ts); the rest are the model's own.
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

/** Objective weights (base / AWP / WTR) used when gold links are given (see BILSTM_DEFAULTS). */
export const SUPERVISED_WEIGHTS = D.supervisedWeights;

export interface TrainData {
  src: readonly string[][];
  tgt: readonly string[][];
  gold?: readonly PairLinks[];
  rejected?: readonly PairLinks[];
}

export interface NeuralModel {
  config: NeuralConfig;
  vocab: NeuralVocab;
  dims: ModelDims;
  params: Map<string, Tensor>;
  /** the link decision learned from held-out gold links (aligner.ts), if any was */
  decision?: LinkClassifier;
}

export interface TrainHooks {
  /** after each optimiser step: its global index (0-based), loss, and its MatMul FLOPs on request (the bench's share of the peak) */
  onStep?: (step: number, loss: number, flops: () => number) => void;
  /** after each epoch (0-based) with its mean loss and the model as it stands (parameters are live: copy to keep) */
  onEpoch?: (epoch: number, meanLoss: number, model: NeuralModel) => void | Promise<void>;
  signal?: AbortSignal;
  /** once the first session opened: the device asked for and the provider that runs the training */
  onDevice?: (use: DeviceUse) => void;
  /** as each length bucket's session is ready: its length and how long it took to build (the bench reports memory per bucket) */
  onBucket?: (T: number, buildMs: number) => void;
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
 * than running beside them: on 5k en–de pairs the six buckets' builds (0.7–1.8 s each with
 * the static batch, 1–11 s before) are 6.9 s of the first epoch's 32.8 s; later epochs take
 * 24–34 s.
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
    private readonly start?: ReadonlyMap<string, Tensor>,
    private readonly hooks: Pick<TrainHooks, 'onDevice' | 'onBucket' | 'signal'> = {},
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
        if (this.released || this.hooks.signal?.aborted) throw new Error(`bucket ${T} dropped: training ended`);
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

/** `p`, or a rejection ('cancelled') as soon as `signal` aborts: a cancel need not wait for the sessions queued before a batch's bucket. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('cancelled'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Trains a model on `data`: from scratch, or continuing from `start` (a saved model: its
 * dimension, parameters and vocabulary are kept, the vocabulary grown by the words of `data`
 * it lacks (vocab-growth.ts); the optimiser starts afresh).
 */
export async function trainNeural(
  data: TrainData,
  config: Partial<NeuralConfig> = {},
  hooks: TrainHooks = {},
  start?: NeuralModel,
): Promise<NeuralModel> {
  const c = {
    ...DEFAULT_CONFIG,
    epochs: defaultEpochs(data.src.length),
    ...config,
    ...(start ? { dim: start.dims.dim, maxSubwords: start.vocab.maxSubwords } : {}),
  };
  const vocab = start ? grownVocab(start.vocab, data.src, data.tgt) : buildVocab(data.src, data.tgt, c.merges, c.maxSubwords);
  const dims = modelDims(vocab, c.dim);
  const rng = new Rng(c.seed + 1);
  const dropRng = new Rng(c.seed + 2);
  const counts = { s: wordCounts(vocab.src, data.src), t: wordCounts(vocab.tgt, data.tgt) };
  const perEpoch = makeBatches(data, c, new Rng(c.seed)).length;
  const trainers = new BucketTrainers(
    dims,
    c,
    Math.max(1, perEpoch * c.epochs),
    start && grownParams(start.params, start.dims, dims),
    hooks,
  );
  let step = 0;
  try {
    for (let epoch = 0; epoch < c.epochs; epoch++) {
      let total = 0;
      const batches = makeBatches(data, c, rng);
      if (epoch === 0) firstShortest(batches);
      for (const b of batches) {
        const t = await untilAborted(trainers.get(b.T), hooks.signal);
        if (step === 0) trainers.prefetch([...new Set(batches.map((x) => x.T))]);
        t.state.step = step++;
        const pick = <X>(xs: readonly X[] | undefined) => (xs ? b.idx.map((k) => xs[k]) : undefined);
        const feeds = batchFeeds(
          vocab,
          { src: pick(data.src)!, tgt: pick(data.tgt)!, gold: pick(data.gold), rejected: pick(data.rejected) },
          b.T,
        );
        if (c.wordDropout > 0)
          for (const x of ['s', 't'] as const) dropWords(feeds[`${x}.ids`].data as BigInt64Array, counts[x], c.wordDropout, dropRng);
        const loss = await t.step(feeds);
        hooks.onStep?.(step - 1, loss, () => t.matmulFlops(feeds));
        total += loss;
      }
      await hooks.onEpoch?.(epoch, total / Math.max(1, batches.length), { config: c, vocab, dims, params: trainers.params });
    }
    return { config: c, vocab, dims, params: trainers.params };
  } finally {
    await trainers.release();
  }
}
