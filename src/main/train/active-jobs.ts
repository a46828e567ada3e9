// The Models page's jobs at work right now, per open project connection: which job trains
// a run or re-aligns with it (RunInfo.jobId, realignJobId) and whether any job uses a run's
// files (a model cannot be deleted under a running training or re-alignment).
import type { Db } from '../store/database.ts';

export type ModelJobKind = 'train' | 'realign';

interface Entry {
  runId: number;
  kind: ModelJobKind;
  jobId: string;
}

const active = new WeakMap<Db, Set<Entry>>();

function entries(db: Db): Set<Entry> {
  let set = active.get(db);
  if (!set) active.set(db, (set = new Set()));
  return set;
}

/** Tracks a started job until its `done` settles. */
export function trackJob(db: Db, runId: number, kind: ModelJobKind, job: { jobId: string; done: Promise<void> }): void {
  const e: Entry = { runId, kind, jobId: job.jobId };
  entries(db).add(e);
  void job.done.finally(() => entries(db).delete(e));
}

export function jobOf(db: Db, runId: number, kind: ModelJobKind): string | null {
  for (const e of entries(db)) if (e.runId === runId && e.kind === kind) return e.jobId;
  return null;
}

export function jobUsing(db: Db, runIds: readonly number[]): Entry | null {
  for (const e of entries(db)) if (runIds.includes(e.runId)) return e;
  return null;
}
