// The Models page's state: the project's models with their runs, the run on show and its
// curves. While that run trains, its curves are re-read on the job's progress events at
// most once per REFRESH_MS (and once more after the last event), and the list too when an
// epoch has ended (its checkpoint is then listed); when any job ends the list is re-read,
// so run states, checkpoints and alignments stay current.
import type { MekongApi } from '../../../shared/api.ts';
import type { MetricPoint, ModelInfo, RunInfo } from '../../../shared/models-api.ts';
import { errorMessage } from '../api/api-error.ts';

export const REFRESH_MS = 1000;

export class ModelsState {
  models = $state<ModelInfo[]>([]);
  loaded = $state(false);
  runId = $state<number | null>(null);
  points = $state<MetricPoint[]>([]);
  error = $state<string | null>(null);
  readonly run: RunInfo | null = $derived(this.models.flatMap((m) => m.runs).find((r) => r.id === this.runId) ?? null);
  readonly model: ModelInfo | null = $derived(this.models.find((m) => m.runs.some((r) => r.id === this.runId)) ?? null);

  private lastRead = 0;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly api: MekongApi) {
    this.unsubscribe = api.onEvent((e) => {
      const mine = this.run?.jobId === e.jobId;
      if (e.type === 'job.progress') {
        if (mine) this.throttledMetrics();
      } else {
        void this.refresh().then(() => (mine ? this.readMetrics() : undefined));
      }
    });
  }

  /** Re-reads the models; keeps the run on show if it still exists, else shows the newest. */
  async refresh(): Promise<void> {
    try {
      this.models = (await this.api.invoke('models.list', {})).models;
      this.error = null;
    } catch (err) {
      this.error = errorMessage(err);
    }
    this.loaded = true;
    if (this.run === null) {
      const newest = this.models.flatMap((m) => m.runs).sort((a, b) => b.id - a.id)[0];
      if (newest) this.select(newest.id);
    }
  }

  /** Shows a run just started: re-reads the list (which then holds it) and selects it. */
  async show(runId: number): Promise<void> {
    await this.refresh();
    this.select(runId);
  }

  select(runId: number): void {
    if (runId === this.runId) return;
    this.runId = runId;
    this.points = [];
    void this.readMetrics();
  }

  async remove(modelId: number): Promise<boolean> {
    try {
      await this.api.invoke('models.delete', { modelId });
    } catch (err) {
      this.error = errorMessage(err);
      return false;
    }
    if (this.model?.id === modelId) this.runId = null;
    await this.refresh();
    return true;
  }

  dispose(): void {
    this.unsubscribe();
    if (this.pending) clearTimeout(this.pending);
  }

  private throttledMetrics(): void {
    if (this.pending) return;
    const wait = Math.max(0, this.lastRead + REFRESH_MS - Date.now());
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.readMetrics();
    }, wait);
  }

  private async readMetrics(): Promise<void> {
    const runId = this.runId;
    if (runId === null) return;
    this.lastRead = Date.now();
    try {
      const res = await this.api.invoke('models.metrics', { runId });
      if (res.runId !== this.runId) return;
      const epochs = (points: MetricPoint[]) => points.filter((p) => p.name === 'epoch_loss').length;
      const newEpoch = epochs(res.points) > epochs(this.points);
      this.points = res.points;
      if (newEpoch && this.run?.state === 'running') await this.refresh();
    } catch (err) {
      this.error = errorMessage(err);
    }
  }
}
