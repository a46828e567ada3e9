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

/** `err` as a UserError when the user caused it (a UserError, or a file-system error on a path); else null. */
export function asUserError(err: unknown): UserError | null {
  if (err instanceof UserError) return err;
  const e = err as NodeJS.ErrnoException | null;
  const reason = typeof e?.code === 'string' ? FS_REASONS.get(e.code) : undefined;
  if (reason === undefined) return null;
  return new UserError(e!.path ? `${e!.path}: ${reason}` : `${reason} (${e!.syscall ?? e!.code})`);
}
