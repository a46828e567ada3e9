// Picks the transport: the preload's `window.mekong` in the desktop app, otherwise
// HTTP + WebSocket back to the browser-mode server that served this page, with its per-run
// token or, on a team server, the logged-in account's CSRF token. With neither, the page asks
// the server whether it has accounts (team-login.svelte).
import type { MekongApi } from '../../../shared/api.ts';
import { HttpApi } from './http-api.ts';
import { takeSessionToken, teamAccount } from './session-token.ts';

declare global {
  interface Window {
    mekong?: MekongApi;
  }
}

export type Connection = { kind: 'electron'; api: MekongApi } | { kind: 'browser'; api: HttpApi } | { kind: 'no-token' };

export function connect(): Connection {
  if (window.mekong) return { kind: 'electron', api: window.mekong };
  const token = takeSessionToken();
  if (token) return { kind: 'browser', api: new HttpApi({ token }) };
  const account = teamAccount();
  return account ? { kind: 'browser', api: new HttpApi({ csrf: account.csrf }) } : { kind: 'no-token' };
}
