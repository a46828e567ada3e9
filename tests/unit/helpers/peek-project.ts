// Reads a project file the way a test inspects it, not as Mekong opens it: a plain read-only
// connection, so no clean-up of unfinished imports or runs runs first and the test sees what is
// in the file right now.
import Database from 'better-sqlite3';

/** The first row of `sql` on the project file at `path`. */
export function peek<T>(path: string, sql: string): T {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}
