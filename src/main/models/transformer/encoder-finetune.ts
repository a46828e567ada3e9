// Fine-tuning a pretrained encoder (a Hugging Face folder, hf-encoder.ts) on a parallel text
// with the seeds' objectives (finetune-objectives.ts): the supervision links are found first
// (gold, else our aligner's confident links: finetune-supervision.ts; with soLabels
// 'recomputed' the aligner's are found again before each step by the encoder being trained,
// as awesome-align's self-training does, HfEncoder.over its current weights), then the encoder
// trains in the one training stack (nn/Trainer, AdamW with linear warm-up over the first 10%
// of steps and linear decay, the seeds' lr 5e-5, gradient norm clipped at 1) on the device
// asked for, and the result is saved as a Hugging Face folder (hf-checkpoint.ts). The papers'
// settings: sentences cut to `maxLength` subwords (whole words kept, [CLS]/[SEP] counted), a
// run of `maxSteps` optimiser steps, `accumulate` micro-batches of `batch` pairs per step (the
// Trainer sums their gradients, each weighted by its share of the step's pairs, so the
// per-pair terms AWP, WTR and RTL get exactly the gradient of one batch of batch × accumulate;
// TR's in-batch negatives stay those of its micro-batch), and dropout at the config's rates
// in training only (checkpoints are evaluated by graphs without it). The epochs
// run in the fit loop (train/fit-loop.ts), which reports progress, saves the caller's
// checkpoints and the last epoch's folder (`out`), and stops between steps on cancel
// (CancelledError), leaving no `out` folder behind.
import { keySet, type Link, linkKey, type LinkRef } from '../../../shared/link-set.ts';
import { defaultTrWeight, ENCODER_FINETUNE_DEFAULTS, finetuneEpochs } from '../../../shared/aligner-defaults.ts';
import { ENCODER_ALIGN_METHODS, type EncoderMethodName } from '../../../shared/methods.ts';
import { sentences, type Side } from '../../align/sentences.ts';
import { InputError, UserError } from '../../errors.ts';
import { type JobContext, silentContext, withMessage } from '../../jobs/job-context.ts';
import { type Checkpoints, fit, type FitEvent } from '../../train/fit-loop.ts';
import type { DeviceName, DeviceSetting } from '../../nn/devices.ts';
import { normalInit, Rng } from '../../nn/init.ts';
import { Trainer } from '../../nn/trainer.ts';
import type { Tensor } from '../../nn/tensor.ts';
import { batchFeeds, type FinetuneExample } from './finetune-batch.ts';
import { buildObjectiveGraph, MLM_HEAD_NAMES, type Objective, OBJECTIVE_DEFAULTS, OBJECTIVES } from './finetune-objectives.ts';
import { fineTuningLinks, recomputedLinks } from './finetune-supervision.ts';
import { checkOutputFolder, FINETUNE_FILE, poolerTensors, saveHfEncoder } from './hf-checkpoint.ts';
import { maxTokens, readEncoderConfig } from './hf-config.ts';
import { checkTokenizerFits, HfEncoder } from './hf-encoder.ts';
import { SubwordTokenizer } from './subword-tokenizer.ts';
import { encoderParamShapes, LANGUAGE_EMBEDDINGS, readEncoderWeights, readStored } from './hf-weights.ts';

