// The host side of the job protocol (worker-protocol.ts). runInWorker(moduleUrl, input, ctx)
// runs one task in a fresh worker thread as part of a job: the worker's progress goes to
// ctx.progress, its reports to onReport, ctx.signal cancels it, and the promise settles with
// its result or its error (CancelledError for a cancel) once the worker has answered; the
// thread, idle by then, is terminated. A WorkerClient keeps one thread for many tasks (the
// EM slices, the segmentation pool). A worker is never terminated while a task runs in it:
// a progress or report the job cannot take (its callback throws) cancels the task, and the
// job fails with that error once the worker has stopped by itself.
import type { Transferable, Worker } from 'node:worker_threads';
import { checkCancelled, type JobContext } from './job-context.ts';
import { spawnWorker, type SpawnOptions } from './spawn-worker.ts';
import { fromWire, type HostMessage, newCancelFlag, raiseCancelFlag, type WorkerMessage } from './worker-protocol.ts';

export interface TaskOptions<E> {
  /** Called with each report of the task, in order. */
  onReport?: (report: E) => void;
  /** Buffers of the input to move to the worker rather than copy. */
  transfer?: Transferable[];
}

interface Pending<R, E> {
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
  ctx?: JobContext;
  onReport?: (report: E) => void;
  cancel: () => void;
  /** what the job could not take; the task's outcome is replaced by it */
  failure: { error: unknown } | null;
}

/** One worker thread serving tasks (serve-worker.ts) of module `moduleUrl`. */
export class WorkerClient<I, R, E = never> {
  readonly worker: Worker;
  private readonly pending = new Map<number, Pending<R, E>>();
  private nextId = 0;
  private closing = false;
  private dead: Error | null = null;

  constructor(moduleUrl: URL, options: SpawnOptions = {}) {
    this.worker = spawnWorker(moduleUrl, options);
    this.worker.on('message', (m: WorkerMessage<R, E>) => this.receive(m));
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.failAll(new Error(`a worker thread stopped unexpectedly (exit code ${code})`));
    });
  }

  /** Runs one task; without a context it reports nowhere and cannot be cancelled. */
  run(input: I, ctx?: JobContext, options: TaskOptions<E> = {}): Promise<R> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    const flag = ctx ? newCancelFlag() : undefined;
    const post = (m: HostMessage<I>, transfer?: Transferable[]) => this.worker.postMessage(m, transfer);
    return new Promise<R>((resolve, reject) => {
      let cancelled = false;
      const cancel = () => {
        if (cancelled) return;
        cancelled = true;
        if (flag) raiseCancelFlag(flag);
        post({ type: 'cancel', id });
      };
      const signal = ctx?.signal;
      const settle =
        <T>(f: (x: T) => void) =>
        (x: T) => {
          signal?.removeEventListener('abort', cancel);
          this.pending.delete(id);
          f(x);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject), ctx, onReport: options.onReport, cancel, failure: null });
      post({ type: 'start', id, input, ...(flag ? { cancel: flag } : {}) }, options.transfer);
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  /** Terminates the thread (call when no task runs, or the thread is known to hold no ONNX session). */
  async close(): Promise<void> {
    this.closing = true;
    await this.worker.terminate();
  }

  private receive(m: WorkerMessage<R, E>): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.type === 'result') return p.failure ? p.reject(p.failure.error) : p.resolve(m.result);
    if (m.type === 'error') return p.reject(p.failure ? p.failure.error : fromWire(m.error));
    if (p.failure) return;
    try {
      if (m.type === 'progress') p.ctx?.progress(m.progress);
      else p.onReport?.(m.report);
    } catch (error) {
      p.failure = { error };
      p.cancel();
    }
  }

  private failAll(err: Error): void {
    this.dead ??= err;
    for (const p of [...this.pending.values()]) p.reject(err);
  }
}

/** Runs one task of module `moduleUrl` on `input` in a fresh worker thread (see the header). */
export async function runInWorker<I, R, E = never>(
  moduleUrl: URL,
  input: I,
  ctx: JobContext,
  options: TaskOptions<E> & { spawn?: SpawnOptions } = {},
): Promise<R> {
  checkCancelled(ctx.signal);
  const client = new WorkerClient<I, R, E>(moduleUrl, options.spawn);
  try {
    return await client.run(input, ctx, options);
  } finally {
    await client.close();
  }
}
