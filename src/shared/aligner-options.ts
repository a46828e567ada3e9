// The options of each aligner family (and of the siamese head, an add-on of the families
// that give sentence vectors), one zod schema per family with its limits, its defaults taken
// from aligner-defaults.ts (where each is stated once): the API's contracts (api.ts,
// models-api.ts) take their fields from here, the Train… form validates from here, and the
// Node side builds each family's configuration from what these schemas parse
// (src/main/aligners/, the families' model code).
import { z } from 'zod';
import {
  BILSTM_DEFAULTS,
  BISENT2VEC_DEFAULTS,
  ENCODER_DEFAULTS,
  ENCODER_FINETUNE_DEFAULTS,
  SIAMESE_DEFAULTS,
  STATISTICAL_DEFAULTS,
} from './aligner-defaults.ts';
import { DEVICE_SETTINGS } from './device-settings.ts';
import { ENCODER_ALIGN_METHODS } from './methods.ts';

const weight = z.number().min(0).max(10);

/** A symmetrisation's name (statistical and BiLSTM methods; symmetrise.ts checks it). */
export const symSchema = z.string().min(1).max(40).default(STATISTICAL_DEFAULTS.sym);

/** The statistical methods' options (ibm1, ibm2, hmm, agree). */
export const statisticalOptionsSchema = z.object({
  sym: symSchema,
  /** the posterior a link needs under the `post` symmetrisation */
  threshold: z.number().min(0).max(1).default(STATISTICAL_DEFAULTS.threshold),
  lowercase: z.boolean().default(STATISTICAL_DEFAULTS.lowercase),
  /** align the Chinese side(s) by character, links mapped back to the words */
  byCharacter: z.boolean().default(STATISTICAL_DEFAULTS.byCharacter),
  /** EM's prior pseudo-count for a word pair of the same NFKC form (0 = none) */
  identity: z.number().min(0).default(STATISTICAL_DEFAULTS.identity),
});
export type StatisticalOptions = z.infer<typeof statisticalOptionsSchema>;

/** How a word's vector comes from its subwords' (the encoder methods but awesome). */
export const WORD_POOLINGS = ['mean', 'first', 'max'] as const;

/** SimAlign's units of similarity: subwords (links mapped to their words) or words pooled from them. */
export const TOKEN_TYPES = ['bpe', 'word'] as const;

/**
 * The encoder methods' options (SimAlign, awesome-align, PMI-Align over a pretrained
 * encoder's folder). `layer` counts as transformers' hidden_states do (0 = the embeddings'
 * output); left out, the encoder's own default (models/transformer/hf-config.ts
 * defaultAlignLayer). `threshold` is awesome's. `tokenType`, `nullAlign` and `distortion` are
 * SimAlign's (models/transformer/similarity-extraction.ts; distortion at most 1 keeps every
 * similarity ≥ 0, which null-align's entropies need). `device`: where the sessions run (left
 * out: MEKONG_NN_DEVICE, else auto).
 */
export const encoderOptionsSchema = z.object({
  layer: z.number().int().min(0).max(200).optional(),
  threshold: z.number().gt(0).lt(1).default(ENCODER_DEFAULTS.threshold),
  pooling: z.enum(WORD_POOLINGS).default(ENCODER_DEFAULTS.pooling),
  tokenType: z.enum(TOKEN_TYPES).default(ENCODER_DEFAULTS.tokenType),
  nullAlign: z.number().min(0).max(1).default(ENCODER_DEFAULTS.nullAlign),
  distortion: z.number().min(0).max(1).default(ENCODER_DEFAULTS.distortion),
  device: z.enum(DEVICE_SETTINGS).optional(),
});
export type EncoderOptions = z.infer<typeof encoderOptionsSchema>;

