// A Models-page run recorded as it trains: its metrics written through one writer (buffered,
// one transaction per FLUSH_MS, and at the end), the run marked done when the work returns,
// or cancelled / failed (with the error) when it throws, in which case the checkpoint
// folders the run did not record are removed. The BiLSTM runs (train-job.ts) and the
// encoder fine-tuning runs (finetune-job.ts) share it, and record their workers' fit-loop
// events the same way (recordFitEvent).
import { CancelledError } from '../errors.ts';
import type { ProjectStore } from '../store/project-store.ts';
import {
  bestCheckpointOfRun,
  checkpointsOf,
  finishRun,
  metricWriter,
  type MetricWriter,
  recordCheckpoint,
} from '../store/training-runs.ts';
import type { FitEvent } from './fit-loop.ts';
import { pruneCheckpoints, runDir } from './run-files.ts';

const FLUSH_MS = 1000;

/** A timer flushing `metrics`; a flush that fails (the project locked past its busy timeout) keeps its points for the next. */
function flushEvery(store: ProjectStore, metrics: MetricWriter): ReturnType<typeof setInterval> {
  return setInterval(() => {
    try {
      if (store.isOpen()) metrics.flush();
    } catch {
      // retried at the next tick; the job's last flush reports a lasting failure
    }
  }, FLUSH_MS);
}

/** Runs `body` as the work of run `runId` (see the header). */
export async function recordedRun(
  store: ProjectStore,
  runId: number,
  signal: AbortSignal,
  body: (metrics: MetricWriter) => Promise<string>,
): Promise<string> {
  const folder = runDir(store.path, runId);
  const metrics = metricWriter(store, runId);
  const flusher = flushEvery(store, metrics);
  try {
    const summary = await body(metrics);
    metrics.flush();
    finishRun(store, runId, 'done');
    return summary;
  } catch (err) {
    if (store.isOpen()) {
      metrics.flush();
      const cancelled = err instanceof CancelledError || signal.aborted;
      finishRun(store, runId, cancelled ? 'cancelled' : 'failed', cancelled ? null : ((err as Error).message ?? String(err)));
      pruneCheckpoints(folder, new Set(checkpointsOf(store, runId).map((c) => c.epoch)));
    }
    throw err;
  } finally {
    clearInterval(flusher);
  }
}

/** Records a training's fit-loop event: a step's loss; an epoch's mean loss, its checkpoint's scores (the curves) and the checkpoint. */
export function recordFitEvent(store: ProjectStore, runId: number, metrics: MetricWriter, e: FitEvent): void {
  if (e.type === 'step') return metrics.add('loss', e.step, e.loss);
  metrics.add('epoch_loss', e.step, e.loss);
  for (const [name, value] of Object.entries(e.score?.metrics ?? {})) metrics.add(name, e.step, value);
  metrics.flush();
  if (e.saved) recordCheckpoint(store, runId, e.epoch, e.step);
}

/** ", best dev AER x at epoch e" for a run summary (its retrieval P@1 first when it ranks by it), or "" when no checkpoint was scored. */
export function bestDevScore(store: ProjectStore, runId: number): string {
  const best = bestCheckpointOfRun(store, runId);
  const aer = best?.aer != null ? `dev AER ${best.aer.toFixed(3)}` : null;
  const p1 = best?.retrieval != null ? `dev retrieval P@1 ${best.retrieval.toFixed(3)}` : null;
  const [lead, other] = best?.by === 'retrieval' ? [p1 ?? aer, p1 && aer] : [aer ?? p1, aer && p1];
  return lead ? `, best ${lead} at epoch ${best!.epoch}${other ? ` (${other})` : ''}` : '';
}
