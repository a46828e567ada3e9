// Opens a project's SQLite file with the settings every connection needs (WAL, foreign
// keys, a busy timeout) and brings its schema up to date with migrations.ts.
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { UserError } from '../errors.ts';
import { MIGRATIONS } from './migrations.ts';
import { searchFold } from '../text/search-fold.ts';

export type Db = Database.Database;

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
  const db = new Database(path, { readonly: options.readonly ?? false, nativeBinding });
  // Pair search compares folded text (text/search-fold.ts).
  db.function('mekong_fold', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? searchFold(s) : s));
  try {
    if (!options.readonly) setJournal(db, path);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    if (!options.readonly) migrate(db, path);
    else checkVersion(db, path);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
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