/** Bi-Sent2Vec's options (seed 002's bilingual CBOW, models/bisent2vec/). */
export const bisent2vecOptionsSchema = z.object({
  dim: z.number().int().min(1).max(4096).default(BISENT2VEC_DEFAULTS.dim),
  epochs: z.number().int().min(1).max(1000).default(BISENT2VEC_DEFAULTS.epochs),
  /** initial learning rate, decaying linearly to 0 */
  lr: z.number().positive().max(10).default(BISENT2VEC_DEFAULTS.lr),
  /** negative samples per target word */
  negatives: z.number().int().min(1).max(100).default(BISENT2VEC_DEFAULTS.negatives),
  /** n-grams seen fewer times are left out */
  minCount: z.number().int().min(1).default(BISENT2VEC_DEFAULTS.minCount),
  /** each language keeps at most this many words, the most frequent (absent: no cap; seed 002: 750k) */
  maxVocab: z.number().int().min(1).optional(),
  bigrams: z.boolean().default(BISENT2VEC_DEFAULTS.bigrams),
  /** length of the words' character n-grams in the contexts (ngram-vocab.ts), 0 = none */
  charN: z.number().int().min(0).max(10).default(BISENT2VEC_DEFAULTS.charN),
  /** t of the subsampling probability min(1, √(t/f) + t/f) */
  subsample: z.number().positive().max(1).default(BISENT2VEC_DEFAULTS.subsample),
  seed: z.number().int().default(BISENT2VEC_DEFAULTS.seed),
  /** sentence vectors weight each n-gram by its idf (embed.ts) instead of a plain mean */
  tfidf: z.boolean().default(BISENT2VEC_DEFAULTS.tfidf),
  /** weight of the IBM1 translation log-likelihood added to the cosine in curation scores (curation.ts); 0: none */
  lexicalWeight: z.number().min(0).max(10).default(BISENT2VEC_DEFAULTS.lexicalWeight),
});
export type Bisent2vecOptions = z.infer<typeof bisent2vecOptionsSchema>;

/** How the siamese head's training picks each positive's mismatch. */
export const SIAMESE_NEGATIVES = ['random', 'hard', 'average'] as const;

/** The siamese head's options (seed 004, models/siamese/head.ts), whichever family's sentence vectors it sits on. */
export const siameseOptionsSchema = z.object({
  /** dropout after the head, in training */
  dropout: z.number().min(0).lt(1).default(SIAMESE_DEFAULTS.dropout),
  /** the contrastive loss's margin (Hadsell et al.) */
  margin: z.number().positive().max(100).default(SIAMESE_DEFAULTS.margin),
  lr: z.number().positive().max(1).default(SIAMESE_DEFAULTS.lr),
  epochs: z.number().int().min(1).max(1000).default(SIAMESE_DEFAULTS.epochs),
  batch: z.number().int().min(1).max(4096).default(SIAMESE_DEFAULTS.batch),
  seed: z.number().int().default(SIAMESE_DEFAULTS.seed),
  /** each positive's mismatch: a random other target, the batch's target nearest under the current head (seed 004's "worst"), or the mismatch term averaged over the batch's other targets (its "average") */
  negatives: z.enum(SIAMESE_NEGATIVES).default(SIAMESE_DEFAULTS.negatives),
});
export type SiameseOptions = z.infer<typeof siameseOptionsSchema>;

/** Objective weights: base (translation + reconstruction, + contrastive), AWP, WTR. */
export const objectiveWeightsSchema = z.object({ base: weight, awp: weight, wtr: weight }).strict();
export type ObjectiveWeights = z.infer<typeof objectiveWeightsSchema>;

