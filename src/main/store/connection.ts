// How store/ modules reach a project's SQLite connection, and nothing else does. ProjectStore
// keeps its handle private and registers it here when it opens the file; every store function
// that the rest of the program calls takes the open project (`Project`, which a ProjectStore
// is) and looks its handle up with dbOf. Functions that only other store modules call may take
// the handle (`Db`) directly. Outside src/main/store/ no file imports this module, database.ts
// or better-sqlite3, prepares a statement or opens a transaction on a handle
// (scripts/check-store-boundary.js, run by `npm run typecheck`), so all SQL stays here.
import type { Db } from './database.ts';

/**
 * An open project as store functions receive it: a ProjectStore (project-store.ts). Declared
 * here rather than imported, so the store's modules and project-store.ts do not import each other.
 */
export interface Project {
  /** The project file's path. */
  readonly path: string;
}

const handles = new WeakMap<Project, Db>();

/** Called once by ProjectStore when it opens its file: `project` now stands for `db`. */
export function registerConnection(project: Project, db: Db): void {
  handles.set(project, db);
}

/** The SQLite handle of an open project. */
export function dbOf(project: Project): Db {
  const db = handles.get(project);
  if (!db) throw new Error(`${project.path}: not a project opened by ProjectStore`);
  return db;
}
