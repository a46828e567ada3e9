// Errors the user caused (bad file, bad argument): shown as one line naming the file,
// the line and the reason, never as a stack trace.

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
