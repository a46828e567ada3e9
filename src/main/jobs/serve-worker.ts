// The worker side of the job protocol (worker-protocol.ts): a *.worker.ts module calls
// serveWorker(task) once, and each 'start' from its host runs `task(input, ctx)`, where ctx
// is the same JobContext a job on the main thread gets (progress, and a signal the task
// checks with checkCancelled) plus `report` for the records its job keeps. The outcome is
// sent when the task has returned, after its own `finally` blocks (an ONNX session released
// there is gone before the host may terminate the thread).
import { parentPort, type Transferable } from 'node:worker_threads';
import type { JobContext, JobProgress } from './job-context.ts';
import { cancelFlagRaised, type HostMessage, toWire, type WorkerMessage } from './worker-protocol.ts';

export interface WorkerContext<E = never> extends JobContext {
  /** Sends a record to the job (never throttled or dropped, unlike progress). */
  readonly report: (r: E) => void;
}

export type WorkerTask<I, R, E = never> = (input: I, ctx: WorkerContext<E>) => R | Promise<R>;

export interface ServeOptions<R> {
  /** Buffers of the result to move to the host rather than copy. */
  transfer?: (result: R) => Transferable[];
}

const abortedOf = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')!.get!;

/**
 * The controller's signal, also aborted once the host raises the task's shared flag: its
 * `aborted` reads the flag, so a task that checks it between synchronous steps sees a
 * cancel the event loop has not delivered yet (and its abort listeners then run).
 */
function flaggedSignal(controller: AbortController, flag: SharedArrayBuffer): AbortSignal {
  const signal = controller.signal;
  Object.defineProperty(signal, 'aborted', {
    get(): boolean {
      if (!abortedOf.call(signal) && cancelFlagRaised(flag)) controller.abort();
      return abortedOf.call(signal) as boolean;
    },
  });
  return signal;
}

/** Serves `task` to this worker's host until the thread ends. */
export function serveWorker<I, R, E = never>(task: WorkerTask<I, R, E>, options: ServeOptions<R> = {}): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorker: not in a worker thread');
  const running = new Map<number, AbortController>();
  port.on('message', (m: HostMessage<I>) => {
    if (m.type === 'cancel') return void running.get(m.id)?.abort();
    const { id } = m;
    const controller = new AbortController();
    const signal = m.cancel ? flaggedSignal(controller, m.cancel) : controller.signal;
    running.set(id, controller);
    const post = (msg: WorkerMessage<R, E>, transfer?: Transferable[]) => port.postMessage(msg, transfer);
    const ctx: WorkerContext<E> = {
      signal,
      progress: (progress: JobProgress) => post({ type: 'progress', id, progress }),
      report: (report: E) => post({ type: 'report', id, report }),
    };
    void (async () => {
      try {
        const result = await task(m.input, ctx);
        post({ type: 'result', id, result }, options.transfer?.(result));
      } catch (err) {
        post({ type: 'error', id, error: toWire(err, signal.aborted) });
      } finally {
        running.delete(id);
      }
    })();
  });
}
