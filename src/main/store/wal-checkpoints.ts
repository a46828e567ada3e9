// Keeps WAL checkpoints off the editing path. SQLite's automatic checkpoint runs inside
// the commit that crosses the threshold, so one edit in a few hundred waited 10–350 ms
// while the WAL was copied into the database file (the editor bench's p99: docs/experiments.md).
// Editor writes (and the word index's slices, written on the same thread) switch the
// connection's automatic checkpoint off and schedule a PASSIVE checkpoint once edits pause
// (IDLE_MS), or at the latest after MAX_DEFERRED edits. Durability is unchanged: a commit is
// in the WAL, and survives a crash, either way. A WAL larger than INLINE_WAL_BYTES (after an
// import, whose WAL holds every page it wrote, or a model alignment stored while the editor
// saves) is copied on a worker thread with its own connection (checkpoint.worker.ts), and the
// automatic checkpoint stays off until that copy ends: the 500th edit of an Align job at 200k
// pairs copied a WAL of a few hundred megabytes on the serving thread (a 264–530 ms stall,
// in two runs of four). The connection's journal_size_limit (database.ts) shrinks the WAL
// file when it is reset after a checkpoint, so its size says what is waiting to be copied.
import { statSync } from 'node:fs';
import { silentContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { WAL_KEPT_BYTES, type Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';

/** A WAL up to this size is copied on the calling thread (~0.07 s at the 238 MB/s measured). */
const INLINE_WAL_BYTES = WAL_KEPT_BYTES;

const IDLE_MS = 1000;
const MAX_DEFERRED = 500;

const pending = new WeakMap<Db, { timer: ReturnType<typeof setTimeout>; edits: number }>();

function checkpoint(db: Db): void {
  pending.delete(db);
  // a worker's copy under way takes what it finds; what comes after waits for the next edit's deferral
  if (!db.open || copying.has(db)) return;
  if (walBytes(db) <= INLINE_WAL_BYTES) db.pragma('wal_checkpoint(PASSIVE)');
  else
    void checkpointAfterBulkWrite(db).catch(() => {
      // nothing is lost: the WAL stays until the next checkpoint
    });
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
    resumeAutoCheckpoint(db);
    return;
  }
  db.pragma('wal_autocheckpoint = 0');
  copying.add(db);
  try {
    await runInWorker(new URL('./checkpoint.worker.ts', import.meta.url), { path: db.name }, silentContext(), {
      spawn: { commonJs: true },
    });
  } catch (e) {
    throw new Error(`checkpoint of ${db.name}: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    copying.delete(db);
    resumeAutoCheckpoint(db);
  }
}

/** Connections whose WAL a worker is copying. */
const copying = new WeakSet<Db>();

/**
 * SQLite's automatic checkpoint back on (after a bulk write paused it), unless editor writes
 * have deferred the next checkpoint or a worker is copying the WAL: either would otherwise be
 * done again by the next commit, inside it, on the serving thread.
 */
export function resumeAutoCheckpoint(db: Db): void {
  if (db.open && !pending.has(db) && !copying.has(db)) db.pragma('wal_autocheckpoint = 1000');
}
