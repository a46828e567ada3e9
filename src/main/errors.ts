// Errors the user caused (bad file, bad argument): shown as one line naming the file,
// the line and the reason, never as a stack trace. `asUserError` also turns the file-system
// errors a user causes (a missing file, a folder, a link loop, no permission) into one.

export class UserError extends Error {
  override name = 'UserError';
}

/** A problem at a known place in an input file. `line` is 1-based; 0 when not known. */
export class InputError extends UserError {
  override name = 'InputError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${reason}` : `${file}: ${reason}`);
  }
}

/** Thrown by long work when the user cancelled it. */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor() {
    super('cancelled');
  }
}

/** What a file-system error code means to a user, for the codes a mistyped or odd path causes. */
const FS_REASONS: ReadonlyMap<string, string> = new Map([
  ['ENOENT', 'no such file or folder'],
  ['EISDIR', 'is a folder, not a file'],
  ['ENOTDIR', 'a part of the path is not a folder'],
  ['ELOOP', 'too many symbolic links (a link loop?)'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EROFS', 'read-only file system'],
  ['ENOSPC', 'no space left on the device'],
  ['EEXIST', 'already exists'],
  ['ENAMETOOLONG', 'file name too long'],
  ['EMFILE', 'too many open files'],
]);

/** The disk (or the quota) filled up: what was being written was not kept; nothing saved before is lost. */
export class DiskFullError extends UserError {
  override name = 'DiskFullError';
}

/** Whether `err` is SQLite's or the file system's "no space left". */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/** What to do about a damaged project file, after the one line that says what is damaged. */
export const DAMAGE_ADVICE = 'the project file is damaged; run `mekong check` on it, and restore it from a backup copy';

/** DAMAGE_ADVICE naming the project's automatic backup (store/backup.ts) when there is one. */
export function damageAdvice(backup: string | null = null): string {
  return backup === null ? DAMAGE_ADVICE : `the project file is damaged; run \`mekong check\` on it, and restore it from ${backup}`;
}

/** A project file whose content is damaged (found by SQLite, or by a reader of its data). */
export class DamagedProjectError extends UserError {
  override name = 'DamagedProjectError';
  /** `backup`: the project's automatic backup, named in the advice, when one exists. */
  constructor(what: string, backup: string | null = null) {
    super(`${what}: ${damageAdvice(backup)}`);
  }
}

/** Why a change to a project opened read-only was refused. */
export const READ_ONLY_REASON = 'the project is open read-only (its file, folder or mount cannot be written): nothing was changed';

/** What an SQLite error means to a user, for the codes that a file's place or state causes. */
function sqliteReason(code: string): string | undefined {
  if (code.startsWith('SQLITE_READONLY')) return READ_ONLY_REASON;
  if (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'SQLITE_NOTADB') return DAMAGE_ADVICE;
  return undefined;
}

/** `err` as a UserError when the user caused it (a UserError, or a file-system error on a path); else null. */
export function asUserError(err: unknown): UserError | null {
  if (err instanceof UserError) return err;
  if (isDiskFull(err)) return new DiskFullError('the disk is full: this change was not saved (everything saved before is kept)');
  const sqlite =
    (err as { name?: string; code?: unknown } | null)?.name === 'SqliteError'
      ? sqliteReason(String((err as { code: unknown }).code))
      : undefined;
  if (sqlite !== undefined) return new UserError(sqlite);
  const e = err as NodeJS.ErrnoException | null;
  const reason = typeof e?.code === 'string' ? FS_REASONS.get(e.code) : undefined;
  if (reason === undefined) return null;
  return new UserError(e!.path ? `${e!.path}: ${reason}` : `${reason} (${e!.syscall ?? e!.code})`);
}
