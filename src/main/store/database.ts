// Opens a project's SQLite file with the settings every connection needs (WAL, foreign
// keys, a busy timeout) and brings its schema up to date with migrations.ts (after a hook
// that the caller uses to back the file up first).
//
// A project that cannot be written (a read-only file, folder or mount) opens read-only. A
// WAL-mode file needs its -shm index beside it even to be read; where the folder is
// read-only and no index is there, it opens as SQLite's `immutable` URI (nothing is assumed
// to change it while it is open), for which URI file names are switched on before the
// first connection (better-sqlite3 reads SQLITE_USE_URI when it loads).
import Database from 'better-sqlite3';
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DamagedProjectError, UserError } from '../errors.ts';
import { existingBackup } from './backup-path.ts';
import { MIGRATIONS } from './migrations.ts';
import { searchFold } from '../../shared/search-fold.ts';
import { guardFileIdentity } from './file-identity.ts';

/** What a WAL file keeps of its size once it is reset; a WAL up to this size is checkpointed on the thread that wrote it (wal-checkpoints.ts). */
export const WAL_KEPT_BYTES = 16 * 2 ** 20;

export type Db = Database.Database;

process.env.SQLITE_USE_URI ??= '1';

export interface OpenOptions {
  /** Create the file if missing (default false: opening a missing project is an error). */
  create?: boolean;
  readonly?: boolean;
  /** Called once before migrations change an existing project's schema (ProjectStore backs it up there). */
  beforeMigration?: (db: Db) => void;
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  if (!options.create && !existsSync(path)) throw new UserError(`${path}: no such project file`);
  if (options.create && existsSync(path)) throw new UserError(`${path}: a file already exists there`);
  // The desktop app runs on Electron's ABI and passes its own build (scripts/electron-native.js).
  const nativeBinding = process.env.MEKONG_SQLITE_BINDING || undefined;
  if (!options.create && statSync(path).isDirectory()) throw new UserError(`${path}: is a folder, not a project file`);
  // With URI names on, a path that itself starts with "file:" must not read as one.
  const name = path.startsWith('file:') ? `./${path}` : path;
  const db = options.readonly ? openReadOnly(path, nativeBinding) : new Database(name, { nativeBinding });
  // Pair search compares folded text (shared/search-fold.ts).
  db.function('mekong_fold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? searchFold(s) : s));
  try {
    if (!options.readonly) setJournal(db, path);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    // a WAL reset after a checkpoint is cut back to this: its size then says what waits to be copied (wal-checkpoints.ts)
    db.pragma(`journal_size_limit = ${WAL_KEPT_BYTES}`);
    if (!options.readonly) migrate(db, path, options.beforeMigration);
    else checkReadableVersion(db, path);
    if (!options.readonly) guardFileIdentity(db, path);
    return db;
  } catch (err) {
    db.close();
    throw damageOf(err, path) ?? err;
  }
}

/** Whether this process may write the project file and create its -wal/-shm files beside it. */
export function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A read-only connection: the plain one where SQLite can read the WAL, else the immutable file. */
function openReadOnly(path: string, nativeBinding: string | undefined): Db {
  const plain = new Database(path.startsWith('file:') ? `./${path}` : path, { readonly: true, nativeBinding });
  try {
    plain.pragma('user_version');
    return plain;
  } catch (err) {
    plain.close();
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_READONLY') && code !== 'SQLITE_CANTOPEN') throw damageOf(err, path) ?? err;
  }
  return new Database(`${pathToFileURL(path).href}?immutable=1`, { readonly: true, nativeBinding });
}

/** WAL mode; the first statement that reads the file, so a file that is not SQLite fails here. */
function setJournal(db: Db, path: string): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch (err) {
    throw damageOf(err, path) ?? err;
  }
}

/**
 * SQLite's error for a file it cannot read as a database, as the one line that says why: not
 * an SQLite file at all, or one whose header or pages are damaged (naming the backup); null
 * for any other error. A damaged header's schema format or page size reads as "unsupported
 * file format".
 */
function damageOf(err: unknown, path: string): UserError | null {
  const { code, message } = err as { code?: unknown; message?: unknown };
  const unreadable = code === 'SQLITE_NOTADB' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
  if (unreadable && !sqliteHeader(path)) return new UserError(`${path}: not a Mekong project (not an SQLite database)`);
  if (unreadable || (code === 'SQLITE_ERROR' && message === 'unsupported file format'))
    return new DamagedProjectError(`${path}: ${String(message)}`, existingBackup(path));
  return null;
}

/** Whether the file begins as every SQLite file does: one SQLite then refuses has a damaged header. */
function sqliteHeader(path: string): boolean {
  const head = Buffer.alloc(16);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  return head.toString('latin1') === 'SQLite format 3\0';
}

function checkVersion(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < 0) throw new DamagedProjectError(`${path}: schema version ${version}`, existingBackup(path));
  if (version > MIGRATIONS.length) {
    throw new UserError(`${path}: made by a newer Mekong (schema ${version}, this one knows ${MIGRATIONS.length})`);
  }
  if (version === 0 && !isEmpty(db)) throw new UserError(`${path}: not a Mekong project`);
}

/** A read-only file cannot be migrated: it must be of this Mekong's schema. */
function checkReadableVersion(db: Db, path: string): void {
  checkVersion(db, path);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version < MIGRATIONS.length) {
    throw new UserError(
      `${path}: made by an older Mekong (schema ${version}) and read-only here, so it cannot be updated; open it once where it can be written`,
    );
  }
}

/** The schema objects of a file: each index and trigger by name, each table by name and columns. */
function schemaOf(db: Db): string[] {
  const objects = db.prepare(`SELECT type, name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all() as {
    type: string;
    name: string;
  }[];
  return objects.map(({ type, name }) => {
    if (type !== 'table') return `${type} ${name}`;
    const columns = db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(name) as string[];
    return `table ${name}(${columns.join(', ')})`;
  });
}

/**
 * Before a file is migrated from `version`: its schema must be what the migrations up to
 * `version` make (applied to an empty database in memory). A damaged schema version number
 * would otherwise run migrations over tables that already have them.
 */
function checkSchemaOf(db: Db, path: string, version: number): void {
  const expected = new Database(':memory:', { nativeBinding: process.env.MEKONG_SQLITE_BINDING || undefined });
  try {
    for (const m of MIGRATIONS.slice(0, version)) expected.exec(m);
    if (schemaOf(db).join('\n') !== schemaOf(expected).join('\n'))
      throw new DamagedProjectError(`${path}: its tables do not match its schema version (${version})`, existingBackup(path));
  } finally {
    expected.close();
  }
}

function isEmpty(db: Db): boolean {
  const row = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
  return row.n === 0;
}

function migrate(db: Db, path: string, beforeMigration?: (db: Db) => void): void {
  checkVersion(db, path);
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > 0 && version < MIGRATIONS.length) {
    checkSchemaOf(db, path, version);
    beforeMigration?.(db);
  }
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
