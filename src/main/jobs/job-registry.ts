// Long work (imports, exports, alignment, training) runs as jobs: each gets an id, an
// AbortSignal for cancel, and a progress callback whose events reach every listener
// (the Electron window, WebSocket clients, the CLI's progress bar). Progress events are
// throttled so a fast loop cannot flood the transport.
import { randomUUID } from 'node:crypto';
import type { JobEvent } from '../../shared/api.ts';
import { asUserError, CancelledError, UserError } from '../errors.ts';

export type Progress = (done: number, total: number, message?: string) => void;
export type JobBody = (progress: Progress, signal: AbortSignal) => Promise<string>;

const THROTTLE_MS = 100;

export class JobRegistry {
  private readonly running = new Map<string, AbortController>();
  private readonly listeners = new Set<(e: JobEvent) => void>();

  onEvent(listener: (e: JobEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts `body` and returns its id at once; the outcome arrives as an event. */
  start(kind: string, body: JobBody): { jobId: string; done: Promise<void> } {
    const jobId = randomUUID();
    const controller = new AbortController();
    this.running.set(jobId, controller);
    const done = this.run(jobId, kind, body, controller.signal).finally(() => this.running.delete(jobId));
    return { jobId, done };
  }

  cancel(jobId: string): void {
    const c = this.running.get(jobId);
    if (!c) throw new UserError(`no running job ${jobId}`);
    c.abort();
  }

  get active(): number {
    return this.running.size;
  }

  private emit(e: JobEvent): void {
    for (const l of this.listeners) l(e);
  }

  private async run(jobId: string, kind: string, body: JobBody, signal: AbortSignal): Promise<void> {
    let last = 0;
    const progress: Progress = (done, total, message = '') => {
      const now = Date.now();
      if (now - last < THROTTLE_MS && done < total) return;
      last = now;
      this.emit({ type: 'job.progress', jobId, kind, done, total, message });
    };
    try {
      const message = await body(progress, signal);
      this.emit({ type: 'job.done', jobId, kind, message });
    } catch (err) {
      if (err instanceof CancelledError || signal.aborted) this.emit({ type: 'job.cancelled', jobId, kind });
      else this.emit({ type: 'job.failed', jobId, kind, error: asUserError(err)?.message ?? String(err) });
    }
  }
}
