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

/** A message fit to show a user, from anything a call or a transport may throw. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
