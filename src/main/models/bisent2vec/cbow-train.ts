// Bi-Sent2Vec training (seed 002, eq. 1–3): bilingual CBOW with negative sampling over the
// sentence pairs of a parallel corpus. For each kept word w_t of either side, two terms:
//   monolingual   ℓ(u_wt·h_mono) + Σ_{w'∈N} ℓ(−u_w'·h_mono),  h_mono = mean of V over the
//                 sentence's words (and bigrams, with config.bigrams) except w_t and the
//                 bigrams containing it (eq. 1);
//   cross-lingual ℓ(u_wt·h_cross) + Σ_{w'∈N} ℓ(−u_w'·h_cross), h_cross = mean of V over the
//                 translation's words (and bigrams) (eq. 2);
// ℓ(x) = log(1 + e^−x); N: `negatives` words of w_t's language drawn ∝ √count; w_t kept with
// probability min(1, √(t/f) + t/f) (f its relative frequency, t = `subsample`); plain SGD
// with a learning rate decaying linearly to 0 over the run (seed 002 "Implementation").
// Each step follows the exact gradient of its term (tests/unit/models/bisent2vec/gradient.test.ts
// checks it against finite differences): U rows of the target and negatives by −lr·∂ℓ/∂u;
// each context row by −lr·∂ℓ/∂h = −lr·|context|·∂ℓ/∂V_c, i.e. V's learning rate is |context|
// times U's, as fastText's CBOW updates its input rows; the plain gradient step on V trains
// far worse in the same epochs (docs/experiments.md).
//
// Hand-written Float32Array loops, not an ONNX graph (the one engine, docs/ARCHITECTURE.md): a step
// touches ~11 rows of U and a few dozen rows of V (≈ 10⁴ flops), and onnxruntime's per-run
// overhead dwarfs that (the same step as an nn/ graph is about 12× slower:
// docs/experiments.md). This loop trains ~125k words/s on one core without character
// n-grams, ~37k with 4-grams.
// PairsTrainer is the training of one thread, a chunk of pairs at a time: the fit loop
// (train/fit-loop.ts) runs its epochs here or, through parallel-train.ts, on several threads
// at once (Hogwild), and reports progress, checks cancel and saves checkpoints between chunks.
import type { Bisent2vecOptions } from '../../../shared/aligner-options.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import { type Checkpoints, fit } from '../../train/fit-loop.ts';
import { Rng } from '../../nn/init.ts';
import type { SavedModel } from '../../align/statistical-model.ts';
import { buildVocab, type EncodedSentence, encodeSentence, indexVocab, type Side, type VocabIndex } from './ngram-vocab.ts';

/** The training's settings: Bi-Sent2Vec's options, defaults BISENT2VEC_DEFAULTS (shared/aligner-defaults.ts). */
export type Bisent2vecConfig = Bisent2vecOptions;

export interface Bisent2vecModel {
  config: Bisent2vecConfig;
  index: VocabIndex;
  /** output (target word) vectors [wordRows, dim] */
  U: Float32Array;
  /** input (context n-gram) vectors [rows, dim]: the word and sentence embeddings */
  V: Float32Array;
  /** decision thresholds found on held-out pairs of the training corpus (curation.ts) */
  thresholds?: CurationThresholds;
  /** IBM1 tables trained on the same pairs, for curation scores when config.lexicalWeight > 0 (curation.ts) */
  lexicon?: SavedModel;
}

/** Margin thresholds (eval/margin.ts): propose a mined pair from `mining` up; flag a pair under `flagging`. */
export interface CurationThresholds {
  mining: number;
  flagging: number;
}

export interface TrainWork {
  /** progress every CHUNK_PAIRS pairs (a step of the fit loop: steps done over all epochs, the fit loop's line of epoch, mean loss, speed) and cancel; default silent */
  ctx?: JobContext;
  /** worker threads to train on (parallel-train.ts); default 1, this thread */
  threads?: number;
  /** models saved (and scored) between epochs, every `every` epochs and after the last */
  checkpoints?: Checkpoints<Bisent2vecModel>;
}

/** Pairs a thread trains between two of the fit loop's cancel checks and progress events. */
export const CHUNK_PAIRS = 512;

export interface TrainStats {
  /** mean loss per term over the last epoch */
  loss: number;
  /** corpus tokens per second of training (vocabulary building excluded) */
  wordsPerSecond: number;
  /** SGD steps taken (one per term: two per kept target word) */
  steps: number;
}

/** Training runs in float32; the gradient test runs the same step in float64. */
type Floats = Float32Array | Float64Array;

/**
 * One SGD step on one term: h = mean of V over ctx[0..n), loss ℓ(u_target·h) + Σ ℓ(−u_neg·h),
 * U and V updated by −lr × the gradient. Returns the loss before the step. `h` and `gradH`
 * are scratch rows of length dim. Negatives must differ from the target (each row is read
 * before it is written, so the step is the exact gradient).
 */
