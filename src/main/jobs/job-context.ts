// The one shape of long work: every task (import, export, align, train, fine-tune, score,
// mine, resegment) is a function of its input and one JobContext. Progress is one event
// type whatever the task (a count of done units out of a total, an optional phase and
// metrics for the curves); cancel is the AbortSignal, and a task that notices it throws
// CancelledError (checkCancelled) so every caller tells a cancel from a failure one way.
import { CancelledError } from '../errors.ts';

/** One progress event: `done` of `total` units of the current phase. */
export interface JobProgress {
  readonly done: number;
  readonly total: number;
  /** What the task is doing now, in the linguist's words ("epoch 3 of 20", "writing links"). */
  readonly message?: string;
  /** Named numbers for curves and logs (loss, AER, pairs per second); never needed to show progress. */
  readonly metrics?: Readonly<Record<string, number>>;
}

export interface JobContext {
  readonly progress: (p: JobProgress) => void;
  readonly signal: AbortSignal;
}

/** Throws CancelledError when the job was cancelled; call it between units of work (no signal: work that cannot be cancelled). */
export function checkCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** A context that reports nowhere and is never cancelled (tests, nested steps that report through their parent). */
export function silentContext(signal: AbortSignal = new AbortController().signal): JobContext {
  return { progress: () => {}, signal };
}

/**
 * `ctx` with the message of every progress event set by `message` (a text, or one made from
 * the event): a step reports counts, and its caller names the phase they belong to.
 */
export function withMessage(ctx: JobContext, message: string | ((p: JobProgress) => string)): JobContext {
  const text = typeof message === 'string' ? () => message : message;
  return { progress: (p) => ctx.progress({ ...p, message: text(p) }), signal: ctx.signal };
}
