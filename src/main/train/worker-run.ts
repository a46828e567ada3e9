// Runs one request in a fresh neural.worker.ts thread and settles with its outcome:
// reports go to `onReport` as they arrive; the job's AbortSignal sets the shared cancel
// flag, and the worker stops at its next step or batch and says so. It is never terminated
// while it works: a thread torn down inside onnxruntime (building or freeing a session)
// aborts the whole process, so a cancel during the first session builds waits for them.
// A worker that throws, crashes or exits early, or a report `onReport` throws on, rejects
// with that error. The thread is terminated, idle, and gone before the outcome settles (so
// no checkpoint is still being written when the job tidies the run's folder).
import { spawnWorker } from '../jobs/spawn-worker.ts';
import { setCancelled, type WorkerReport, type WorkerRequest } from './neural-protocol.ts';

export function runInWorker(
  request: WorkerRequest,
  onReport: (r: WorkerReport) => void,
  signal: AbortSignal,
): Promise<'done' | 'cancelled'> {
  const worker = spawnWorker(new URL('./neural.worker.ts', import.meta.url));
  const onAbort = () => setCancelled(request.cancel);
  // A report the job cannot take (onReport throws) stops the worker the same way as a cancel.
  let failure: unknown = null;
  const outcome = new Promise<'done' | 'cancelled'>((resolve, reject) => {
    worker.on('message', (r: WorkerReport) => {
      if (r.type === 'done' || r.type === 'cancelled') return failure === null ? resolve(r.type) : reject(failure);
      if (r.type === 'error') return reject(failure ?? new Error(r.message));
      if (failure !== null) return;
      try {
        onReport(r);
      } catch (err) {
        failure = err;
        setCancelled(request.cancel);
      }
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the training thread stopped unexpectedly (exit code ${code})`)));
  });
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  worker.postMessage(request);
  return outcome.finally(async () => {
    signal.removeEventListener('abort', onAbort);
    await worker.terminate();
  });
}
