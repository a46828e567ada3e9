// A Models-page run recorded as it trains: its metrics written through one writer (buffered,
// one transaction per FLUSH_MS, and at the end), the run marked done when the work returns,
// or cancelled / failed (with the error) when it throws, in which case the checkpoint
// folders the run did not record are removed. The BiLSTM runs (train-job.ts) and the
// encoder fine-tuning runs (finetune-job.ts) share it.
import { CancelledError } from '../errors.ts';
import type { Db } from '../store/database.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { bestCheckpoint, checkpointsOf, finishRun, metricWriter, type MetricWriter } from '../store/training-runs.ts';
import { pruneCheckpoints, runDir } from './run-files.ts';

const FLUSH_MS = 1000;

/** A timer flushing `metrics`; a flush that fails (the project locked past its busy timeout) keeps its points for the next. */
function flushEvery(db: Db, metrics: MetricWriter): ReturnType<typeof setInterval> {
  return setInterval(() => {
    try {
      if (db.open) metrics.flush();
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
  const db = store.db;
  const folder = runDir(store.path, runId);
  const metrics = metricWriter(db, runId);
  const flusher = flushEvery(db, metrics);
  try {
    const summary = await body(metrics);
    metrics.flush();
    finishRun(db, runId, 'done');
    return summary;
  } catch (err) {
    if (db.open) {
      metrics.flush();
      const cancelled = err instanceof CancelledError || signal.aborted;
      finishRun(db, runId, cancelled ? 'cancelled' : 'failed', cancelled ? null : ((err as Error).message ?? String(err)));
      pruneCheckpoints(folder, new Set(checkpointsOf(db, runId).map((c) => c.epoch)));
    }
    throw err;
  } finally {
    clearInterval(flusher);
  }
}

/** ", best dev AER x at epoch e" for a run summary, or "" when no checkpoint was scored. */
export function bestDevAer(db: Db, runId: number): string {
  const best = bestCheckpoint(checkpointsOf(db, runId));
  return best?.aer != null ? `, best dev AER ${best.aer.toFixed(3)} at epoch ${best.epoch}` : '';
}