/** The BiLSTM methods' options (seed 003; BILSTM_DEFAULTS says when epochs and the objective weights take other values). */
export const bilstmOptionsSchema = z.object({
  epochs: z.number().int().min(1).max(1000).default(BILSTM_DEFAULTS.epochs),
  weights: objectiveWeightsSchema.default(BILSTM_DEFAULTS.weights),
  /** Contrastive loss weight λ (0 = the base model of Wada et al.). */
  ctlWeight: weight.default(BILSTM_DEFAULTS.ctlWeight),
  temperature: z.number().min(0.01).max(10).default(BILSTM_DEFAULTS.temperature),
  dim: z.number().int().min(16).max(1024).multipleOf(2).default(BILSTM_DEFAULTS.dim),
  lr: z.number().positive().max(1).default(BILSTM_DEFAULTS.lr),
  batchSize: z.number().int().min(1).max(512).default(BILSTM_DEFAULTS.batchSize),
  /** α of the frequency-based word dropout: a word seen n times is dropped with probability α/(α+n); 0 = off. */
  wordDropout: z.number().min(0).max(100).default(BILSTM_DEFAULTS.wordDropout),
  selfTrainEpochs: z.number().int().min(0).max(1000).default(BILSTM_DEFAULTS.selfTrainEpochs),
  /** Save a checkpoint (and evaluate) every this many epochs; the last epoch always is. */
  checkpointEvery: z.number().int().min(1).max(1000).default(BILSTM_DEFAULTS.checkpointEvery),
});
export type BilstmOptions = z.infer<typeof bilstmOptionsSchema>;

/** The BiLSTM options that configure the network and its training (the others drive a run: self-training, checkpoints). */
export const BILSTM_CONFIG_OPTIONS = [
  'epochs',
  'weights',
  'ctlWeight',
  'temperature',
  'dim',
  'lr',
  'batchSize',
  'wordDropout',
] as const satisfies readonly (keyof BilstmOptions)[];

/** What each BiLSTM method fixes of the options: bilstm is bilstm-ctl without the contrastive loss. */
export const BILSTM_PRESETS: Readonly<Record<'bilstm-ctl' | 'bilstm', Partial<BilstmOptions>>> = {
  'bilstm-ctl': {},
  bilstm: { ctlWeight: 0 },
};

/** The options only the contrastive loss reads: unused (and not sent) when a method fixes λ at 0. */
export const CONTRASTIVE_OPTIONS: readonly string[] = ['ctlWeight', 'temperature'];

/** Whether a BiLSTM method trains with the contrastive loss (its preset leaves λ to the options). */
export function hasContrastiveLoss(method: string): boolean {
  return Object.hasOwn(BILSTM_PRESETS, method) && BILSTM_PRESETS[method as keyof typeof BILSTM_PRESETS].ctlWeight !== 0;
}

/** Seed 000's TR, AWP, WTR, seed 001's RTL and awesome-align's self-training SO (models/transformer/finetune-objectives.ts). */
export const FINETUNE_OBJECTIVES = ['tr', 'awp', 'wtr', 'rtl', 'so'] as const;
export type FinetuneObjective = (typeof FINETUNE_OBJECTIVES)[number];

