// Timing a BiLSTM training run before it is made (the Train… dialog's estimate when no
// finished run of the same method and size has measured a pace on this machine): the run's
// own worker task on the project's data (without its self-training), stopped after WARMUP +
// MEASURED optimiser steps. The measured steps' wall time gives the seconds a step takes (the
// warm-up steps, which build the training sessions, are left out of it); the worker's plan
// gives the steps an epoch takes; the run's steps are its epochs' and self-training epochs'
// (the options as the worker completed them for the project's size).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrainOptions } from '../../shared/models-api.ts';
import type { TrainPace } from '../../shared/api.ts';
import { CancelledError, UserError } from '../errors.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { NeuralReport, NeuralTask } from './neural-protocol.ts';
import { NEURAL_WORKER } from './train-job.ts';

const WARMUP = 2;
const MEASURED = 8;

/** Runs the first steps of a training with options `o` on the project's data and times them (see the header). */
export async function measureTrainPace(store: ProjectStore, o: TrainOptions, ctx: JobContext): Promise<TrainPace> {
  const folder = mkdtempSync(join(tmpdir(), 'mekong-pace-'));
  const stop = new AbortController();
  const cancel = () => stop.abort();
  ctx.signal.addEventListener('abort', cancel);
  const started = performance.now();
  let stepsPerEpoch = 0;
  let run: TrainOptions | undefined;
  const times: number[] = [];
  const onReport = (r: NeuralReport) => {
    if (r.type === 'setup') run = r.options;
    if (r.type === 'plan' && stepsPerEpoch === 0) stepsPerEpoch = r.stepsPerEpoch;
    // Steps the worker reports after it was asked to stop are not timed.
    if (r.type !== 'step' || stop.signal.aborted) return;
    times.push(performance.now());
    ctx.progress({ done: Math.min(times.length, WARMUP + MEASURED), total: WARMUP + MEASURED, message: 'timing training steps' });
    if (times.length > WARMUP + MEASURED) stop.abort();
  };
  try {
    ctx.progress({ done: 0, total: WARMUP + MEASURED, message: 'reading the pairs' });
    const task: NeuralTask = { type: 'train', projectPath: store.path, options: o, runFolder: folder, withoutSelfTraining: true };
    await runInWorker<NeuralTask, null, NeuralReport>(NEURAL_WORKER, task, { ...ctx, signal: stop.signal }, { onReport });
  } catch (err) {
    // Stopping the training once its steps are timed is the plan; a cancel of the job is not.
    if (!(err instanceof CancelledError) || ctx.signal.aborted) throw err;
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    rmSync(folder, { recursive: true, force: true });
  }
  checkCancelled(ctx.signal);
  const measured = times.slice(Math.min(WARMUP, Math.max(0, times.length - 2)));
  if (measured.length < 2 || stepsPerEpoch === 0 || !run) throw new UserError('the training ended before two of its steps could be timed');
  const secondsPerStep = (measured.at(-1)! - measured[0]) / 1000 / (measured.length - 1);
  const setupSeconds = Math.max(0, (times[0] - started) / 1000 - secondsPerStep);
  const steps = stepsPerEpoch * (run.epochs! + (run.selfTrainEpochs ?? 0));
  return {
    secondsPerStep,
    stepsPerEpoch,
    steps,
    setupSeconds,
    seconds: setupSeconds + steps * secondsPerStep,
    measuredSteps: measured.length - 1,
  };
}