export function cbowStep(
  U: Floats,
  V: Floats,
  dim: number,
  ctx: Int32Array,
  n: number,
  target: number,
  negs: Int32Array,
  nNeg: number,
  lr: number,
  h: Floats,
  gradH: Floats,
): number {
  h.fill(0);
  gradH.fill(0);
  for (let c = 0; c < n; c++) {
    const o = ctx[c] * dim;
    for (let t = 0; t < dim; t++) h[t] += V[o + t];
  }
  const inv = 1 / n;
  for (let t = 0; t < dim; t++) h[t] *= inv;
  let loss = 0;
  for (let r = -1; r < nNeg; r++) {
    const w = r < 0 ? target : negs[r];
    const label = r < 0 ? 1 : 0;
    const o = w * dim;
    let s = 0;
    for (let t = 0; t < dim; t++) s += U[o + t] * h[t];
    // ℓ(s) for the target, ℓ(−s) for a negative; g = ∂loss/∂s = σ(s) − label.
    const z = label ? -s : s;
    loss += z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
    const g = 1 / (1 + Math.exp(-s)) - label;
    const step = lr * g;
    for (let t = 0; t < dim; t++) {
      gradH[t] += g * U[o + t];
      U[o + t] -= step * h[t];
    }
  }
  // V rows move by lr × ∂ℓ/∂h, not lr × ∂ℓ/∂h / |context| (see the header).
  for (let c = 0; c < n; c++) {
    const o = ctx[c] * dim;
    for (let t = 0; t < dim; t++) V[o + t] -= lr * gradH[t];
  }
  return loss;
}

/** Rows of eq. 1's context for the word at position p: every kept n-gram but p, its character n-grams and the bigrams containing it. */
export function monoContext(s: EncodedSentence, p: number, out: Int32Array): number {
  let n = 0;
  for (let q = 0; q < s.words.length; q++) if (q !== p && s.words[q] >= 0) out[n++] = s.words[q];
  for (let q = 0; q < s.bigrams.length; q++) if (q !== p && q !== p - 1 && s.bigrams[q] >= 0) out[n++] = s.bigrams[q];
  for (let c = 0; c < s.charStart[p]; c++) out[n++] = s.chars[c];
  for (let c = s.charStart[p + 1]; c < s.chars.length; c++) out[n++] = s.chars[c];
  return n;
}

/** Rows of eq. 2's context: every kept n-gram of the translation. */
export function crossContext(s: EncodedSentence, out: Int32Array): number {
  let n = 0;
  for (const r of s.words) if (r >= 0) out[n++] = r;
  for (const r of s.bigrams) if (r >= 0) out[n++] = r;
  for (const r of s.chars) out[n++] = r;
  return n;
}

const TABLE_SIZE = 1 << 20;

/** Negative-sampling table of one side: word rows repeated ∝ √count (seed 002). */
function negativeTable(index: VocabIndex, side: Side): Int32Array {
  const from = index.offsets.words[side];
  const n = index.vocab.words[side].length;
  const table = new Int32Array(TABLE_SIZE);
  if (n === 0) return table.fill(-1);
  let total = 0;
  for (let i = 0; i < n; i++) total += Math.sqrt(index.vocab.counts[from + i]);
  let i = 0,
    cum = Math.sqrt(index.vocab.counts[from]) / total;
  for (let a = 0; a < TABLE_SIZE; a++) {
    table[a] = from + i;
    if ((a + 1) / TABLE_SIZE > cum && i < n - 1) cum += Math.sqrt(index.vocab.counts[from + ++i]) / total;
  }
  return table;
}

/** Probability of keeping each word row as a target, min(1, √(t/f) + t/f). */
function keepProbabilities(index: VocabIndex, t: number): Float32Array {
  const keep = new Float32Array(index.wordRows);
  for (const side of [0, 1] as const) {
    const from = index.offsets.words[side],
      n = index.vocab.words[side].length;
    let tokens = 0;
    for (let i = 0; i < n; i++) tokens += index.vocab.counts[from + i];
    for (let i = 0; i < n; i++) {
      const r = t / (index.vocab.counts[from + i] / tokens);
      keep[from + i] = Math.min(1, Math.sqrt(r) + r);
    }
  }
  return keep;
}

/** A new model over the corpus' vocabulary: V uniform in ±1/dim, U zero (as fastText). */
export function initModel(src: readonly string[][], tgt: readonly string[][], config: Bisent2vecConfig): Bisent2vecModel {
  const index = indexVocab(buildVocab([src, tgt], config.minCount, config.bigrams, config.charN, config.maxVocab));
  const rng = new Rng(config.seed);
  const V = new Float32Array(index.rows * config.dim);
  for (let i = 0; i < V.length; i++) V[i] = (rng.next() * 2 - 1) / config.dim;
  return { config, index, U: new Float32Array(index.wordRows * config.dim), V };
}

/**
 * The training of one thread on the pairs (src[i], tgt[i]), updating `model` in place: an
 * epoch begins with a shuffle of the pairs, then chunks of CHUNK_PAIRS of them in order.
 * The learning rate decays over the thread's tokens of all epochs.
 */
