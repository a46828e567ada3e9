// How long a training run will take, from a measured step: the newest finished run of the
// project with the same method, dimension and batch size (pairs per step when fine-tuning
// an encoder, which has no dimension of its own to choose, and the same gradient
// accumulation: a step of more micro-batches takes longer) gives the pace (its training
// time over its optimiser steps, session builds included) and the steps an epoch takes
// per pair (its length buckets included); the new run's steps follow from its epochs and
// pairs, at most its step count (a fine-tuning's maxSteps, which alone decides without epochs). Without such a run, a few steps of the run itself are timed on the project's data
// ('models.timeRun'): that pace, taken for the same options, gives the estimate
// (estimateFromPace) for any number of epochs.
import type { TrainPace } from '../../shared/api.ts';
import type { ModelInfo, RunInfo } from '../../shared/models-api.ts';

export interface RunPlan {
  method: string;
  /** null: encoder-finetune (the encoder's size is the folder's). */
  dim: number | null;
  batchSize: number;
  /** Micro-batches per step (a fine-tuning's gradient accumulation; default 1). */
  accumulate?: number;
  /** null: as many as `maxSteps` needs. */
  epochs: number | null;
  /** The run's step count, when it has one. */
  maxSteps?: number;
  /** Pairs the run trains on. */
  pairs: number;
}

export interface RunEstimate {
  seconds: number;
  steps: number;
  secondsPerStep: number;
  /** The run whose pace was measured. */
  fromRun: number;
}

function pace(run: RunInfo): { secondsPerStep: number; stepsPerPairEpoch: number } | null {
  const last = run.checkpoints.at(-1);
  if (run.state !== 'done' || !run.finishedAt || !last || last.step <= 0 || run.pairs <= 0) return null;
  const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
  if (!(seconds > 0)) return null;
  return { secondsPerStep: seconds / last.step, stepsPerPairEpoch: last.step / last.epoch / run.pairs };
}

export function estimateRun(models: readonly ModelInfo[], plan: RunPlan): RunEstimate | null {
  if (plan.epochs === null && plan.maxSteps === undefined) return null;
  const comparable = models
    .flatMap((m) => m.runs)
    .filter(
      (r) =>
        r.config.method === plan.method &&
        (plan.dim === null
          ? r.config.finetune?.batch === plan.batchSize && (r.config.finetune?.accumulate ?? 1) === (plan.accumulate ?? 1)
          : r.config.dim === plan.dim && r.config.batchSize === plan.batchSize),
    )
    .sort((a, b) => b.id - a.id);
  for (const run of comparable) {
    const p = pace(run);
    if (!p) continue;
    const byEpochs = plan.epochs === null ? Infinity : Math.max(1, Math.round(p.stepsPerPairEpoch * plan.pairs * plan.epochs));
    const steps = Math.min(byEpochs, plan.maxSteps ?? Infinity);
    return { seconds: steps * p.secondsPerStep, steps, secondsPerStep: p.secondsPerStep, fromRun: run.id };
  }
  return null;
}

/** The options a timed pace holds for: another method, size or casing steps at another pace. */
export function paceKey(o: { method: string; dim?: number; batchSize?: number; lowercase?: boolean }): string {
  return JSON.stringify([o.method, o.dim ?? null, o.batchSize ?? null, o.lowercase ?? true]);
}

/** The time of a run of `epochs` epochs (self-training included) at a pace timed before it: the setup, then each step at the pace. */
export function estimateFromPace(pace: TrainPace, epochs: number): { seconds: number; steps: number } {
  const steps = Math.max(1, Math.round(pace.stepsPerEpoch * epochs));
  return { seconds: pace.setupSeconds + steps * pace.secondsPerStep, steps };
}
