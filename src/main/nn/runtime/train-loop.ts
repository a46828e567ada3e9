// The training loop a worker runs: builds the recipe's graph, steps the Trainer, reports
// progress (step, loss, throughput, ETA), honours pause/resume/cancel between steps and
// writes checkpoints. Free of worker plumbing, so it is usable (and testable) anywhere.
import { loadCheckpoint, saveCheckpoint } from '../checkpoint/checkpoint.ts';
import { Rng } from '../init.ts';
import type { Progress, Recipe, Report, TrainJob } from './protocol.ts';
import { Trainer } from './trainer.ts';

export interface LoopControl {
  /** Resolves when the loop may go on; 'cancel' stops it. Called between steps. */
  checkpoint(): Promise<'go' | 'cancel'>;
  report(r: Report): void;
}

const PROGRESS_INTERVAL_MS = 100;

export async function runTraining(job: TrainJob, recipe: Recipe, ctl: LoopControl): Promise<void> {
  const rng = new Rng(job.seed ?? 1);
  const { graph, loss } = recipe.build(job.config, rng);
  const log = (line: string) => ctl.report({ type: 'log', line });
  const threads = job.deterministic ? 1 : undefined;
  const trainer = await Trainer.create(graph, loss, { ...recipe.options(job.config), device: job.device, threads, log });
  if (job.resumeFrom) trainer.restore(loadCheckpoint(job.resumeFrom).state);
  const perStep = recipe.examplesPerStep?.(job.config) ?? 1;
  const losses: number[] = [];
  const start = performance.now();
  const first = trainer.state.step;
  let lastReport = 0;
  let cancelled = false;
  try {
    while (trainer.state.step < job.steps) {
      if ((await ctl.checkpoint()) === 'cancel') {
        cancelled = true;
        break;
      }
      const l = await trainer.step(await recipe.batch(job.config, trainer.state.step, rng));
      losses.push(l);
      const now = performance.now();
      const done = trainer.state.step === job.steps;
      if (done || now - lastReport >= PROGRESS_INTERVAL_MS) {
        lastReport = now;
        ctl.report({ type: 'progress', ...progress(trainer.state.step, first, job.steps, l, (now - start) / 1000, perStep) });
      }
      const every = job.checkpointEvery ?? 0;
      if (job.checkpointDir && (done || (every > 0 && trainer.state.step % every === 0))) {
        saveCheckpoint(job.checkpointDir, trainer.state, { model: job.config });
      }
    }
  } finally {
    await trainer.release();
  }
  // The outcome is reported only once the sessions are released: the job's owner
  // terminates the worker on it, and a thread torn down while onnxruntime frees a session
  // aborts the whole process ("terminate called after throwing … Napi::Error").
  const step = trainer.state.step;
  ctl.report(cancelled ? { type: 'cancelled', step, losses } : { type: 'done', step, loss: losses.at(-1) ?? NaN, losses });
}

function progress(step: number, first: number, total: number, loss: number, seconds: number, perStep: number): Progress {
  const rate = (step - first) / Math.max(seconds, 1e-9);
  return { step, total, loss, stepsPerSecond: rate, examplesPerSecond: rate * perStep, etaSeconds: (total - step) / rate };
}
