// The "Train…" form's state: every TrainOptions field as the form edits it (numbers are
// null while their input is empty), prefilled with the neural aligner's defaults (the
// epochs and self-training epochs for the project's size, shared/epochs.ts), switching to
// encoder-finetune's own epochs and learning rate when that method is chosen (and back) —
// or, to continue a run from one of its checkpoints, with that run's settings (and no
// self-training unless asked) — and its validation. Limits come from the contract's schema
// (one source of truth); its issues are turned into one short message per field, shown
// beside that field.
import type { z } from 'zod';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../../shared/epochs.ts';
import { type RunInfo, trainOptionsSchema, type TrainOptions } from '../../../shared/models-api.ts';
import {
  BILSTM_DEFAULTS,
  ENCODER_FINETUNE_DEFAULTS,
  FINETUNE_METHOD,
  FINETUNE_OBJECTIVES,
  type FinetuneObjective,
  TRAINABLE_METHODS,
  type TrainableMethodName,
} from '../../../shared/methods.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';
import type { DeviceSetting } from '../../../shared/device-settings.ts';

export type NumberField =
  | 'epochs'
  | 'base'
  | 'awp'
  | 'wtr'
  | 'ctlWeight'
  | 'temperature'
  | 'dim'
  | 'lr'
  | 'batchSize'
  | 'wordDropout'
  | 'selfTrainEpochs'
  | 'threshold'
  | 'checkpointEvery'
  | 'alpha'
  | 'beta'
  | 'gamma'
  | 'delta'
  | 'pairsPerStep';
export type FieldErrors = Partial<Record<NumberField | 'name' | 'weights', string>>;

/** The aligner's defaults (shared/methods.ts), the objective weights those of a run with gold links. */
const D = BILSTM_DEFAULTS;
export const TRAIN_DEFAULTS: Record<NumberField, number> = {
  epochs: D.epochs,
  ...D.supervisedWeights,
  ctlWeight: D.ctlWeight,
  temperature: D.temperature,
  dim: D.dim,
  lr: D.lr,
  batchSize: D.batchSize,
  wordDropout: D.wordDropout,
  selfTrainEpochs: D.selfTrainEpochs,
  threshold: LINK_THRESHOLD,
  checkpointEvery: D.checkpointEvery,
  alpha: ENCODER_FINETUNE_DEFAULTS.alpha,
  beta: ENCODER_FINETUNE_DEFAULTS.beta,
  gamma: ENCODER_FINETUNE_DEFAULTS.gamma,
  delta: ENCODER_FINETUNE_DEFAULTS.delta,
  pairsPerStep: ENCODER_FINETUNE_DEFAULTS.batch,
};

const WEIGHT_FIELDS = ['base', 'awp', 'wtr'] as const;
/** Each fine-tuning objective's weight field (α TR, β AWP, γ WTR, δ RTL). */
export const OBJECTIVE_WEIGHT: Readonly<Record<FinetuneObjective, NumberField>> = { tr: 'alpha', awp: 'beta', wtr: 'gamma', rtl: 'delta' };
/** Fields only the BiLSTM methods read, and only encoder-finetune reads. */
const BILSTM_ONLY: readonly NumberField[] = [
  'base',
  'awp',
  'wtr',
  'ctlWeight',
  'temperature',
  'dim',
  'batchSize',
  'wordDropout',
  'selfTrainEpochs',
];
const FINETUNE_ONLY: readonly NumberField[] = ['alpha', 'beta', 'gamma', 'delta', 'pairsPerStep'];

/** "at least 1", "a whole number", … from one schema issue. */
function describe(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      return issue.inclusive ? `at least ${issue.minimum}` : `more than ${issue.minimum}`;
    case 'too_big':
      return issue.inclusive ? `at most ${issue.maximum}` : `less than ${issue.maximum}`;
    case 'not_multiple_of':
      return `a multiple of ${issue.divisor}`;
    case 'invalid_type':
      return issue.expected === 'int' ? 'a whole number' : 'a number';
    default:
      return issue.message;
  }
}