export interface FinetuneOptions {
  /** the source Hugging Face folder (config.json, tokenizer.json, model.safetensors) */
  encoder: string;
  src: Side;
  tgt: Side;
  /** gold links per pair (null or empty: none for that pair) */
  gold?: readonly (readonly Link[] | null)[];
  /** links reviewers rejected, per pair */
  rejected?: readonly (readonly LinkRef[] | null)[];
  /** how errors name the gold and rejected links (e.g. their files; default "gold links", "rejected links") */
  linkSources?: { gold?: string; rejected?: string };
  /** the folder to write at the end */
  out: string;
  /** checkpoints before the last epoch's (which is `out`): saved and scored every `every` epochs; the last epoch's is scored too */
  checkpoints?: Checkpoints<FinetuneCheckpoint>;
  /** the fit loop's events: each step's loss, each epoch's mean loss, its objectives' terms and checkpoint */
  onEvent?: (e: FitEvent) => void | Promise<void>;
  objectives?: readonly Objective[];
  alpha?: number;
  beta?: number;
  gamma?: number;
  /** RTL's weight (DAP adds it at 1) */
  delta?: number;
  /** SO's weight (awesome-align adds it at 1) */
  epsilon?: number;
  epochs?: number;
  lr?: number;
  /** pairs per micro-batch (per step without accumulation) */
  batch?: number;
  /** subwords kept of a sentence, specials included (absent: the encoder's positions) */
  maxLength?: number;
  /** optimiser steps of the run; the epochs default to as many as they need */
  maxSteps?: number;
  /** micro-batches per optimiser step */
  accumulate?: number;
  /** dropout in training at the config's rates */
  dropout?: boolean;
  /** hidden state TR and WTR train (default: the last, as the seeds) */
  layer?: number;
  sentence?: 'cls' | 'mean';
  temperature?: number;
  rtlLayers?: number;
  rtlDirection?: 'src-to-tgt' | 'tgt-to-src';
  /** AWP's masked copies per sentence and batch */
  awpMasks?: number;
  /** aligner proposing the links of pairs without gold, and the probability they need */
  supervisionMethod?: EncoderMethodName;
  threshold?: number;
  /** those links found once before training ('fixed'), or again before each step by the encoder as it is then, for the step's pairs ('recomputed': awesome-align's self-training) */
  soLabels?: 'fixed' | 'recomputed';
  /** with recomputed labels, after they are found for a step (0-based): each of its pairs that learns from the aligner and its new links */
  onLabels?: (step: number, links: ReadonlyMap<number, readonly LinkRef[]>) => void;
  /** add seed 000 §6.1's language embeddings (source side, target side; N(0, 0.02) at the start) unless the encoder has them already; saved beside the bare model (hf-weights.ts LANGUAGE_FILE) */
  languageEmbeddings?: boolean;
  /** keep the word embeddings as they are (for XLM-R base 192M of its 278M parameters: no gradient, no AdamW moments for them) */
  freezeEmbeddings?: boolean;
  device?: DeviceSetting;
  threads?: number;
  seed?: number;
  log?: (line: string) => void;
  /** after each step: its index in the fit (0-based), its MatMul FLOPs on request and where its time went (the neural bench's share of the peak) */
  onFlops?: (step: number, flops: () => number, ms: Trainer['lastStepMs']) => void;
}

export interface EpochLosses {
  epoch: number;
  loss: number;
  terms: Partial<Record<Objective, number>>;
}

/** The encoder as it stands after an epoch: `save(dir)` writes it as a Hugging Face folder. */
export interface FinetuneCheckpoint {
  save(dir: string): void;
}

export interface FinetuneResult {
  out: string;
  device: DeviceName;
  steps: number;
  epochs: EpochLosses[];
  pairs: { gold: number; model: number; links: number; rejected: number };
  /** recomputed labels: how many times a pair's links were found again, and how many of those differed from its links before */
  labels: { recomputed: number; changed: number };
  /** sentences fed: the most subwords of one (specials included) and how many lost words to the cap (maxLength, else the encoder's positions) */
  subwords: { longest: number; truncated: number };
  /** the trained encoder weights (transformers' names), as saved */
  weights: Map<string, Tensor>;
}

function positive(name: string, v: number | undefined, integer: boolean, zeroOk = false): void {
  if (v === undefined) return;
  const ok = Number.isFinite(v) && (zeroOk ? v >= 0 : v > 0) && (!integer || Number.isInteger(v));
  if (!ok) throw new UserError(`${name} must be ${integer ? 'a whole number' : 'a number'} ${zeroOk ? '≥ 0' : '> 0'}, got ${v}`);
}

/** Checks the options that need no file (one line per mistake). */
export function checkFinetuneOptions(o: FinetuneOptions): void {
  for (const x of o.objectives ?? [])
    if (!(OBJECTIVES as readonly string[]).includes(x)) throw new UserError(`unknown objective "${x}" (${OBJECTIVES.join(', ')})`);
  if (o.objectives && !o.objectives.length) throw new UserError(`give at least one objective (${OBJECTIVES.join(', ')})`);
  for (const k of ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] as const) positive(k, o[k], false, true);
  for (const k of ['epochs', 'batch', 'rtlLayers', 'awpMasks', 'maxSteps', 'accumulate', 'maxLength'] as const) positive(k, o[k], true);
  positive('lr', o.lr, false);
  positive('temperature', o.temperature, false);
  if (o.threshold !== undefined && !(o.threshold >= 0 && o.threshold <= 1))
    throw new UserError(`threshold must be in [0, 1], got ${o.threshold}`);
  if (o.supervisionMethod && !(ENCODER_ALIGN_METHODS as readonly string[]).includes(o.supervisionMethod))
    throw new UserError(`unknown aligner "${o.supervisionMethod}" (${ENCODER_ALIGN_METHODS.join(', ')})`);
}

