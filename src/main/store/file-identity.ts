// The project file going away under an open project. SQLite keeps writing to the file it
// opened even after that file was deleted, moved or replaced, so without this an edit made
// then is acknowledged and lost with the unlinked file. Before every write transaction (and
// every write statement run outside one) the path is compared with the file that was opened
// (device and inode); when they differ the write is refused with one line, every later
// write too, and the store says so (the app then offers "Save a copy…", which VACUUMs the
// open handle into a new file: everything acknowledged so far).
//
// When it is first noticed, the write-ahead log is copied into the opened file: a moved
// project then holds every acknowledged edit at its new place (SQLite itself does not
// checkpoint a moved file on close), and the log beside the old path is empty.
import { rmSync, statSync } from 'node:fs';
import { UserError } from '../errors.ts';
import type Database from 'better-sqlite3';

/** A project's connection (database.ts's Db, named here so that database.ts can import this module). */
type Db = Database.Database;

/** A write refused because the project file is no longer where it was opened. */
export class ProjectFileGoneError extends UserError {
  override name = 'ProjectFileGoneError';
}

interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
}

interface Guard {
  readonly path: string;
  readonly opened: Identity;
  /** The handle's own prepare, before the guard: for the copy that must work once the file is gone. */
  readonly prepare: Db['prepare'];
  gone: boolean;
}

const guards = new WeakMap<Db, Guard>();

function identityOf(path: string): Identity | null {
  const s = statSync(path, { bigint: true, throwIfNoEntry: false });
  return s ? { dev: s.dev, ino: s.ino } : null;
}

function goneMessage(path: string): string {
  return `${path}: the project file was deleted, moved or replaced while it was open; nothing more is written to it (save a copy to keep everything saved so far)`;
}

/** Whether the file at the guard's path is still the one opened; notices the change once. */
function stillThere(db: Db, guard: Guard): boolean {
  if (guard.gone) return false;
  const now = identityOf(guard.path);
  if (now !== null && now.dev === guard.opened.dev && now.ino === guard.opened.ino) return true;
  guard.gone = true;
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } catch {
    // the log stays; the open handle still reads it, and Save a copy… copies through it
  }
  return false;
}

/**
 * Watches `db`, just opened from `path`: from now on its write transactions and write
 * statements outside a transaction throw ProjectFileGoneError once the file at `path` is
 * not the one opened. Reads go on: the open handle still sees everything written.
 */
export function guardFileIdentity(db: Db, path: string): void {
  const opened = identityOf(path);
  if (opened === null) return;
  const prepare = db.prepare.bind(db);
  const guard: Guard = { path, opened, prepare, gone: false };
  guards.set(db, guard);
  const check = (): void => {
    if (!db.inTransaction && !stillThere(db, guard)) throw new ProjectFileGoneError(goneMessage(path));
  };

  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn) as unknown as Record<string, (...args: unknown[]) => unknown> & ((...args: unknown[]) => unknown);
    const guarded = (run: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        check();
        return run.apply(this, args);
      };
    return Object.assign(guarded(tx), {
      default: guarded(tx.default),
      deferred: guarded(tx.deferred),
      immediate: guarded(tx.immediate),
      exclusive: guarded(tx.exclusive),
    });
  }) as Db['transaction'];

  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!statement.reader) {
      const run = statement.run.bind(statement);
      statement.run = (...args: unknown[]) => {
        check();
        return run(...args);
      };
    }
    return statement;
  }) as Db['prepare'];
}

/** Copies everything `db` holds into a new SQLite file at `dest` (VACUUM INTO), whether or not its own file is still there. */
export function copyInto(db: Db, dest: string): void {
  if (statSync(dest, { throwIfNoEntry: false })) throw new UserError(`${dest}: a file already exists there`);
  (guards.get(db)?.prepare ?? db.prepare.bind(db))('VACUUM INTO ?').run(dest);
}

/** Whether `db`'s file was deleted, moved or replaced since it was opened (checked now). */
export function fileGone(db: Db): boolean {
  const guard = guards.get(db);
  return guard !== undefined && !stillThere(db, guard);
}

/**
 * Closes `db`. When its file was deleted or moved away (nothing at its path now), the
 * `-wal` and `-shm` files SQLite leaves beside the old path are removed: they belonged to
 * this handle, and the log was copied into the file when the loss was noticed. A file that
 * replaced it keeps whatever is beside it.
 */
export function closeGuarded(db: Db): void {
  const guard = guards.get(db);
  const gone = guard !== undefined && !stillThere(db, guard);
  db.close();
  if (gone && identityOf(guard.path) === null) {
    rmSync(`${guard.path}-wal`, { force: true });
    rmSync(`${guard.path}-shm`, { force: true });
  }
}
