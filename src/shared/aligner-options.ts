// The options of each aligner family, one zod schema per family with its limits and its
// defaults stated once: the Models page's contract (models-api.ts) takes its fields from
// here, the Train… form prefills and validates from here, and the Node side builds each
// family's configuration from what these schemas parse (src/main/aligners/).
import { z } from 'zod';

const weight = z.number().min(0).max(10);

/** Objective weights: base (translation + reconstruction, + contrastive), AWP, WTR. */
export const objectiveWeightsSchema = z.object({ base: weight, awp: weight, wtr: weight }).strict();
export type ObjectiveWeights = z.infer<typeof objectiveWeightsSchema>;

/**
 * The BiLSTM methods' options (seed 003). `epochs` and `selfTrainEpochs` are for callers
 * that spell them out; without them a run trains defaultEpochs(pairs) and self-trains
 * defaultSelfTrainEpochs(pairs) (epochs.ts). `weights` is the objective weights of a run
 * without word-level supervision; with it, BILSTM_SUPERVISED_WEIGHTS.
 */
export const bilstmOptionsSchema = z.object({
  epochs: z.number().int().min(1).max(1000).default(20),
  weights: objectiveWeightsSchema.default({ base: 1, awp: 0, wtr: 0 }),
  /** Contrastive loss weight λ (0 = the base model of Wada et al.). */
  ctlWeight: weight.default(1),
  temperature: z.number().min(0.01).max(10).default(0.5),
  dim: z.number().int().min(16).max(1024).multipleOf(2).default(128),
  lr: z.number().positive().max(1).default(5e-3),
  batchSize: z.number().int().min(1).max(512).default(32),
  /** α of the frequency-based word dropout: a word seen n times is dropped with probability α/(α+n); 0 = off. */
  wordDropout: z.number().min(0).max(100).default(1),
  selfTrainEpochs: z.number().int().min(0).max(1000).default(0),
  /** Save a checkpoint (and evaluate) every this many epochs; the last epoch always is. */
  checkpointEvery: z.number().int().min(1).max(1000).default(1),
});
export type BilstmOptions = z.infer<typeof bilstmOptionsSchema>;
export const BILSTM_DEFAULTS: BilstmOptions = bilstmOptionsSchema.parse({});

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

/**
 * The objective weights that replace `weights`' default when a run has word-level
 * supervision: held-out AER 0.329 on zh-en and 0.264 on ro-en (200 gold pairs, 40 epochs,
 * learned link decision) against 0.341 and 0.268 with seed 000's 0.8 / 0.1 / 0.1.
 */
export const BILSTM_SUPERVISED_WEIGHTS: ObjectiveWeights = objectiveWeightsSchema.parse({ base: 0.5, awp: 0.25, wtr: 0.25 });

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

/** Seed 000's TR, AWP, WTR and seed 001's RTL (models/transformer/finetune-objectives.ts). */
export const FINETUNE_OBJECTIVES = ['tr', 'awp', 'wtr', 'rtl'] as const;
export type FinetuneObjective = (typeof FINETUNE_OBJECTIVES)[number];

/**
 * encoder-finetune's options: seed 000's objectives and weights α / β / γ (its eq. 11:
 * 0.8 / 0.1 / 0.1), seed 001's RTL weight δ = 1 when RTL is chosen; one epoch at a peak rate
 * of 5e-5 with 16 pairs a step, the seeds' and awesome-align's fine-tuning settings.
 */
export const finetuneOptionsSchema = z.object({
  objectives: z.array(z.enum(FINETUNE_OBJECTIVES)).min(1).max(4).default(['tr', 'awp', 'wtr']),
  alpha: weight.default(0.8),
  beta: weight.default(0.1),
  gamma: weight.default(0.1),
  delta: weight.default(1),
  /** pairs per step */
  batch: z.number().int().min(1).max(256).default(16),
  /** seed 000 §6.1's language embeddings, one for each side of the pairs */
  languageEmbeddings: z.boolean().default(false),
  epochs: z.number().int().min(1).max(1000).default(1),
  lr: z.number().positive().max(1).default(5e-5),
});
export type EncoderFinetuneOptions = z.infer<typeof finetuneOptionsSchema>;
export const ENCODER_FINETUNE_DEFAULTS: EncoderFinetuneOptions = finetuneOptionsSchema.parse({});

/** Each fine-tuning objective's weight option (α TR, β AWP, γ WTR, δ RTL). */
export const OBJECTIVE_WEIGHT = { tr: 'alpha', awp: 'beta', wtr: 'gamma', rtl: 'delta' } as const satisfies Record<
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
