// One long-running job as the UI follows it (an import, an export, a training run): started
// through a channel that answers with a job id (or already running, then followed by its id),
// then driven by that job's pushed events.
// Events that arrive before the id does (a job can fail at once) are kept and replayed.
import type { JobEvent, JobResult, MekongApi } from '../../../shared/api.ts';
import { errorMessage } from '../api/api-error.ts';

export type JobPhase = 'idle' | 'starting' | 'running' | 'done' | 'failed' | 'cancelled';

export class JobState {
  phase = $state<JobPhase>('idle');
  done = $state(0);
  total = $state(0);
  message = $state('');
  /** What the job handed back besides its message (a re-segment's changed pairs), once done. */
  result = $state<JobResult | null>(null);
  error = $state<string | null>(null);
  /** A cancel was asked for and the job has not ended yet (a training run stops at its next step). */
  cancelling = $state(false);
  readonly active = $derived(this.phase === 'starting' || this.phase === 'running');
  /** Progress in [0, 1], or null while the total is unknown. */
  readonly fraction = $derived(this.total > 0 ? Math.min(1, this.done / this.total) : null);

  private jobId: string | null = null;
  private early: JobEvent[] = [];
  private unsubscribe: (() => void) | null = null;
  private onDone: (() => void) | undefined;

  constructor(private readonly api: MekongApi) {}

  /** Launches the job; `onDone` runs once it completes successfully. */
  async start(launch: () => Promise<{ jobId: string }>, onDone?: () => void): Promise<void> {
    this.reset();
    this.onDone = onDone;
    this.phase = 'starting';
    this.unsubscribe = this.api.onEvent((e) => (this.jobId === null ? this.early.push(e) : this.apply(e)));
    try {
      const { jobId } = await launch();
      this.jobId = jobId;
      this.phase = 'running';
      for (const e of this.early.splice(0)) this.apply(e);
    } catch (err) {
      this.finish('failed', errorMessage(err));
    }
  }

  /** Follows a job started elsewhere (a training run the server lists as running) from its next event on. */
  follow(jobId: string, onDone?: () => void): void {
    this.reset();
    this.onDone = onDone;
    this.jobId = jobId;
    this.phase = 'running';
    this.unsubscribe = this.api.onEvent((e) => this.apply(e));
  }

  async cancel(): Promise<void> {
    if (this.phase !== 'running' || this.jobId === null) return;
    this.cancelling = true;
    try {
      await this.api.invoke('jobs.cancel', { jobId: this.jobId });
    } catch (err) {
      // The job may have ended meanwhile; its own event then tells the outcome.
      if (this.active) {
        this.error = errorMessage(err);
        this.cancelling = false;
      }
    }
  }

  /** Stops listening (when the dialog showing the job goes away). */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private apply(e: JobEvent): void {
    if (e.jobId !== this.jobId || !this.active) return;
    if (e.type === 'job.progress') {
      this.done = e.done;
      this.total = e.total;
      this.message = e.message;
    } else if (e.type === 'job.done') {
      this.done = this.total;
      this.message = e.message;
      this.result = e.result ?? null;
      this.finish('done', null);
    } else {
      this.finish(e.type === 'job.failed' ? 'failed' : 'cancelled', e.type === 'job.failed' ? e.error : null);
    }
  }

  /** Withdraws a failed start's error once the form it named has changed (the next start may well succeed). */
  forgetFailure(): void {
    if (this.phase !== 'failed') return;
    this.phase = 'idle';
    this.error = null;
  }

  private finish(phase: 'done' | 'failed' | 'cancelled', error: string | null): void {
    this.phase = phase;
    this.cancelling = false;
    this.error = error;
    this.dispose();
    if (phase === 'done') this.onDone?.();
  }

  private reset(): void {
    this.dispose();
    this.jobId = null;
    this.early = [];
    this.done = 0;
    this.total = 0;
    this.message = '';
    this.result = null;
    this.error = null;
    this.cancelling = false;
  }
}
