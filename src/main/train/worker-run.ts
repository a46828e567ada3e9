// Runs one request in a fresh neural.worker.ts thread and settles with its outcome:
// reports go to `onReport` as they arrive; the job's AbortSignal sets the shared cancel
// flag (the worker stops at its next step) and, should the worker not stop within
// CANCEL_GRACE_MS, terminates it. A worker that throws, crashes or exits early rejects
// with its error. The thread is always terminated, and gone, before the outcome settles
// (so no checkpoint is still being written when the job tidies the run's folder).
import { spawnWorker } from '../jobs/spawn-worker.ts';
import { setCancelled, type WorkerReport, type WorkerRequest } from './neural-protocol.ts';

const CANCEL_GRACE_MS = 15_000;

export function runInWorker(request: WorkerRequest, onReport: (r: WorkerReport) => void, signal: AbortSignal): Promise<'done' | 'cancelled'> {
  const worker = spawnWorker(new URL('./neural.worker.ts', import.meta.url));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = () => {};
  const outcome = new Promise<'done' | 'cancelled'>((resolve, reject) => {
    onAbort = () => {
      setCancelled(request.cancel);
      timer = setTimeout(() => resolve('cancelled'), CANCEL_GRACE_MS);
    };
    worker.on('message', (r: WorkerReport) => {
      if (r.type === 'done' || r.type === 'cancelled') return resolve(r.type);
      if (r.type === 'error') return reject(new Error(r.message));
      try {
        onReport(r);
      } catch (err) {
        reject(err);
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the training thread stopped unexpectedly (exit code ${code})`)));
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  worker.postMessage(request);
  return outcome.finally(async () => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    await worker.terminate();
  });
}
