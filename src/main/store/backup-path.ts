// Where a project's automatic backup (backup.ts) is kept: `<project>.backup`, beside it. Its
// own module, importing nothing of the store, so that opening (database.ts) and the damage
// checks (integrity.ts) can name the backup without import cycles.
import { existsSync } from 'node:fs';

/** Where the automatic backup of the project at `path` is kept. */
export function backupPathOf(path: string): string {
  return `${path}.backup`;
}

/** The automatic backup of the project at `path`, or null when there is none. */
export function existingBackup(path: string): string | null {
  const backup = backupPathOf(path);
  return existsSync(backup) ? backup : null;
}
