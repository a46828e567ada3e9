// The single entry for every API call, whatever carried it: validates the input against
// the contract's schema, runs the handler, and maps errors to the contract's error body.
// A call made for a team server's logged-in account (`caller`) is first checked against the
// role table (team/permissions.ts: the one authorisation check) and runs with the account as
// its context's annotator, so every edit is the account's, whatever the page sent.
import { z } from 'zod';
import { channels, FIELD_LABELS, type ApiErrorBody, type Channel } from '../../shared/api.ts';
import { asUserError, DiskFullError } from '../errors.ts';
import { ProjectFileGoneError } from '../store/file-identity.ts';
import type { AppContext } from './app-context.ts';
import { handlers } from './handlers.ts';
import { asCallerInput, refusal } from '../team/permissions.ts';
import type { Caller } from '../store/team-file.ts';

/** `forbidden`: refused by the role table (server.ts answers 403). */
export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: ApiErrorBody; forbidden?: boolean };

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(channels, name);
}

/**
 * A refused input in the words of the form that sent it when every problem is in a field
 * the forms name ("Source language: 'xx' is not a language code (e.g. lo, th, zh)"); else
 * zod's account with the channel, for a caller that is a program.
 */
function describeInvalidInput(channel: string, error: z.ZodError): string {
  const labelled = error.issues.map((i) => (i.path.length === 1 ? FIELD_LABELS[String(i.path[0])] : undefined));
  if (labelled.every((l) => l !== undefined)) return error.issues.map((i, k) => `${labelled[k]}: ${i.message}`).join('; ');
  return `${channel}: ${z.prettifyError(error).replace(/\n/g, '; ')}`;
}

export async function dispatch(ctx: AppContext, channel: string, input: unknown, caller?: Caller): Promise<DispatchResult> {
  if (!isChannel(channel)) return { ok: false, error: { error: `unknown channel ${channel}`, kind: 'input' } };
  if (caller) {
    const why = refusal(ctx, caller, channel, input);
    if (why) return { ok: false, error: { error: why, kind: 'input' }, forbidden: true };
  }
  const parsed = channels[channel].safeParse(caller ? asCallerInput(caller, input ?? {}) : (input ?? {}));
  if (!parsed.success) {
    return { ok: false, error: { error: describeInvalidInput(channel, parsed.error), kind: 'input' } };
  }
  try {
    const handler = handlers[channel] as (ctx: AppContext, input: unknown) => unknown;
    const callCtx = caller ? { ...ctx, annotator: caller.name, caller } : ctx;
    return { ok: true, value: (await handler(callCtx, parsed.data)) ?? null };
  } catch (err) {
    if (err instanceof ProjectFileGoneError) return { ok: false, error: { error: err.message, kind: 'gone' } };
    const user = asUserError(err);
    if (user instanceof DiskFullError) return { ok: false, error: { error: user.message, kind: 'full' } };
    if (user) return { ok: false, error: { error: user.message, kind: 'input' } };
    console.error(`mekong: ${channel} failed:`, err);
    return { ok: false, error: { error: `internal error in ${channel}`, kind: 'internal' } };
  }
}
