// Keeps WAL checkpoints off the editing path. SQLite's automatic checkpoint runs inside
// the commit that crosses the threshold, so one edit in a few hundred waited 10–350 ms
// while the WAL was copied into the database file (the editor bench's p99: docs/experiments.md).
// Editor writes switch the connection's automatic checkpoint off and schedule a PASSIVE
// checkpoint once edits pause (IDLE_MS), or at the latest after MAX_DEFERRED edits.
// Durability is unchanged: a commit is in the WAL, and survives a crash, either way.
// After an import, whose WAL holds every page it wrote, checkpointAfterBulkWrite does the
// copy on a worker thread with its own connection (checkpoint.worker.ts) when it is large.
import { statSync } from 'node:fs';
import { silentContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import type { Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';

const IDLE_MS = 1000;
const MAX_DEFERRED = 500;

const pending = new WeakMap<Db, { timer: ReturnType<typeof setTimeout>; edits: number }>();

function checkpoint(db: Db): void {
  pending.delete(db);
  if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
}

/** Call after an editor write: defers the checkpoint it might otherwise have paid for. */
export function deferCheckpoint(project: Project): void {
  const db = dbOf(project);
  const entry = pending.get(db);
  if (entry) clearTimeout(entry.timer);
  else db.pragma('wal_autocheckpoint = 0');
  const edits = (entry?.edits ?? 0) + 1;
  if (edits >= MAX_DEFERRED) return checkpoint(db);
  const timer = setTimeout(() => checkpoint(db), IDLE_MS);
  timer.unref();
  pending.set(db, { timer, edits });
}

/** A WAL up to this size is copied on the calling thread (~0.07 s at the 238 MB/s measured). */
const INLINE_WAL_BYTES = 16 * 2 ** 20;

function walBytes(db: Db): number {
  try {
    return statSync(`${db.name}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * A PASSIVE checkpoint after a bulk write (an import): a large WAL is copied on a worker
 * thread with its own connection, and the returned promise ends when it has been. It never
 * throws, only rejects: the caller has already committed. A checkpoint that fails or is cut
 * short loses nothing: the WAL stays until SQLite's next automatic checkpoint or the last
 * connection's close. (The WAL file keeps its size after a PASSIVE checkpoint, so after one
 * large import a small one also takes the worker, whose start costs a few tenths of a second
 * of CPU off the calling thread.)
 */
export async function checkpointAfterBulkWrite(db: Db): Promise<void> {
  if (walBytes(db) <= INLINE_WAL_BYTES) {
    db.pragma('wal_checkpoint(PASSIVE)');
    return;
  }
  try {
    await runInWorker(new URL('./checkpoint.worker.ts', import.meta.url), { path: db.name }, silentContext(), {
      spawn: { commonJs: true },
    });
  } catch (e) {
    throw new Error(`checkpoint of ${db.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