/** encoder-finetune's options. */
export const finetuneOptionsSchema = z.object({
  objectives: z
    .array(z.enum(FINETUNE_OBJECTIVES))
    .min(1)
    .max(FINETUNE_OBJECTIVES.length)
    .default(() => [...ENCODER_FINETUNE_DEFAULTS.objectives]),
  alpha: weight.default(ENCODER_FINETUNE_DEFAULTS.alpha),
  beta: weight.default(ENCODER_FINETUNE_DEFAULTS.beta),
  gamma: weight.default(ENCODER_FINETUNE_DEFAULTS.gamma),
  delta: weight.default(ENCODER_FINETUNE_DEFAULTS.delta),
  epsilon: weight.default(ENCODER_FINETUNE_DEFAULTS.epsilon),
  /** pairs per step */
  batch: z.number().int().min(1).max(256).default(ENCODER_FINETUNE_DEFAULTS.batch),
  /** seed 000 §6.1's language embeddings, one for each side of the pairs */
  languageEmbeddings: z.boolean().default(ENCODER_FINETUNE_DEFAULTS.languageEmbeddings),
  epochs: z.number().int().min(1).max(1000).default(ENCODER_FINETUNE_DEFAULTS.epochs),
  lr: z.number().positive().max(1).default(ENCODER_FINETUNE_DEFAULTS.lr),
  /** the hidden state TR and WTR train (absent: the encoder's last, as the seeds) */
  layer: z.number().int().min(1).max(1000).optional(),
  /** TR's sentence vector: the [CLS] state or the mean of the words' */
  sentence: z.enum(['cls', 'mean']).default(ENCODER_FINETUNE_DEFAULTS.sentence),
  /** φ = cos/t in TR and WTR (1: the seeds' bare cosine) */
  temperature: z.number().positive().max(100).default(ENCODER_FINETUNE_DEFAULTS.temperature),
  /** layers of RTL's head */
  rtlLayers: z.number().int().min(1).max(1000).default(ENCODER_FINETUNE_DEFAULTS.rtlLayers),
  /** RTL reconstructs the target from the source, or the reverse */
  rtlDirection: z.enum(['src-to-tgt', 'tgt-to-src']).default(ENCODER_FINETUNE_DEFAULTS.rtlDirection),
  /** AWP's masked copies per sentence and step */
  awpMasks: z.number().int().min(1).max(64).default(ENCODER_FINETUNE_DEFAULTS.awpMasks),
  /** the aligner proposing the links of pairs without gold, and the probability they need */
  supervisionMethod: z.enum(ENCODER_ALIGN_METHODS).default(ENCODER_FINETUNE_DEFAULTS.supervisionMethod),
  threshold: z.number().min(0).max(1).default(ENCODER_FINETUNE_DEFAULTS.threshold),
  /** keep the word embeddings as they are (less memory and time) */
  freezeEmbeddings: z.boolean().default(ENCODER_FINETUNE_DEFAULTS.freezeEmbeddings),
  /** shuffling and sampling seed */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(ENCODER_FINETUNE_DEFAULTS.seed),
  /** subwords kept of each sentence, its [CLS]/[SEP] included (the papers' 32; absent: the encoder's positions) */
  maxLength: z.number().int().min(3).max(100_000).optional(),
  /** optimiser steps of the run (absent: the epochs'); with it the epochs default to as many as the steps need */
  maxSteps: z.number().int().min(1).max(10_000_000).optional(),
  /** micro-batches of `batch` pairs whose gradients make one step: the effective batch is batch × accumulate */
  accumulate: z.number().int().min(1).max(4096).default(ENCODER_FINETUNE_DEFAULTS.accumulate),
  /** dropout in training at the encoder's config.json rates (off in evaluation either way) */
  dropout: z.boolean().default(ENCODER_FINETUNE_DEFAULTS.dropout),
  /** checkpoints ranked by dev AER or by dev retrieval P@1 (the mean of both directions) */
  selectBy: z.enum(['aer', 'retrieval']).default(ENCODER_FINETUNE_DEFAULTS.selectBy),
  /** the aligner's links of pairs without gold: found once, or again before each step with the current weights (awesome-align's self-training) */
  soLabels: z.enum(['fixed', 'recomputed']).default(ENCODER_FINETUNE_DEFAULTS.soLabels),
});
export type EncoderFinetuneOptions = z.infer<typeof finetuneOptionsSchema>;

/** Each fine-tuning objective's weight option (α TR, β AWP, γ WTR, δ RTL, ε SO). */
export const OBJECTIVE_WEIGHT = { tr: 'alpha', awp: 'beta', wtr: 'gamma', rtl: 'delta', so: 'epsilon' } as const satisfies Record<
  FinetuneObjective,
  keyof EncoderFinetuneOptions
>;

type Unwrapped<S extends z.ZodRawShape> = { [K in keyof S]: S[K] extends z.ZodDefault<infer T> ? z.ZodOptional<T> : z.ZodOptional<S[K]> };

/** A schema's fields with their defaults taken off and made optional: a contract field where absence means "the default for this run". */
export function withoutDefaults<S extends z.ZodRawShape, K extends keyof S>(shape: S, keys: readonly K[]): Pick<Unwrapped<S>, K> {
  return Object.fromEntries(
    keys.map((k) => {
      const field = shape[k] as unknown as z.ZodType;
      return [k, (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : field).optional()];
    }),
  ) as unknown as Pick<Unwrapped<S>, K>;
}
