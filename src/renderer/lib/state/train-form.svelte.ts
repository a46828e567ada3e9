// The "Train…" form's state: every TrainOptions field as the form edits it (numbers are
// null while their input is empty), prefilled with the family defaults the schemas parse to
// (shared/aligner-defaults.ts; the epochs and self-training epochs for the project's size,
// shared/epochs.ts), switching to
// encoder-finetune's own epochs and learning rate when that method is chosen (and back) —
// or, to continue a run from one of its checkpoints, with that run's settings (and no
// self-training unless asked) — and its validation. Limits come from the contract's schema
// (one source of truth); its issues are turned into one short message per field, shown
// beside that field. A quick first run (QUICK_RUN_EPOCHS epochs, no self-training) swaps in
// for the proposed epochs while chosen. A fine-tuning takes the papers' settings too: a
// length cap and a step count (both optional: empty, the encoder's limit and the epochs
// decide; with a step count the epochs are as many as the steps need), gradient
// accumulation, and what ranks its checkpoints.
import type { z } from 'zod';
import {
  BILSTM_DEFAULTS,
  BILSTM_SUPERVISED_WEIGHTS,
  defaultTrWeight,
  ENCODER_FINETUNE_DEFAULTS,
} from '../../../shared/aligner-defaults.ts';
import {
  CONTRASTIVE_OPTIONS,
  type EncoderFinetuneOptions,
  FINETUNE_OBJECTIVES,
  type FinetuneObjective,
  hasContrastiveLoss,
  OBJECTIVE_WEIGHT,
} from '../../../shared/aligner-options.ts';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../../shared/epochs.ts';
import { type RunInfo, type SelectBy, trainOptionsSchema, type TrainOptions } from '../../../shared/models-api.ts';
import { capabilitiesOf, TRAINABLE_METHODS, type TrainableMethodName } from '../../../shared/methods.ts';
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
  | 'epsilon'
  | 'pairsPerStep'
  | 'maxLength'
  | 'maxSteps'
  | 'accumulate';
export type FieldErrors = Partial<Record<NumberField | 'name' | 'weights', string>>;

/** The BiLSTM options' numbers as the schema defaults them (the objective weights those of a run with gold links). */
type BilstmNumber = Exclude<keyof typeof BILSTM_DEFAULTS, 'weights'>;
const bilstmNumbers = Object.fromEntries(Object.entries(BILSTM_DEFAULTS).filter(([, v]) => typeof v === 'number')) as Record<
  BilstmNumber,
  number
>;
const WEIGHT_FIELDS = ['base', 'awp', 'wtr'] as const;
const OBJECTIVE_FIELDS = Object.values(OBJECTIVE_WEIGHT);

/** Every field's default, the family schemas' (shared/aligner-defaults.ts); null: left out (OPTIONAL_FIELDS). */
export const TRAIN_DEFAULTS: Record<NumberField, number | null> = {
  ...bilstmNumbers,
  ...BILSTM_SUPERVISED_WEIGHTS,
  threshold: LINK_THRESHOLD,
  ...(Object.fromEntries(OBJECTIVE_FIELDS.map((k) => [k, ENCODER_FINETUNE_DEFAULTS[k]])) as Record<
    (typeof OBJECTIVE_FIELDS)[number],
    number
  >),
  pairsPerStep: ENCODER_FINETUNE_DEFAULTS.batch,
  accumulate: ENCODER_FINETUNE_DEFAULTS.accumulate,
  maxLength: null,
  maxSteps: null,
};

/** Fields that may stay empty: then not sent (the encoder's own length limit; the epochs decide the steps). */
const OPTIONAL_FIELDS: readonly NumberField[] = ['maxLength', 'maxSteps'];

/** Fields only the BiLSTM methods read (their options but those of every run: its length, rate and checkpoints), and only encoder-finetune reads. */
const BILSTM_ONLY: readonly NumberField[] = [
  ...WEIGHT_FIELDS,
  ...(Object.keys(bilstmNumbers) as BilstmNumber[]).filter((k) => !['epochs', 'lr', 'checkpointEvery'].includes(k)),
];
const FINETUNE_ONLY: readonly NumberField[] = [...OBJECTIVE_FIELDS, 'pairsPerStep', 'accumulate', ...OPTIONAL_FIELDS];
/** What a continued run keeps of its run's options: its configuration, not its length. */
const KEPT_WHEN_CONTINUED = (Object.keys(bilstmNumbers) as BilstmNumber[]).filter((k) => k !== 'epochs' && k !== 'selfTrainEpochs');

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

/** The epochs of a quick first run: a first model in a few minutes on a sample-sized project, to see how it aligns. */
export const QUICK_RUN_EPOCHS = 5;