export class TrainFormState {
  name = $state('');
  #method = $state<TrainableMethodName>(TRAINABLE_METHODS[0]);
  values = $state<Record<NumberField, number | null>>({ ...TRAIN_DEFAULTS });
  /** encoder-finetune's objectives. */
  objectives = $state<FinetuneObjective[]>([...ENCODER_FINETUNE_DEFAULTS.objectives]);
  /** encoder-finetune: seed 000 §6.1's language embeddings. */
  languageEmbeddings = $state(false);
  /** The epochs proposed for the project's size (BiLSTM runs). */
  #bilstmEpochs: number = D.epochs;
  useGold = $state(true);
  useRejected = $state(true);
  lowercase = $state(true);
  /** Where the run trains; the provider that actually ran it is recorded with the run. */
  device = $state<DeviceSetting>('auto');
  /** The checkpoint to continue from (its run's method, dimension and lowercasing are fixed); null: from scratch. */
  startFrom = $state<{ runId: number; epoch: number } | null>(null);
  /** A model alignment whose confident links supervise pairs without gold; null: none. */
  pseudoAlignmentId = $state<number | null>(null);

  /** The options to send, or the message of each field in the way. */
  readonly checked: { options: TrainOptions; errors: null } | { options: null; errors: FieldErrors } = $derived.by(() => this.check());
  readonly errors: FieldErrors = $derived(this.checked.errors ?? {});

  /** A form for a project of `pairs` sentence pairs: its epochs and self-training epochs are the defaults for that size. */
  constructor(pairs?: number) {
    if (pairs === undefined) return;
    this.#bilstmEpochs = this.values.epochs = defaultEpochs(pairs);
    this.values.selfTrainEpochs = defaultSelfTrainEpochs(pairs);
  }

  get method(): TrainableMethodName {
    return this.#method;
  }

  /** Choosing between a BiLSTM method and encoder-finetune swaps in that family's epochs and learning rate (a pretrained encoder fine-tunes for an epoch at 5e-5; a BiLSTM from scratch needs 5e-3 and many epochs). */
  set method(m: TrainableMethodName) {
    const wasFinetune = this.finetune;
    this.#method = m;
    if (this.finetune === wasFinetune) return;
    this.values.epochs = this.finetune ? ENCODER_FINETUNE_DEFAULTS.epochs : this.#bilstmEpochs;
    this.values.lr = this.finetune ? ENCODER_FINETUNE_DEFAULTS.lr : D.lr;
  }

  get finetune(): boolean {
    return this.#method === FINETUNE_METHOD;
  }

  /** A form for a new run continuing `run` from its checkpoint at `epoch`, prefilled with the run's settings. */
  static continuing(run: RunInfo, epoch: number, pairs?: number): TrainFormState {
    const f = new TrainFormState(pairs);
    const c = run.config;
    f.startFrom = { runId: run.id, epoch };
    f.method = c.method;
    f.lowercase = c.lowercase;
    f.useGold = c.useGold;
    f.useRejected = c.useRejected;
    f.device = c.device;
    const w = c.weights;
    const given: Partial<Record<NumberField, number | undefined>> = {
      base: w?.base,
      awp: w?.awp,
      wtr: w?.wtr,
      ctlWeight: c.ctlWeight,
      temperature: c.temperature,
      dim: c.dim,
      lr: c.lr,
      batchSize: c.batchSize,
      wordDropout: c.wordDropout,
      checkpointEvery: c.checkpointEvery,
    };
    for (const [field, value] of Object.entries(given) as [NumberField, number | undefined][])
      if (value !== undefined) f.values[field] = value;
    if (pairs !== undefined) f.values.selfTrainEpochs = defaultSelfTrainEpochs(pairs, { continued: true });
    return f;
  }

