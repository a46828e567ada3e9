// Runs both directions of a training plan: in two worker threads (large corpora), or
// interleaved in the calling thread (small ones, where starting threads costs more than
// the work). Progress counts finished iterations over both directions; an AbortSignal
// stops the work with CancelledError.
import { CancelledError } from '../errors.ts';
import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../jobs/spawn-worker.ts';
import { newBarrierState } from './barrier.ts';
import { makeTrainer, type DirectionJob, type DirectionResult } from './direction-job.ts';

export interface RunHooks {
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Below this many cells (source × target positions summed) training stays in-thread. */
export const IN_THREAD_CELLS = 2_000_000;

/** Interleaves both directions, yielding to the event loop between iterations (cancel). */
export async function runInThread(jobs: [DirectionJob, DirectionJob], hooks: RunHooks = {}): Promise<[DirectionResult, DirectionResult]> {
  const tr = jobs.map(makeTrainer);
  const total = tr[0].total;
  for (let it = 0; it < total; it++) {
    if (it > 0) await new Promise((resolve) => setImmediate(resolve));
    if (hooks.signal?.aborted) throw new CancelledError();
    tr[0].expect(it);
    tr[1].expect(it);
    if (tr[0].agreement) {
      tr[0].agree(jobs[0].peer.post);
      tr[1].agree(jobs[1].peer.post);
    }
    tr[0].maximize();
    tr[1].maximize();
    hooks.onProgress?.(2 * (it + 1), 2 * total);
  }
  return [tr[0].result(), tr[1].result()];
}

function totalIterations(job: DirectionJob): number {
  return Math.max(
    1,
    job.plan.stages.reduce((s, x) => s + x.iterations, 0),
  );
}

/** Two idle training threads, started early; each takes one job. */
export type WorkerPair = [Worker, Worker];

export function startWorkers(): WorkerPair {
  const spawn = () => spawnWorker(new URL('./align.worker.ts', import.meta.url));
  return [spawn(), spawn()];
}

export function stopWorkers(workers: WorkerPair): void {
  workers.forEach((w) => void w.terminate());
}

export function runInWorkers(
  workers: WorkerPair,
  jobs: [DirectionJob, DirectionJob],
  hooks: RunHooks = {},
): Promise<[DirectionResult, DirectionResult]> {
  const barrier = newBarrierState();
  const total = 2 * totalIterations(jobs[0]);
  let done = 0;
  const stop = () => stopWorkers(workers);
  return new Promise((resolve, reject) => {
    const results: (DirectionResult | undefined)[] = [undefined, undefined];
    const fail = (err: unknown) => {
      stop();
      hooks.signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const onAbort = () => fail(new CancelledError());
    if (hooks.signal?.aborted) return onAbort();
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    workers.forEach((w, d) => {
      w.on('error', fail);
      w.on('message', (m: { type: string; result?: DirectionResult }) => {
        if (m.type === 'iteration') hooks.onProgress?.(++done, total);
        if (m.type !== 'done') return;
        results[d] = m.result;
        void w.terminate();
        if (results[0] && results[1]) {
          hooks.signal?.removeEventListener('abort', onAbort);
          resolve([results[0], results[1]]);
        }
      });
      w.postMessage({ job: jobs[d], barrier });
    });
  });
}
