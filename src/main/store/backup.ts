// The automatic backup: the last good copy of a project, kept beside it as `<project>.backup`,
// made before each schema migration (ProjectStore.open, through openDatabase's hook) and before each import of more than
// LARGE_IMPORT pairs (corpus/import-pipeline.ts). One file rather than a folder of dated
// copies: a project can be gigabytes, and one copy is enough to undo the one change that
// follows it; restoring is copying that file over the project.
//
// The copy is `VACUUM INTO` from the open handle (every committed row, in a consistent
// snapshot, without blocking writers), into `<project>.backup.partial-<pid>`, synced to disk
// and then renamed over the previous backup, so the backup is always a whole file. It is made
// only from a file that passes the quick check (integrity.ts): a damaged project refuses the
// change that would have needed the copy and never replaces the last good backup.
//
// The copy before a large import runs in a worker thread on its own read-only connection
// (backup.worker.ts), so that a server keeps answering while it is made; the copy before a
// migration runs on the opening connection, before anything else can use the project.
//
// A copy that cannot be made because the disk is full is skipped with a one-line warning and
// the change goes on: a migration is needed to open the project at all, and an import that
// then meets the full disk itself is undone whole (store/imports.ts), so nothing acknowledged
// depends on the copy.
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { DamagedProjectError, isDiskFull } from '../errors.ts';
import { removeDeadPartials } from '../corpus/output.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { dbOf, type Project } from './connection.ts';
import type { Db } from './database.ts';
import { copyInto, fileGone, ProjectFileGoneError } from './file-identity.ts';
import { backupPathOf, existingBackup } from './backup-path.ts';
import { quickCheck } from './integrity.ts';

/** An import of more pairs than this is backed up before it writes any pair. */
export const LARGE_IMPORT = 10_000;

/**
 * Replaces the backup of the project at `path` (open as `db`) with a copy of it as it is now.
 * Throws DamagedProjectError when the file fails the quick check (the old backup stays);
 * returns a one-line warning when the disk is too full for the copy, else null.
 */
export function backUp(db: Db, path: string): string | null {
  quickCheck(db, path);
  const backup = backupPathOf(path);
  const partial = `${backup}.partial-${process.pid}`;
  removeDeadPartials(dirname(path));
  rmSync(partial, { force: true });
  try {
    copyInto(db, partial);
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, backup);
    return null;
  } catch (err) {
    rmSync(partial, { force: true });
    if (isDiskFull(err)) return `no backup of ${basename(path)} was made: the disk is full (the last one, if any, is kept)`;
    const code = String((err as { code?: unknown }).code ?? '');
    if (code.startsWith('SQLITE_CORRUPT')) throw new DamagedProjectError(`${path}: ${(err as Error).message}`, existingBackup(path));
    throw err;
  }
}

/**
 * backUp for an open project, made in a worker thread (what the import pipeline calls before a
 * large import). A project whose file is no longer at its path is not copied: the copy would
 * be of whatever is there now, and the import's first write is refused anyway.
 */
export async function backUpInWorker(project: Project, ctx: JobContext): Promise<string | null> {
  if (fileGone(dbOf(project)))
    throw new ProjectFileGoneError(`${project.path}: the project file was deleted, moved or replaced while it was open`);
  return runInWorker<{ path: string }, string | null>(new URL('./backup.worker.ts', import.meta.url), { path: project.path }, ctx);
}
