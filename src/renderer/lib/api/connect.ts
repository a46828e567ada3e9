// Picks the transport: the preload's `window.mekong` in the desktop app, otherwise
// HTTP + WebSocket back to the browser-mode server that served this page.
import type { MekongApi } from '../../../shared/api.ts';
import { HttpApi } from './http-api.ts';
import { takeSessionToken } from './session-token.ts';

declare global {
  interface Window {
    mekong?: MekongApi;
  }
}

export type Connection = { kind: 'electron'; api: MekongApi } | { kind: 'browser'; api: HttpApi } | { kind: 'no-token' };

export function connect(): Connection {
  if (window.mekong) return { kind: 'electron', api: window.mekong };
  const token = takeSessionToken();
  return token ? { kind: 'browser', api: new HttpApi(token) } : { kind: 'no-token' };
}
