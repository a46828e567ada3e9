// The one message protocol between a job's thread and its worker threads (worker-host.ts
// runs tasks, serve-worker.ts serves them). Every task is numbered; the host sends
//   start   { id, input, cancel? }   run the worker's task on `input`
//   cancel  { id }                   abort the task's AbortSignal
// and the worker answers with any number of
//   progress { id, progress }        a JobProgress, for the job's progress bar
//   report   { id, report }          a record the job keeps as it comes (a step's loss, a saved
//                                    checkpoint, the device used): unlike progress, never dropped
// then exactly one of
//   result  { id, result }
//   error   { id, error }            the task threw: cancelled, a user error, or a failure
// A worker answers only once its task has returned, so a worker holding ONNX sessions has
// released them when its outcome arrives (terminating it inside onnxruntime aborts the
// process). A cancel also sets the task's shared flag (`cancel`): a task busy in synchronous
// work (an ONNX step, a Hogwild epoch) sees its signal aborted at its next check without
// returning to the event loop, where the cancel message would wait.
import { CancelledError, InputError, UserError } from '../errors.ts';
import type { JobProgress } from './job-context.ts';

export type HostMessage<I> = { type: 'start'; id: number; input: I; cancel?: SharedArrayBuffer } | { type: 'cancel'; id: number };

export type WorkerMessage<R, E> =
  | { type: 'progress'; id: number; progress: JobProgress }
  | { type: 'report'; id: number; report: E }
  | { type: 'result'; id: number; result: R }
  | { type: 'error'; id: number; error: WireError };

/** A task's error as it crosses the thread boundary: its class by kind, so the host throws the same class. */
export type WireError =
  | { kind: 'cancelled' }
  | { kind: 'input'; file: string; line: number; reason: string }
  | { kind: 'user'; message: string }
  | { kind: 'failure'; message: string; stack?: string };

/** A task's error as sent; any error thrown after the task's signal was aborted counts as its cancel. */
export function toWire(err: unknown, aborted: boolean): WireError {
  if (err instanceof CancelledError || aborted) return { kind: 'cancelled' };
  if (err instanceof InputError) return { kind: 'input', file: err.file, line: err.line, reason: err.reason };
  if (err instanceof UserError) return { kind: 'user', message: err.message };
  if (err instanceof Error) return { kind: 'failure', message: err.message, stack: err.stack };
  return { kind: 'failure', message: String(err) };
}

/** The error the host throws for a task's WireError. */
export function fromWire(e: WireError): Error {
  switch (e.kind) {
    case 'cancelled':
      return new CancelledError();
    case 'input':
      return new InputError(e.file, e.line, e.reason);
    case 'user':
      return new UserError(e.message);
    case 'failure': {
      const err = new Error(e.message);
      if (e.stack) err.stack = e.stack;
      return err;
    }
  }
}

/** A task's shared cancel flag: one Int32, 1 once cancelled. */
export const newCancelFlag = (): SharedArrayBuffer => new SharedArrayBuffer(4);
export const raiseCancelFlag = (flag: SharedArrayBuffer): void => void Atomics.store(new Int32Array(flag), 0, 1);
export const cancelFlagRaised = (flag: SharedArrayBuffer): boolean => Atomics.load(new Int32Array(flag), 0) === 1;
