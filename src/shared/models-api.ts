// The Models page's part of the API contract (spread into `channels` and `Results` in
// api.ts): training a neural aligner on the project's pairs and the linguists'
// corrections, its runs with their curves and checkpoints, and re-aligning the project
// with a chosen checkpoint (the result is a model alignment the review queue can rank).
import { z } from 'zod';
import { DEVICE_SETTINGS, type DeviceUse } from './device-settings.ts';
import { LINK_THRESHOLD } from './link-score.ts';
import { BILSTM_CONFIG_OPTIONS, bilstmOptionsSchema, finetuneOptionsSchema, symSchema, withoutDefaults } from './aligner-options.ts';
import { TRAINABLE_METHODS } from './methods.ts';
import { ENCODER_FINETUNE_DEFAULTS } from './aligner-defaults.ts';

const id = z.number().int().nonnegative();

export const trainOptionsSchema = z
  .object({
    /** Display name of the new model; defaults to method and date. */
    name: z.string().trim().min(1).max(200).optional(),
    method: z.enum(TRAINABLE_METHODS).default(TRAINABLE_METHODS[0]),
    /** The BiLSTM options (bilstmOptionsSchema, with its limits); absent: the default for the run. `epochs` absent: defaultEpochs (shared/epochs.ts) for the training pairs, which the Train… form proposes too; `weights` absent: the defaults, BILSTM_SUPERVISED_WEIGHTS when there is word-level supervision. encoder-finetune reads `epochs` and `lr` too (finetuneOptionsSchema's defaults). */
    ...withoutDefaults(bilstmOptionsSchema.shape, BILSTM_CONFIG_OPTIONS),
    /** Use every annotator's gold links of train-split pairs as word-level supervision. */
    useGold: z.boolean().default(true),
    /** Use rejected links as hard negatives. */
    useRejected: z.boolean().default(true),
    /** A model alignment whose links at or above `threshold` supervise pairs without gold. */
    pseudoAlignmentId: id.optional(),
    /** After the epochs, the model aligns the training pairs and trains this many epochs more, its own links at or above `threshold` supervising the train-split pairs without gold (self-training; 0 = none). Absent: defaultSelfTrainEpochs (shared/epochs.ts) for the training pairs, 0 with pseudoAlignmentId or startFrom; the Train… form proposes the same. */
    selfTrainEpochs: withoutDefaults(bilstmOptionsSchema.shape, ['selfTrainEpochs']).selfTrainEpochs,
    threshold: z.number().min(0).max(1).default(LINK_THRESHOLD),
    /** Save a checkpoint (and evaluate) every this many epochs; the last epoch always is. */
    checkpointEvery: bilstmOptionsSchema.shape.checkpointEvery,
    lowercase: z.boolean().default(true),
    /** Where the training runs: a GPU provider when one works here, else the CPU (the provider that ran is recorded per run). */
    device: z.enum(DEVICE_SETTINGS).default('auto'),
    /** encoder-finetune: the seeds' objectives and their weights (α TR, β AWP, γ WTR, δ RTL, ε SO), pairs per step, language embeddings, the papers' length cap, step count and gradient accumulation, and what ranks the checkpoints (finetuneOptionsSchema; absent: its defaults). With `maxSteps`, `epochs` absent means as many as the steps need. */
    finetune: z
      .object(
        withoutDefaults(finetuneOptionsSchema.shape, [
          'objectives',
          'alpha',
          'beta',
          'gamma',
          'delta',
          'epsilon',
          'batch',
          'languageEmbeddings',
          'maxLength',
          'maxSteps',
          'accumulate',
          'selectBy',
          'soLabels',
        ]),
      )
      .strict()
      .optional(),
    /** Continue from this checkpoint (its model's method, dimension and vocabulary) as a new run of the same model, instead of starting from scratch. */
    startFrom: z
      .object({ runId: id, epoch: z.number().int().min(1) })
      .strict()
      .optional(),
  })
  .strict();

export type TrainOptions = z.infer<typeof trainOptionsSchema>;

/** What ranks checkpoints: dev AER (lower is better) or dev sentence retrieval P@1 (higher). */
export type SelectBy = NonNullable<NonNullable<TrainOptions['finetune']>['selectBy']>;

/** What ranks a run's checkpoints: its fine-tuning's selectBy; dev AER for every other run. */
export function checkpointRanking(config: TrainOptions): SelectBy {
  return config.finetune?.selectBy ?? ENCODER_FINETUNE_DEFAULTS.selectBy;
}

