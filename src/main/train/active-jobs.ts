// The Models page's jobs at work right now, per open project: which job trains
// a run or re-aligns with it (RunInfo.jobId, realignJobId) and whether any job uses a run's
// files (a model cannot be deleted under a running training or re-alignment).
import type { ProjectStore } from '../store/project-store.ts';

export type ModelJobKind = 'train' | 'realign';

interface Entry {
  runId: number;
  kind: ModelJobKind;
  jobId: string;
}

const active = new WeakMap<ProjectStore, Set<Entry>>();

function entries(store: ProjectStore): Set<Entry> {
  let set = active.get(store);
  if (!set) active.set(store, (set = new Set()));
  return set;
}

/** Tracks a started job until its `done` settles. */
export function trackJob(store: ProjectStore, runId: number, kind: ModelJobKind, job: { jobId: string; done: Promise<void> }): void {
  const e: Entry = { runId, kind, jobId: job.jobId };
  entries(store).add(e);
  void job.done.finally(() => entries(store).delete(e));
}

export function jobOf(store: ProjectStore, runId: number, kind: ModelJobKind): string | null {
  for (const e of entries(store)) if (e.runId === runId && e.kind === kind) return e.jobId;
  return null;
}

export function jobUsing(store: ProjectStore, runIds: readonly number[]): Entry | null {
  for (const e of entries(store)) if (runIds.includes(e.runId)) return e;
  return null;
}
