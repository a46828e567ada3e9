// The one training loop of every trained family (the BiLSTM, encoder fine-tuning, the siamese
// head, Bi-Sent2Vec's Hogwild threads): epochs of steps; after an epoch's steps, on checkpoint
// epochs (every `every` epochs and the last), save → score → best; then stop early when
// `patience` scored checkpoints in a row did not beat the best. A family supplies what differs
// — how it draws an epoch, its step, its checkpoint save and its score (lower is better,
// e.g. AER) — and the loop owns the order, cancel checks, best tracking and the progress
// events, so that every family reports, cancels and keeps checkpoints the same way:
// - progress: one JobProgress per step (steps done of the run, a line with the epoch, its
//   mean loss, the speed and the ETA: step-meter.ts; the step's loss in `metrics`);
// - cancel: checked before every step and after every epoch (CancelledError); a checkpoint
//   saved as the cancel came is kept but not scored, and every earlier one stays;
// - events (onEvent): 'step' after each step, 'epoch' after each epoch with its checkpoint;
// - a step cap (maxSteps) ends the run inside an epoch: that epoch counts as the last (its
//   checkpoint saved and scored), its mean loss over the steps it ran.
import { CancelledError } from '../errors.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import { StepMeter } from './step-meter.ts';

/** A checkpoint's score: `value` ranks checkpoints (lower is better); `metrics` go to the curves. */
export interface FitScore {
  readonly value: number;
  readonly metrics?: Readonly<Record<string, number>>;
}

/** When a training saves its model, how, and how a saved model scores; `M` is the family's model. */
export interface Checkpoints<M> {
  /** save every `every` epochs, and after the last */
  readonly every: number;
  /** writes the model as it stands after `epoch` (1-based within the fit; its parameters are live: copy to keep) */
  save(epoch: number, model: M): void | Promise<void>;
  /** the saved model's score, or null when there is nothing to score it on */
  score?(epoch: number, model: M): FitScore | null | Promise<FitScore | null>;
}

/** What a family brings to the loop. */
export interface FitFamily<M> {
  readonly epochs: number;
  /** optimiser steps of every epoch */
  readonly stepsPerEpoch: number;
  /** stop after this many steps of the fit, mid-epoch if need be (default: every epoch's) */
  readonly maxSteps?: number;
  /** before an epoch's steps (0-based): draws its batches or order */
  beginEpoch?(epoch: number): void | Promise<void>;
  /** one step; `step` counts the fit's steps from 0; returns its loss */
  step(at: { epoch: number; index: number; step: number }): number | Promise<number>;
  /** after an epoch's steps: named numbers of the epoch for the log and the curves (e.g. the objectives' terms) */
  endEpoch?(epoch: number, meanLoss: number): Readonly<Record<string, number>> | void | Promise<Readonly<Record<string, number>> | void>;
  /** the model as it stands (what checkpoints save and score) */
  model(): M;
}

export type FitEvent =
  /** after each step: `step` counts the fit's steps from 1; `epoch` is 1-based */
  | { readonly type: 'step'; readonly epoch: number; readonly step: number; readonly loss: number }
  /** after each epoch: its mean loss and metrics, whether a checkpoint was saved, its score, and whether it is the best so far */
  | {
      readonly type: 'epoch';
      readonly epoch: number;
      readonly step: number;
      readonly loss: number;
      readonly metrics: Readonly<Record<string, number>>;
      readonly saved: boolean;
      readonly score: FitScore | null;
      readonly best: boolean;
    };

export interface FitOptions<M> {
  checkpoints?: Checkpoints<M>;
  /** stop once this many scored checkpoints in a row did not beat the best (default: never stop early) */
  patience?: number;
  onEvent?: (e: FitEvent) => void | Promise<void>;
  /** where this fit sits in a run of several (self-training after training): its progress line's word for an epoch, the steps before it, the run's steps in all */
  phase?: { label?: string; firstStep?: number; runSteps?: number };
}

export interface FitResult {
  /** epochs run (fewer than asked when stopped early) */
  epochs: number;
  steps: number;
  /** mean loss of each epoch */
  losses: number[];
  /** the best scored checkpoint, if any was scored */
  best: { epoch: number; score: FitScore } | null;
  stoppedEarly: boolean;
}

/** `p`, or CancelledError as soon as `signal` aborts: for a step's long waits (a session to compile) that cancel need not sit out. */
export function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CancelledError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Runs `family` for its epochs; throws CancelledError when `ctx.signal` aborts (checkpoints saved so far stay). */
export async function fit<M>(family: FitFamily<M>, ctx: JobContext, o: FitOptions<M> = {}): Promise<FitResult> {
  const { epochs, stepsPerEpoch } = family;
  const firstStep = o.phase?.firstStep ?? 0;
  const limit = Math.min(family.maxSteps ?? Infinity, epochs * stepsPerEpoch);
  const meter = new StepMeter(stepsPerEpoch, epochs, { firstStep, label: o.phase?.label, steps: limit });
  const total = o.phase?.runSteps ?? meter.total;
  const every = o.checkpoints?.every;
  const losses: number[] = [];
  let best: FitResult['best'] = null;
  let sinceBest = 0;
  let step = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    checkCancelled(ctx.signal);
    await family.beginEpoch?.(epoch);
    let sum = 0;
    let ran = 0;
    for (let index = 0; index < stepsPerEpoch && step < limit; index++) {
      checkCancelled(ctx.signal);
      const loss = await family.step({ epoch, index, step });
      sum += loss;
      step++;
      ran++;
      await o.onEvent?.({ type: 'step', epoch: epoch + 1, step, loss });
      ctx.progress({ done: firstStep + step, total, message: meter.step(firstStep + step, loss), metrics: { loss } });
    }
    const loss = sum / Math.max(1, ran);
    const last = epoch + 1 === epochs || (family.maxSteps !== undefined && step >= family.maxSteps);
    losses.push(loss);
    const metrics = (await family.endEpoch?.(epoch, loss)) ?? {};
    const saved = every !== undefined && ((epoch + 1) % every === 0 || last);
    if (saved) await o.checkpoints!.save(epoch + 1, family.model());
    const score = saved && !ctx.signal.aborted ? ((await o.checkpoints!.score?.(epoch + 1, family.model())) ?? null) : null;
    const isBest = !!score && (!best || score.value < best.score.value);
    if (isBest) [best, sinceBest] = [{ epoch: epoch + 1, score: score! }, 0];
    else if (score) sinceBest++;
    await o.onEvent?.({ type: 'epoch', epoch: epoch + 1, step, loss, metrics, saved, score, best: isBest });
    checkCancelled(ctx.signal);
    if (o.patience !== undefined && sinceBest >= o.patience) return { epochs: epoch + 1, steps: step, losses, best, stoppedEarly: !last };
    if (last) return { epochs: epoch + 1, steps: step, losses, best, stoppedEarly: false };
  }
  return { epochs, steps: step, losses, best, stoppedEarly: false };
}
