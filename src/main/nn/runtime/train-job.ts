// Main-thread handle for a training job running in a worker thread: progress callbacks,
// pause/resume/cancel, and a promise of the outcome. This is the small interface a
// generic job runtime (src/main/jobs) can wrap.
import { spawnWorker } from '../../jobs/spawn-worker.ts';
import type { Control, Progress, Report, TrainJob } from './protocol.ts';

export interface TrainOutcome {
  status: 'done' | 'cancelled';
  step: number;
  losses: number[];
}

export interface TrainHandle {
  pause(): void;
  resume(): void;
  cancel(): void;
  readonly outcome: Promise<TrainOutcome>;
}

export interface TrainCallbacks {
  onProgress?: (p: Progress) => void;
  onLog?: (line: string) => void;
}

export function startTraining<C>(job: TrainJob<C>, cb: TrainCallbacks = {}): TrainHandle {
  const worker = spawnWorker(new URL('./train.worker.ts', import.meta.url));
  const send = (c: Control) => worker.postMessage(c);
  const outcome = new Promise<TrainOutcome>((resolve, reject) => {
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`training worker exited (${code}) before finishing`)));
    worker.on('message', (r: Report) => {
      if (r.type === 'progress') cb.onProgress?.(r);
      else if (r.type === 'log') cb.onLog?.(r.line);
      else if (r.type === 'error') reject(new Error(r.message));
      else resolve({ status: r.type, step: r.step, losses: r.losses });
    });
  });
  const finished = outcome.finally(() => worker.terminate());
  finished.catch(() => undefined);
  send({ type: 'start', job });
  return {
    pause: () => send({ type: 'pause' }),
    resume: () => send({ type: 'resume' }),
    cancel: () => send({ type: 'cancel' }),
    outcome: finished,
  };
}