  /** Whether a field counts: each method's own, the contrastive ones with bilstm-ctl, an objective's weight with that objective, the threshold with pseudo-labels or self-training (and always when fine-tuning: the encoder's own links at or above it supervise pairs without gold). */
  uses(field: NumberField): boolean {
    if (this.finetune) {
      if (BILSTM_ONLY.includes(field)) return false;
      const objective = FINETUNE_OBJECTIVES.find((o) => OBJECTIVE_WEIGHT[o] === field);
      return objective === undefined || this.objectives.includes(objective);
    }
    if (FINETUNE_ONLY.includes(field)) return false;
    if (field === 'ctlWeight' || field === 'temperature') return this.method === 'bilstm-ctl';
    if (field === 'threshold') return this.pseudoAlignmentId !== null || (this.values.selfTrainEpochs ?? 0) > 0;
    return true;
  }

  private check(): { options: TrainOptions; errors: null } | { options: null; errors: FieldErrors } {
    const errors: FieldErrors = {};
    const v = this.values;
    for (const [field, value] of Object.entries(v) as [NumberField, number | null][]) {
      if (this.uses(field) && (value === null || !Number.isFinite(value))) errors[field] = 'required';
    }
    const n = (field: NumberField) => v[field] ?? Number.NaN;
    const parsed = trainOptionsSchema.safeParse(this.finetune ? this.finetuneOptions(n, errors) : this.bilstmOptions(n, errors));
    for (const issue of parsed.error?.issues ?? []) {
      const key = String(issue.path[issue.path.length - 1]);
      errors[(key === 'batch' ? 'pairsPerStep' : key) as NumberField | 'name'] ??= describe(issue);
    }
    if (parsed.success && !Object.keys(errors).length) return { options: parsed.data, errors: null };
    return { options: null, errors };
  }

  private finetuneOptions(n: (field: NumberField) => number, errors: FieldErrors): Record<string, unknown> {
    const chosen = FINETUNE_OBJECTIVES.filter((o) => this.objectives.includes(o));
    if (!chosen.some((o) => this.values[OBJECTIVE_WEIGHT[o]] !== 0)) errors.weights = 'choose an objective with a weight above 0';
    const weights = Object.fromEntries(chosen.map((o) => [OBJECTIVE_WEIGHT[o], n(OBJECTIVE_WEIGHT[o])]));
    return {
      ...(this.name.trim() ? { name: this.name.trim() } : {}),
      method: this.method,
      epochs: n('epochs'),
      lr: n('lr'),
      useGold: this.useGold,
      useRejected: this.useRejected,
      lowercase: false,
      device: this.device,
      ...(this.pseudoAlignmentId !== null ? { pseudoAlignmentId: this.pseudoAlignmentId } : {}),
      threshold: n('threshold'),
      checkpointEvery: n('checkpointEvery'),
      finetune: { objectives: chosen, ...weights, batch: n('pairsPerStep'), languageEmbeddings: this.languageEmbeddings },
    };
  }

  private bilstmOptions(n: (field: NumberField) => number, errors: FieldErrors): Record<string, unknown> {
    const v = this.values;
    if (WEIGHT_FIELDS.every((w) => v[w] === 0)) errors.weights = 'at least one objective weight must be above 0';
    return {
      ...(this.name.trim() && !this.startFrom ? { name: this.name.trim() } : {}),
      ...(this.startFrom ? { startFrom: this.startFrom } : {}),
      method: this.method,
      epochs: n('epochs'),
      weights: { base: n('base'), awp: n('awp'), wtr: n('wtr') },
      ...(this.uses('ctlWeight') ? { ctlWeight: n('ctlWeight'), temperature: n('temperature') } : {}),
      dim: n('dim'),
      lr: n('lr'),
      batchSize: n('batchSize'),
      wordDropout: n('wordDropout'),
      useGold: this.useGold,
      useRejected: this.useRejected,
      lowercase: this.lowercase,
      device: this.device,
      selfTrainEpochs: n('selfTrainEpochs'),
      ...(this.pseudoAlignmentId !== null ? { pseudoAlignmentId: this.pseudoAlignmentId } : {}),
      ...(this.uses('threshold') ? { threshold: n('threshold') } : {}),
      checkpointEvery: n('checkpointEvery'),
    };
  }
}