export const modelsChannels = {
  'models.list': z.object({}).strict(),
  'models.train': trainOptionsSchema,
  /** Times a BiLSTM run with these options before it is made: a few of its steps on the project's data, as a job (train/train-pace.ts). */
  'models.timeRun': trainOptionsSchema,
  'models.metrics': z.object({ runId: id }).strict(),
  'models.realign': z
    .object({
      runId: id,
      /** The checkpoint's epoch; defaults to the run's best (bestCheckpoint: by its selectBy, else the last). */
      epoch: z.number().int().min(1).optional(),
      sym: symSchema,
      /** Store scores calibrated on the held-out gold (when that lowers their cross-fitted error); the reliability is measured either way. */
      calibrate: z.boolean().default(false),
    })
    .strict(),
  'models.delete': z.object({ modelId: id }).strict(),
  /** The siamese heads (seed 004) the project has recorded: applied in Mine or Score parallelism, or trained on it by `mekong siamese --project`. */
  'models.heads': z.object({}).strict(),
} as const;

export type RunState = 'running' | 'done' | 'failed' | 'cancelled';

export interface CheckpointInfo {
  epoch: number;
  /** Global optimiser step at the checkpoint. */
  step: number;
  /** Mean training loss of that epoch. */
  loss: number;
  /** AER / precision / recall on the gold links of dev and test pairs; null without such gold. */
  aer: number | null;
  precision: number | null;
  recall: number | null;
  /** Sentence retrieval P@1 on the same held-out pairs, the mean of both directions (an encoder fine-tuning's checkpoints); null otherwise. */
  retrieval: number | null;
}

export interface RunInfo {
  id: number;
  modelId: number;
  state: RunState;
  /** The TrainOptions the run was started with, completed with defaults. */
  config: TrainOptions;
  startedAt: string;
  finishedAt: string | null;
  /** Why a 'failed' run failed (an app crash mid-run says so); null otherwise. */
  error: string | null;
  /** Training data the run saw. */
  pairs: number;
  /** Gold pairs: In review or Done, with gold links (the one rule, store/pair-corpus.ts). */
  goldPairs: number;
  /** Pairs holding gold links but not In review or Done (partial gold: not counted, not used). */
  partialGoldPairs: number;
  pseudoPairs: number;
  /** Pairs supervised (also) by the project's attached dictionaries. */
  dictionaryPairs: number;
  /** Pairs (dev/test split with gold) the evaluation curve is measured on. */
  evalPairs: number;
  /** A continued run: the words of the project its starting checkpoint lacked, which joined its vocabulary (null: from scratch, or not known yet). */
  newWords: { src: number; tgt: number } | null;
  /** The device asked for and the provider that ran the training (null until its first session opened). */
  device: DeviceUse | null;
  checkpoints: CheckpointInfo[];
  /** The checkpoint used by default: the best by the run's selectBy (lowest dev AER, or highest dev retrieval P@1), else the last; null while there is none. */
  bestEpoch: number | null;
  /** Model alignments produced by re-aligning with this run's checkpoints. */
  alignmentIds: number[];
  /** The job training it, while running. */
  jobId: string | null;
  /** The job re-aligning the project with one of its checkpoints, while that runs. */
  realignJobId: string | null;
}

export interface ModelInfo {
  id: number;
  name: string;
  kind: string;
  createdAt: string;
  runs: RunInfo[];
}

/** One curve point; names: 'loss' (per step), 'epoch_loss', 'aer', 'precision', 'recall' (per epoch, x = step). */
export interface MetricPoint {
  name: string;
  step: number;
  value: number;
}

/** Retrieval P@1 and P@5 in both directions over `pairs` test pairs (`mekong eval retrieval --json`'s figures). */
export interface RetrievalFigures {
  pairs: number;
  p1: { srcTgt: number; tgtSrc: number };
  p5: { srcTgt: number; tgtSrc: number };
}

/** A siamese head folder the project has recorded, as its config.json describes it. */
export interface SiameseHeadInfo {
  dir: string;
  /** what the folder is, when it loads */
  head: {
    /** kind:DIR of the frozen encoder it was trained on */
    encoder: string;
    /** a Hugging Face encoder's sentence vector; null for the families without pooling or layer */
    pooling: string | null;
    layer: number | null;
    negatives: string;
    epochs: number;
    lr: number;
    /** the head's test retrieval as `mekong siamese` measured it; null when the folder has none */
    retrieval: RetrievalFigures | null;
  } | null;
  /** why the folder no longer loads (moved, deleted, its encoder gone); null when it does */
  error: string | null;
}

export interface ModelsResults {
  'models.list': { models: ModelInfo[]; methods: string[] };
  'models.train': { jobId: string; modelId: number; runId: number };
  'models.timeRun': { jobId: string };
  'models.metrics': { runId: number; state: RunState; points: MetricPoint[] };
  'models.realign': { jobId: string };
  'models.delete': null;
  'models.heads': { heads: SiameseHeadInfo[] };
}