export class PairsTrainer {
  private readonly enc: readonly [EncodedSentence[], EncodedSentence[]];
  private readonly tables: Int32Array[];
  private readonly keep: Float32Array;
  private readonly mono: Int32Array;
  private readonly cross: Int32Array;
  private readonly negs: Int32Array;
  private readonly h: Float32Array;
  private readonly gradH: Float32Array;
  private readonly rng: Rng;
  private readonly order: number[];
  private readonly total: number;
  /** corpus tokens of one epoch */
  readonly tokensPerEpoch: number;
  private processed = 0;
  private loss = 0;
  private terms = 0;
  private steps = 0;

  constructor(
    private readonly model: Bisent2vecModel,
    src: readonly string[][],
    tgt: readonly string[][],
  ) {
    const { dim, epochs, negatives, seed, subsample } = model.config;
    const index = model.index;
    this.enc = [src.map((s) => encodeSentence(index, 0, s)), tgt.map((s) => encodeSentence(index, 1, s))];
    this.tables = [negativeTable(index, 0), negativeTable(index, 1)];
    this.keep = keepProbabilities(index, subsample);
    const size = (e: EncodedSentence) => e.words.length + e.bigrams.length + e.chars.length;
    const longest = [...this.enc[0], ...this.enc[1]].reduce((a, e) => Math.max(a, size(e)), 1);
    this.mono = new Int32Array(longest);
    this.cross = new Int32Array(longest);
    this.negs = new Int32Array(negatives);
    this.h = new Float32Array(dim);
    this.gradH = new Float32Array(dim);
    this.rng = new Rng(seed + 1);
    this.tokensPerEpoch = src.reduce((a, s) => a + s.length, 0) + tgt.reduce((a, s) => a + s.length, 0);
    this.total = Math.max(1, epochs * this.tokensPerEpoch);
    this.order = Array.from(src, (_, i) => i);
  }

  /** Chunks of an epoch. */
  get chunks(): number {
    return Math.ceil(this.order.length / CHUNK_PAIRS);
  }

  /** Starts an epoch: the pairs in a new order, the epoch's loss from zero. */
  beginEpoch(): void {
    this.steps += this.terms;
    this.loss = 0;
    this.terms = 0;
    this.rng.shuffle(this.order);
  }

  /** Trains chunk `c` of the epoch (none past the last); returns its summed loss and its count of terms. */
  chunk(c: number): { loss: number; terms: number } {
    const { dim, lr, negatives } = this.model.config;
    const { U, V } = this.model;
    const { enc, tables, keep, mono, cross, negs, h, gradH, rng } = this;
    let loss = 0,
      terms = 0;
    for (let k = c * CHUNK_PAIRS; k < Math.min(this.order.length, (c + 1) * CHUNK_PAIRS); k++) {
      const pair = this.order[k];
      for (const side of [0, 1] as const) {
        const s = enc[side][pair];
        const nCross = crossContext(enc[1 - side][pair], cross);
        const table = tables[side];
        for (let p = 0; p < s.words.length; p++, this.processed++) {
          const target = s.words[p];
          if (target < 0 || rng.next() >= keep[target]) continue;
          const rate = lr * Math.max(0, 1 - this.processed / this.total);
          let nNeg = 0;
          // Bounded tries: a side whose vocabulary is one word has no negatives to draw.
          for (let tries = 0; nNeg < negatives && tries < 4 * negatives; tries++) {
            const w = table[(rng.next() * TABLE_SIZE) | 0];
            if (w !== target) negs[nNeg++] = w;
          }
          const nMono = monoContext(s, p, mono);
          if (nMono > 0) ((loss += cbowStep(U, V, dim, mono, nMono, target, negs, nNeg, rate, h, gradH)), terms++);
          if (nCross > 0) ((loss += cbowStep(U, V, dim, cross, nCross, target, negs, nNeg, rate, h, gradH)), terms++);
        }
      }
    }
    this.loss += loss;
    this.terms += terms;
    return { loss, terms };
  }

  /** The loss per term of the epoch so far (the last epoch's, once training ended) and the SGD steps taken. */
  stats(): { loss: number; steps: number } {
    return { loss: this.terms ? this.loss / this.terms : 0, steps: this.steps + this.terms };
  }
}

/** Trains `model` in place on the pairs (src[i], tgt[i]) for config.epochs epochs, on this thread. */
export async function trainModel(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  work: TrainWork = {},
): Promise<TrainStats> {
  const trainer = new PairsTrainer(model, src, tgt);
  const started = performance.now();
  await fit(
    {
      epochs: model.config.epochs,
      stepsPerEpoch: trainer.chunks,
      beginEpoch: () => trainer.beginEpoch(),
      step({ index }) {
        const { loss, terms } = trainer.chunk(index);
        return terms ? loss / terms : 0;
      },
      model: () => model,
    },
    work.ctx ?? silentContext(),
    { checkpoints: work.checkpoints },
  );
  const seconds = (performance.now() - started) / 1000;
  const wordsPerSecond = seconds > 0 ? (model.config.epochs * trainer.tokensPerEpoch) / seconds : 0;
  return { ...trainer.stats(), wordsPerSecond };
}
