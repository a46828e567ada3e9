// The single entry for every API call, whatever carried it: validates the input against
// the contract's schema, runs the handler, and maps errors to the contract's error body.
import { z } from 'zod';
import { channels, type ApiErrorBody, type Channel } from '../../shared/api.ts';
import { asUserError, DiskFullError } from '../errors.ts';
import { ProjectFileGoneError } from '../store/file-identity.ts';
import type { AppContext } from './app-context.ts';
import { handlers } from './handlers.ts';

export type DispatchResult = { ok: true; value: unknown } | { ok: false; error: ApiErrorBody };

export function isChannel(name: string): name is Channel {
  return Object.hasOwn(channels, name);
}

export async function dispatch(ctx: AppContext, channel: string, input: unknown): Promise<DispatchResult> {
  if (!isChannel(channel)) return { ok: false, error: { error: `unknown channel ${channel}`, kind: 'input' } };
  const parsed = channels[channel].safeParse(input ?? {});
  if (!parsed.success) {
    return { ok: false, error: { error: `${channel}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`, kind: 'input' } };
  }
  try {
    const handler = handlers[channel] as (ctx: AppContext, input: unknown) => unknown;
    return { ok: true, value: (await handler(ctx, parsed.data)) ?? null };
  } catch (err) {
    if (err instanceof ProjectFileGoneError) return { ok: false, error: { error: err.message, kind: 'gone' } };
    const user = asUserError(err);
    if (user instanceof DiskFullError) return { ok: false, error: { error: user.message, kind: 'full' } };
    if (user) return { ok: false, error: { error: user.message, kind: 'input' } };
    console.error(`mekong: ${channel} failed:`, err);
    return { ok: false, error: { error: `internal error in ${channel}`, kind: 'internal' } };
  }
}
