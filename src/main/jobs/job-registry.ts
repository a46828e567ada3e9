// Long work (imports, exports, alignment, training) runs as jobs: each is a function of one
// JobContext (job-context.ts) and gets an id; cancel aborts its signal, and its progress
// events reach every listener (the Electron window, WebSocket clients, the CLI's progress
// bar) as JobEvents. Progress events are throttled so a fast loop cannot flood the transport.
import { randomUUID } from 'node:crypto';
import type { JobEvent, JobResult } from '../../shared/api.ts';
import { asUserError, CancelledError, UserError } from '../errors.ts';
import type { JobContext, JobProgress } from './job-context.ts';

/** A job: its work, given its context; resolves with a one-line summary, or a summary and a result for the UI to show. */
export type JobBody = (ctx: JobContext) => Promise<string | { message: string; result: JobResult }>;

const THROTTLE_MS = 100;

export class JobRegistry {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly listeners = new Set<(e: JobEvent) => void>();

  onEvent(listener: (e: JobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts `body` and returns its id at once; the outcome arrives as an event. */
  start(kind: string, body: JobBody): { jobId: string; done: Promise<void> } {
    const jobId = randomUUID();
    const controller = new AbortController();
    const done = this.run(jobId, kind, body, controller.signal).finally(() => this.running.delete(jobId));
    this.running.set(jobId, { controller, done });
    return { jobId, done };
  }

  cancel(jobId: string): void {
    const job = this.running.get(jobId);
    if (!job) throw new UserError(`no running job ${jobId}`);
    job.controller.abort();
  }

  /**
   * Cancels every running job and waits for them to end (their workers released, a training
   * run marked cancelled), at most `limitMs`: what a server does before it exits. True when
   * all ended in time.
   */
  async cancelAll(limitMs: number): Promise<boolean> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), limitMs)));
    try {
      return await Promise.race([Promise.all(jobs.map((j) => j.done)).then(() => true), limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  get active(): number {
    return this.running.size;
  }

  private emit(e: JobEvent): void {
    for (const l of this.listeners) l(e);
  }

  private async run(jobId: string, kind: string, body: JobBody, signal: AbortSignal): Promise<void> {
    let last = 0;
    const progress = ({ done, total, message = '' }: JobProgress) => {
      const now = Date.now();
      if (now - last < THROTTLE_MS && done < total) return;
      last = now;
      this.emit({ type: 'job.progress', jobId, kind, done, total, message });
    };
    try {
      const outcome = await body({ progress, signal });
      this.emit(
        typeof outcome === 'string'
          ? { type: 'job.done', jobId, kind, message: outcome }
          : { type: 'job.done', jobId, kind, message: outcome.message, result: outcome.result },
      );
    } catch (err) {
      if (err instanceof CancelledError || signal.aborted) this.emit({ type: 'job.cancelled', jobId, kind });
      else this.emit({ type: 'job.failed', jobId, kind, error: asUserError(err)?.message ?? String(err) });
    }
  }
}
