// The error a rejected API call throws in the renderer, whichever transport carried it:
// the Node side's message (naming file, line and reason for bad input) and its kind.
import type { ApiErrorBody } from '../../../shared/api.ts';

export class ApiError extends Error {
  readonly kind: ApiErrorBody['kind'];

  constructor(body: ApiErrorBody) {
    super(body.error);
    this.name = 'ApiError';
    this.kind = body.kind;
  }
}

/** Whether a call failed because the server could not be reached (the call may be sent again). */
export function isUnreachable(err: unknown): boolean {
  return err instanceof ApiError && err.kind === 'unreachable';
}

/** A message fit to show a user, from anything a call or a transport may throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
