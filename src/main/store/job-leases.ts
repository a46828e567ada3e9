// Which process owns an unfinished import or training run. Opening a project cleans up what
// a crash left behind (a 'running' import is deleted, a 'running' training run marked
// failed), but only when no live process still owns it: a `mekong info` in a terminal must
// not destroy an import or a training run that the app or another command is doing.
//
// A lease is an exclusive SQLite lock on a small file of its own, `<project>-leases/<owner>`,
// held by the owning process for as long as the job runs; its name (a random id) is stored
// in the job's row (`owner`). The operating system releases the lock when the process dies
// however it dies (kill -9 included), so "is the owner alive" is "can the lock be taken".
// No heartbeat to renew, no pid that could be reused, and the same answer from another
// process, another thread or another connection of the owner's own process (SQLite keeps
// one lock table per process). The lease is taken before the row is written and released
// after the row is finished, so a row that names an owner always had its lock held while
// the job ran. A row with no owner (written by a Mekong before leases) counts as orphaned.
// SQLite keeps an empty `<owner>-journal` beside a locked file; it goes with the lease.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { READ_ONLY_REASON, UserError } from '../errors.ts';
import type { Db } from './database.ts';

export interface Lease {
  /** The id stored in the job's row. */
  readonly owner: string;
  release(): void;
}

/** The leases this process holds, by owner id: finishing a row releases its lease. */
const held = new Map<string, Lease>();

/** The folder of a project's lease files (better-sqlite3's `db.name` is the file's path). */
const leaseDir = (projectPath: string): string => `${projectPath}-leases`;

/** Whether `db` is a file that other processes can open (not an in-memory or temporary database). */
const onDisk = (db: Db): boolean => db.name !== '' && db.name !== ':memory:' && !db.memory;

/** Opens a lease file with no busy wait: another holder's lock answers at once. */
function openLock(path: string): Database.Database {
  const nativeBinding = process.env.MEKONG_SQLITE_BINDING || undefined;
  return new Database(path, { timeout: 0, nativeBinding });
}

/**
 * Takes a new lease on a job of the project `db` belongs to; null for an in-memory project
 * (no other process can see it). Held until `release()` or the process ends.
 */
export function takeLease(db: Db): Lease | null {
  if (db.readonly) throw new UserError(READ_ONLY_REASON);
  if (!onDisk(db)) return null;
  const dir = leaseDir(db.name);
  mkdirSync(dir, { recursive: true });
  // removeDeadLeases may take and delete a file between its creation and our lock: then the
  // lock fails (busy) or the file is gone once locked, and a fresh id is tried.
  for (let attempt = 0; ; attempt++) {
    const owner = randomUUID();
    const path = join(dir, owner);
    const lock = openLock(path);
    try {
      lock.exec('BEGIN EXCLUSIVE');
      if (existsSync(path)) return hold(owner, path, dir, lock);
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || attempt >= 5) {
        lock.close();
        throw err;
      }
    }
    lock.close();
  }
}

function hold(owner: string, path: string, dir: string, lock: Database.Database): Lease {
  const lease: Lease = {
    owner,
    release() {
      if (!held.delete(owner)) return;
      lock.close();
      removeLeaseFiles(path);
      removeDirIfEmpty(dir);
    },
  };
  held.set(owner, lease);
  return lease;
}

/** Releases the lease `owner` if this process holds it (the row it guarded is finished). */
export function releaseLease(owner: string | null): void {
  if (owner !== null) held.get(owner)?.release();
}

/** Whether a live process (this one included) holds the lease `owner`. */
export function ownerAlive(db: Db, owner: string | null): boolean {
  if (owner === null || !onDisk(db)) return false;
  if (held.has(owner)) return true;
  const path = join(leaseDir(db.name), owner);
  if (!existsSync(path)) return false;
  const lock = openLock(path);
  try {
    lock.exec('BEGIN EXCLUSIVE');
    lock.exec('ROLLBACK');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    lock.close();
  }
}

/** Deletes lease files whose owner died after finishing its row (nothing names them any more). */
export function removeDeadLeases(db: Db, named: ReadonlySet<string>): void {
  if (!onDisk(db)) return;
  const dir = leaseDir(db.name);
  if (!existsSync(dir)) return;
  for (const owner of readdirSync(dir)) {
    if (!LEASE_NAME.test(owner) || named.has(owner) || held.has(owner)) continue;
    // Deleted while we hold its lock (takeLease checks that its file survived its own lock);
    // where an open file cannot be deleted (Windows), just after.
    const path = join(dir, owner);
    const lock = openLock(path);
    let dead = false;
    try {
      lock.exec('BEGIN EXCLUSIVE');
      dead = true;
      removeLeaseFiles(path);
      dead = false;
    } catch (err) {
      if (!dead && (err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    } finally {
      lock.close();
    }
    if (dead) removeLeaseFiles(path);
  }
  removeDirIfEmpty(dir);
}

/** A lease file's name: the owner id (a UUID). */
const LEASE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function removeLeaseFiles(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}-journal`, { force: true });
}

function removeDirIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (another job's lease) or already gone
  }
}
