// The "Train…" form's state: every TrainOptions field as the form edits it (numbers are
// null while their input is empty), prefilled with the neural aligner's defaults (the
// epochs for the project's size, shared/epochs.ts) — or, to
// continue a run from one of its checkpoints, with that run's settings — and its
// validation. Limits come from the contract's schema (one source of truth); its issues
// are turned into one short message per field, shown beside that field.
import type { z } from 'zod';
import { defaultEpochs } from '../../../shared/epochs.ts';
import { type RunInfo, trainOptionsSchema, type TrainOptions } from '../../../shared/models-api.ts';
import { BILSTM_DEFAULTS, NEURAL_METHODS } from '../../../shared/methods.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';
import type { DeviceSetting } from '../../../shared/device-settings.ts';

export type TrainMethod = (typeof NEURAL_METHODS)[number];
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
  | 'checkpointEvery';
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
};

const WEIGHT_FIELDS = ['base', 'awp', 'wtr'] as const;

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
  method = $state<TrainMethod>(NEURAL_METHODS[0]);
  values = $state<Record<NumberField, number | null>>({ ...TRAIN_DEFAULTS });
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

  /** A form for a project of `pairs` sentence pairs: its epochs are the default for that size. */
  constructor(pairs?: number) {
    if (pairs !== undefined) this.values.epochs = defaultEpochs(pairs);
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
      selfTrainEpochs: c.selfTrainEpochs,
      checkpointEvery: c.checkpointEvery,
    };
    for (const [field, value] of Object.entries(given) as [NumberField, number | undefined][])
      if (value !== undefined) f.values[field] = value;
    return f;
  }

  /** Whether a field counts: the contrastive ones with bilstm-ctl, the threshold with pseudo-labels or self-training. */
  uses(field: NumberField): boolean {
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
    if (WEIGHT_FIELDS.every((w) => v[w] === 0)) errors.weights = 'at least one objective weight must be above 0';
    const n = (field: NumberField) => v[field] ?? Number.NaN;
    const parsed = trainOptionsSchema.safeParse({
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
    });
    for (const issue of parsed.error?.issues ?? []) {
      const field = String(issue.path[issue.path.length - 1]) as NumberField | 'name';
      errors[field] ??= describe(issue);
    }
    if (parsed.success && !Object.keys(errors).length) return { options: parsed.data, errors: null };
    return { options: null, errors };
  }
}