export class TrainFormState {
  name = $state('');
  #quick = $state(false);
  /** The self-training epochs proposed for the project's size. */
  #selfTrainEpochs: number | null = TRAIN_DEFAULTS.selfTrainEpochs;
  #method = $state<TrainableMethodName>(TRAINABLE_METHODS[0]);
  values = $state<Record<NumberField, number | null>>({ ...TRAIN_DEFAULTS });
  #objectives = $state<FinetuneObjective[]>([...ENCODER_FINETUNE_DEFAULTS.objectives]);
  /** encoder-finetune: seed 000 §6.1's language embeddings. */
  languageEmbeddings = $state(false);
  /** encoder-finetune: what ranks the checkpoints, and so which one the run keeps as its best. */
  selectBy = $state<SelectBy>(ENCODER_FINETUNE_DEFAULTS.selectBy);
  /** encoder-finetune: the aligner's links of pairs without gold found once, or again before each step (awesome-align's self-training). */
  soLabels = $state<EncoderFinetuneOptions['soLabels']>(ENCODER_FINETUNE_DEFAULTS.soLabels);
  /** The epochs proposed for the project's size (BiLSTM runs). */
  #bilstmEpochs: number = BILSTM_DEFAULTS.epochs;
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
    this.#selfTrainEpochs = this.values.selfTrainEpochs = defaultSelfTrainEpochs(pairs);
  }

  /** encoder-finetune's objectives. */
  get objectives(): FinetuneObjective[] {
    return this.#objectives;
  }

  /**
   * TR's weight follows the default of the chosen set while it is left at the default: 1 under
   * exactly TR + RTL (seed 001's eq. 7), 0.8 otherwise (seed 000).
   */
  set objectives(next: FinetuneObjective[]) {
    if (this.values.alpha === defaultTrWeight(this.#objectives)) this.values.alpha = defaultTrWeight(next);
    this.#objectives = next;
  }

  /** A quick first run: QUICK_RUN_EPOCHS epochs and no self-training; turned off, the epochs proposed for the project's size again. */
  get quick(): boolean {
    return this.#quick;
  }

  set quick(on: boolean) {
    this.#quick = on;
    this.values.epochs = on ? QUICK_RUN_EPOCHS : this.#bilstmEpochs;
    this.values.selfTrainEpochs = on ? 0 : this.#selfTrainEpochs;
  }

  get method(): TrainableMethodName {
    return this.#method;
  }

  /** Choosing between a BiLSTM method and encoder-finetune swaps in that family's epochs and learning rate (a pretrained encoder fine-tunes for an epoch at 5e-5; a BiLSTM from scratch needs 5e-3 and many epochs). */
  set method(m: TrainableMethodName) {
    const wasFinetune = this.finetune;
    this.#method = m;
    if (this.finetune === wasFinetune) return;
    this.values.epochs = this.finetune ? ENCODER_FINETUNE_DEFAULTS.epochs : this.#quick ? QUICK_RUN_EPOCHS : this.#bilstmEpochs;
    this.values.lr = this.finetune ? ENCODER_FINETUNE_DEFAULTS.lr : BILSTM_DEFAULTS.lr;
  }

  /** Whether the method fine-tunes the project's pretrained encoder (its options are encoder-finetune's), else a BiLSTM's. */
  get finetune(): boolean {
    return capabilitiesOf(this.#method).pretrainedEncoder;
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
    for (const field of KEPT_WHEN_CONTINUED) {
      const value = c[field];
      if (value !== undefined) f.values[field] = value;
    }
    for (const field of WEIGHT_FIELDS) if (c.weights) f.values[field] = c.weights[field];
    if (pairs !== undefined) f.values.selfTrainEpochs = defaultSelfTrainEpochs(pairs, { continued: true });
    return f;
  }

  /** Whether a field counts: each method's own, the contrastive ones with bilstm-ctl, an objective's weight with that objective, the threshold with pseudo-labels or self-training (and always when fine-tuning: the encoder's own links at or above it supervise pairs without gold), a fine-tuning's epochs unless a step count decides them. */
  uses(field: NumberField): boolean {
    if (this.finetune) {
      if (BILSTM_ONLY.includes(field)) return false;
      if (field === 'epochs') return this.values.maxSteps === null;
      const objective = FINETUNE_OBJECTIVES.find((o) => OBJECTIVE_WEIGHT[o] === field);
      return objective === undefined || this.objectives.includes(objective);
    }
    if (FINETUNE_ONLY.includes(field)) return false;
    if (CONTRASTIVE_OPTIONS.includes(field)) return hasContrastiveLoss(this.method);
    if (field === 'threshold') return this.pseudoAlignmentId !== null || (this.values.selfTrainEpochs ?? 0) > 0;
    return true;
  }

  private check(): { options: TrainOptions; errors: null } | { options: null; errors: FieldErrors } {
    const errors: FieldErrors = {};
    const v = this.values;
    for (const [field, value] of Object.entries(v) as [NumberField, number | null][]) {
      if (this.uses(field) && (value === null ? !OPTIONAL_FIELDS.includes(field) : !Number.isFinite(value))) errors[field] = 'required';
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
    const given = Object.fromEntries(OPTIONAL_FIELDS.filter((f) => this.values[f] !== null).map((f) => [f, n(f)]));
    return {
      ...(this.name.trim() ? { name: this.name.trim() } : {}),
      method: this.method,
      ...(this.uses('epochs') ? { epochs: n('epochs') } : {}),
      lr: n('lr'),
      useGold: this.useGold,
      useRejected: this.useRejected,
      lowercase: false,
      device: this.device,
      ...(this.pseudoAlignmentId !== null ? { pseudoAlignmentId: this.pseudoAlignmentId } : {}),
      threshold: n('threshold'),
      checkpointEvery: n('checkpointEvery'),
      finetune: {
        objectives: chosen,
        ...weights,
        batch: n('pairsPerStep'),
        accumulate: n('accumulate'),
        ...given,
        selectBy: this.selectBy,
        soLabels: this.soLabels,
        languageEmbeddings: this.languageEmbeddings,
      },
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