/** Checks the pairs against the links given for them. */
function checkLinks(
  S: ReturnType<typeof sentences>,
  T: ReturnType<typeof sentences>,
  what: string,
  all: readonly (readonly LinkRef[] | null)[] | undefined,
): void {
  if (!all) return;
  if (all.length !== S.length)
    throw new UserError(`${what}: has ${all.length} lines for ${S.length} sentence pairs; line counts must match`);
  all.forEach((links, k) => {
    for (const l of links ?? [])
      if (l.s >= S.size(k) || l.t >= T.size(k))
        throw new InputError(what, k + 1, `link ${l.s}-${l.t} is outside the pair (${S.size(k)} source, ${T.size(k)} target words)`);
  });
}

/** Fine-tunes `o.encoder` and writes the result to `o.out`. */
export async function finetuneEncoder(o: FinetuneOptions, ctx: JobContext = silentContext()): Promise<FinetuneResult> {
  checkFinetuneOptions(o);
  const config = readEncoderConfig(o.encoder);
  checkOutputFolder(o.out, o.encoder);
  const S = sentences(o.src),
    T = sentences(o.tgt);
  if (S.length !== T.length) throw new UserError(`${S.length} source sentences but ${T.length} target sentences`);
  if (!S.length) throw new UserError('no sentence pairs to fine-tune on');
  checkLinks(S, T, o.linkSources?.gold ?? 'gold links', o.gold);
  checkLinks(S, T, o.linkSources?.rejected ?? 'rejected links', o.rejected);
  const layer = o.layer ?? config.layers;
  if (!Number.isInteger(layer) || layer < 1 || layer > config.layers)
    throw new UserError(`layer ${layer} does not exist or has nothing to train: ${o.encoder} has layers 1 to ${config.layers}`);
  const objectives = o.objectives ?? OBJECTIVE_DEFAULTS.objectives;
  const rtlLayers = o.rtlLayers ?? OBJECTIVE_DEFAULTS.rtlLayers;
  if (objectives.includes('rtl') && rtlLayers > config.layers)
    throw new UserError(`RTL's head starts from the encoder's last ${rtlLayers} layers, but ${o.encoder} has ${config.layers}`);
  const B = o.batch ?? ENCODER_FINETUNE_DEFAULTS.batch;
  const K = o.accumulate ?? ENCODER_FINETUNE_DEFAULTS.accumulate;
  const log = o.log ?? console.info;

  const tokenizer = new SubwordTokenizer(o.encoder);
  checkTokenizerFits(tokenizer, config);
  const specials = tokenizer.prefix.length + tokenizer.suffix.length;
  if (o.maxLength !== undefined && o.maxLength <= specials)
    throw new UserError(`max length ${o.maxLength} leaves no room for a word beside the ${specials} special tokens of ${o.encoder}`);
  const cap = Math.min(o.maxLength ?? Infinity, maxTokens(config));
  const needsMask = objectives.includes('awp') || objectives.includes('rtl');
  if (needsMask && tokenizer.maskId === null) throw new UserError(`${tokenizer.file}: no [MASK] or <mask> token, which AWP and RTL need`);
  ctx.progress({ done: 0, total: S.length, message: 'finding supervision links' });
  const supervision = {
    method: o.supervisionMethod ?? ENCODER_FINETUNE_DEFAULTS.supervisionMethod,
    threshold: o.threshold ?? ENCODER_FINETUNE_DEFAULTS.threshold,
  };
  const pairs = await fineTuningLinks(
    () => HfEncoder.open(o.encoder, { backend: 'graph', device: o.device, threads: o.threads, log }),
    S,
    T,
    o.gold,
    o.rejected,
    { ...supervision, ctx: withMessage(ctx, 'finding supervision links') },
  );
  const examples: FinetuneExample[] = pairs.map((p, k) => ({
    src: tokenizer.encodeWords(S.tokens(k), cap),
    tgt: tokenizer.encodeWords(T.tokens(k), cap),
    links: p.links,
    rejected: p.rejected,
  }));
  const subwords = { longest: 0, truncated: 0 };
  for (const e of examples)
    for (const x of [e.src, e.tgt]) {
      subwords.longest = Math.max(subwords.longest, x.ids.length);
      if (x.cut) subwords.truncated++;
    }
  if (subwords.truncated && o.maxLength !== undefined) log(`fine-tuning: ${subwords.truncated} sentences cut to ${cap} subwords`);

  const read = readStored(o.encoder);
  const stored = read.stored;
  const weights = readEncoderWeights(o.encoder, config, read);
  if (o.languageEmbeddings && !weights.has(LANGUAGE_EMBEDDINGS))
    weights.set(LANGUAGE_EMBEDDINGS, normalInit(new Rng((o.seed ?? ENCODER_FINETUNE_DEFAULTS.seed) + 1), [2, config.hidden], 0.02));
  const prefix = ['', 'bert.', 'roberta.'].find((p) => stored.has(`${p}embeddings.word_embeddings.weight`)) ?? '';
  const unprefixed = new Map([...stored].filter(([k]) => k.startsWith(prefix)).map(([k, t]) => [k.slice(prefix.length), t]));
  const head = new Map<string, Tensor>();
  for (const [ours, theirs] of Object.entries(MLM_HEAD_NAMES)) {
    const t = theirs.map((n) => stored.get(n)).find(Boolean);
    if (t && t.type === 'float32') head.set(ours, t);
  }
  const pooler = poolerTensors(config, unprefixed);
  stored.clear();

  const cfg = {
    ...OBJECTIVE_DEFAULTS,
    objectives,
    alpha: defaultTrWeight(objectives),
    layer,
    rtlLayers,
    dropout:
      (o.dropout ?? ENCODER_FINETUNE_DEFAULTS.dropout)
        ? { hidden: config.hiddenDropout, attention: config.attentionDropout, seed: (o.seed ?? ENCODER_FINETUNE_DEFAULTS.seed) + 2 }
        : undefined,
    ...Object.fromEntries(
      (['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'sentence', 'temperature'] as const)
        .filter((k) => o[k] !== undefined)
        .map((k) => [k, o[k]]),
    ),
  };
  const built = buildObjectiveGraph(config, weights, cfg, head);
  const { epochs, stepsPerEpoch: perEpoch } = finetuneEpochs(examples.length, { ...o, batch: B, accumulate: K });
  const steps = Math.min(perEpoch * epochs, o.maxSteps ?? Infinity);
  const trainer = await Trainer.create(built.graph, built.loss, {
    schedule: { base: o.lr ?? ENCODER_FINETUNE_DEFAULTS.lr, warmup: Math.max(1, Math.round(steps / 10)), total: steps, decay: 'linear' },
    clipNorm: 1,
    weightDecay: 0.01,
    frozen: o.freezeEmbeddings ? ['embeddings.word_embeddings.weight'] : [],
    device: o.device,
    threads: o.threads,
    log,
    report: built.terms,
  });
  const rng = new Rng(o.seed ?? ENCODER_FINETUNE_DEFAULTS.seed);
  const history: EpochLosses[] = [];
  const batchOptions = {
    config,
    objectives,
    maskId: tokenizer.maskId,
    awpMasks: o.awpMasks ?? ENCODER_FINETUNE_DEFAULTS.awpMasks,
    rtlDirection: o.rtlDirection ?? ENCODER_FINETUNE_DEFAULTS.rtlDirection,
    rng,
  };
  const counts = {
    gold: pairs.filter((p) => p.from === 'gold').length,
    model: pairs.filter((p) => p.from === 'model').length,
    links: pairs.reduce((a, p) => a + p.links.length, 0),
    rejected: pairs.reduce((a, p) => a + p.rejected.length, 0),
  };
  const names = [...encoderParamShapes(config).keys(), ...(weights.has(LANGUAGE_EMBEDDINGS) ? [LANGUAGE_EMBEDDINGS] : [])];
  const trained = () => new Map(names.map((n) => [n, trainer.state.params.get(n)!]));
  const record = () => ({
    file: FINETUNE_FILE,
    source: o.encoder,
    objectives,
    weights: { alpha: cfg.alpha, beta: cfg.beta, gamma: cfg.gamma, delta: cfg.delta, epsilon: cfg.epsilon },
    layer,
    sentence: cfg.sentence,
    temperature: cfg.temperature,
    rtlLayers,
    rtlDirection: batchOptions.rtlDirection,
    awpMasks: batchOptions.awpMasks,
    freezeEmbeddings: o.freezeEmbeddings ?? false,
    languageEmbeddings: weights.has(LANGUAGE_EMBEDDINGS),
    epochs,
    lr: o.lr ?? ENCODER_FINETUNE_DEFAULTS.lr,
    batch: B,
    accumulate: K,
    maxLength: o.maxLength ?? null,
    dropout: cfg.dropout ? { hidden: cfg.dropout.hidden, attention: cfg.dropout.attention } : null,
    steps,
    seed: o.seed ?? ENCODER_FINETUNE_DEFAULTS.seed,
    supervision: { ...supervision, labels: o.soLabels ?? ENCODER_FINETUNE_DEFAULTS.soLabels, ...counts },
    device: trainer.device,
    losses: history,
  });
  const save = (dir: string) => saveHfEncoder(dir, o.encoder, config, trained(), pooler, record());
  // recomputed labels: the encoder over the weights being trained (read at each run), at the aligner's own layer
  const soLabels = o.soLabels ?? ENCODER_FINETUNE_DEFAULTS.soLabels;
  const live =
    soLabels === 'recomputed' && counts.model
      ? HfEncoder.over(o.encoder, trained, { device: o.device, threads: o.threads, log: () => {} })
      : null;
  const labels = { recomputed: 0, changed: 0 };
  const relabel = async (step: number, ks: readonly number[]) => {
    const found = await recomputedLinks(live!, S, T, pairs, ks, { ...supervision, ctx: silentContext(ctx.signal) });
    for (const [k, links] of found) {
      const before = keySet(examples[k].links);
      labels.recomputed++;
      if (links.length !== before.size || links.some((l) => !before.has(linkKey(l.s, l.t)))) labels.changed++;
      examples[k].links = links;
    }
    o.onLabels?.(step, found);
  };
  let order: number[] = [];
  let terms: Partial<Record<Objective, number>> = {};
  let result: Map<string, Tensor>;
  try {
    await fit<FinetuneCheckpoint>(
      {
        epochs,
        stepsPerEpoch: perEpoch,
        maxSteps: o.maxSteps,
        beginEpoch() {
          order = rng.shuffle(examples.map((_, k) => k));
          terms = {};
        },
        async step({ index, step }) {
          const ks = order.slice(index * B * K, (index + 1) * B * K);
          if (live) await relabel(step, ks);
          const batch = ks.map((k) => examples[k]);
          const micro = Array.from({ length: Math.ceil(batch.length / B) }, (_, j) => batch.slice(j * B, (j + 1) * B));
          const parts = micro.map((m) => ({ feeds: batchFeeds(m, batchOptions), weight: m.length / batch.length }));
          const loss = await trainer.step(parts);
          o.onFlops?.(step, () => parts.reduce((sum, p) => sum + trainer.matmulFlops(p.feeds), 0), trainer.lastStepMs);
          for (const [k, v] of Object.entries(trainer.reported)) terms[k as Objective] = (terms[k as Objective] ?? 0) + v / perEpoch;
          return loss;
        },
        endEpoch(epoch, loss) {
          history.push({ epoch: epoch + 1, loss, terms });
          log(
            `fine-tuning: epoch ${epoch + 1}/${epochs}: loss ${loss.toFixed(4)} (${Object.entries(terms)
              .map(([k, v]) => `${k} ${v.toFixed(4)}`)
              .join(', ')})`,
          );
          return terms as Record<string, number>;
        },
        model: () => ({ save }),
      },
      ctx,
      {
        checkpoints: {
          every: o.checkpoints?.every ?? epochs,
          save: (epoch, m) => (epoch === epochs ? m.save(o.out) : o.checkpoints?.save(epoch, m)),
          score: (epoch, m) => o.checkpoints?.score?.(epoch, m) ?? null,
        },
        onEvent: o.onEvent,
        phase: { label: 'fine-tuning: epoch' },
      },
    );
    result = trained();
  } finally {
    await live?.release();
    await trainer.release();
  }
  return { out: o.out, device: trainer.device, steps, epochs: history, pairs: counts, labels, subwords, weights: result };
}
