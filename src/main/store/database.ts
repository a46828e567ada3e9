// Opens a project's SQLite file with the settings every connection needs (WAL, foreign
// keys, a busy timeout) and brings its schema up to date with migrations.ts.
//
// A project that cannot be written (a read-only file, folder or mount) opens read-only. A
// WAL-mode file needs its -shm index beside it even to be read; where the folder is
// read-only and no index is there, it opens as SQLite's `immutable` URI (nothing is assumed
// to change it while it is open), for which URI file names are switched on before the
// first connection (better-sqlite3 reads SQLITE_USE_URI when it loads).
import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../errors.ts';
import { MIGRATIONS } from './migrations.ts';
import { searchFold } from '../text/search-fold.ts';
import { guardFileIdentity } from './file-identity.ts';

export type Db = Database.Database;

process.env.SQLITE_USE_URI ??= '1';

export interface OpenOptions {
  /** Create the file if missing (default false: opening a missing project is an error). */
  create?: boolean;
  readonly?: boolean;
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
  // Pair search compares folded text (text/search-fold.ts).
  db.function('mekong_fold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? searchFold(s) : s));
  try {
    if (!options.readonly) setJournal(db, path);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    if (!options.readonly) migrate(db, path);
    else checkReadableVersion(db, path);
    if (!options.readonly) guardFileIdentity(db, path);
    return db;
  } catch (err) {
    db.close();
    throw err;
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
    if (!code.startsWith('SQLITE_READONLY') && code !== 'SQLITE_CANTOPEN') throw err;
  }
  return new Database(`${pathToFileURL(path).href}?immutable=1`, { readonly: true, nativeBinding });
}

/** WAL mode; the first statement that reads the file, so a file that is not SQLite fails here. */
function setJournal(db: Db, path: string): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new UserError(`${path}: not a Mekong project (not an SQLite database)`);
    throw err;
  }
}

function checkVersion(db: Db, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
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

function isEmpty(db: Db): boolean {
  const row = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
  return row.n === 0;
}

function migrate(db: Db, path: string): void {
  checkVersion(db, path);
  const version = db.pragma('user_version', { simple: true }) as number;
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
