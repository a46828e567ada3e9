// Browser-mode transport: API calls as `POST /api/<channel>` with the per-run token in
// a header, job events from the `/events` WebSocket (reconnected if it drops), raw file
// uploads to `/upload` that return a path on the server machine, and the links exports
// are downloaded from (`/download/…`). On a team server the session cookie goes along by
// itself and each POST carries the session's CSRF token instead; a 401 (the session expired,
// the account was removed) forgets the account and reloads the page, which shows the login.
// A team page also tells the socket which pair it has open and hears who else has which pair
// open and which open pair someone changed (shared/team-events.ts).
// A call given a request id carries it in a header, so that the server runs a re-send once.
import {
  REQUEST_ID_HEADER,
  type ApiErrorBody,
  type CallOptions,
  type Channel,
  type ChannelInput,
  type JobEvent,
  type MekongApi,
  type Results,
} from '../../../shared/api.ts';
import { ApiError } from './api-error.ts';
import { setTeamAccount } from './session-token.ts';
import { isTeamEvent, type OpenPairMessage, type TeamEvent } from '../../../shared/team-events.ts';

/** How calls are authorised: the single-user server's per-run token, or a team session's CSRF token. */
export type HttpAuth = { token: string } | { csrf: string };

const RECONNECT_MS = 1000;

export class HttpApi implements MekongApi {
  private readonly listeners = new Set<(event: JobEvent) => void>();
  private readonly teamListeners = new Set<(event: TeamEvent) => void>();
  /** The pair this page has open, told again whenever the socket (re)connects. */
  private openPairId: number | null = null;
  private socket: WebSocket | null = null;
  private socketOpen: Promise<void> = Promise.resolve();

  constructor(private readonly auth: HttpAuth) {}

  /** Logged in to a team server (not the single-user server's token). */
  get team(): boolean {
    return 'csrf' in this.auth;
  }

  /** Ends the team session and reloads the page, which shows the login. */
  async logout(): Promise<void> {
    await this.post('/auth/logout', 'application/json', '{}').catch(() => undefined);
    setTeamAccount(null);
    window.location.reload();
  }

  /** The query a link or the socket carries: the token; nothing on a team server (the cookie goes along). */
  private tokenQuery(): string {
    return 'token' in this.auth ? `?token=${encodeURIComponent(this.auth.token)}` : '';
  }

  async invoke<C extends Channel>(channel: C, input: ChannelInput<C>, options: CallOptions = {}): Promise<Results[C]> {
    // Jobs report through the socket: make sure it listens before one can start.
    await this.socketOpen;
    const id: Record<string, string> = options.requestId ? { [REQUEST_ID_HEADER]: options.requestId } : {};
    const res = await this.post(`/api/${channel}`, 'application/json', JSON.stringify(input), id);
    return (await res.json()) as Results[C];
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.socket) this.connect();
    return () => this.listeners.delete(listener);
  }

  /** A team server's presence and change events. */
  onTeamEvent(listener: (event: TeamEvent) => void): () => void {
    this.teamListeners.add(listener);
    if (!this.socket) this.connect();
    return () => this.teamListeners.delete(listener);
  }

  /** Tells the team server which pair this page has open (null: none). */
  openPair(pairId: number | null): void {
    this.openPairId = pairId;
    this.sendOpenPair();
  }

  private sendOpenPair(): void {
    const message: OpenPairMessage = { type: 'open', pairId: this.openPairId };
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Where the browser fetches one file of an export written for download (the token in the query: a plain link). */
  downloadUrl(download: string, name: string): string {
    return `/download/${encodeURIComponent(download)}/${encodeURIComponent(name)}${this.tokenQuery()}`;
  }

  /** Sends a local file's bytes to the server; resolves to its path there. */
  async upload(file: File): Promise<string> {
    const res = await this.post(`/upload?name=${encodeURIComponent(file.name)}`, 'application/octet-stream', file);
    return ((await res.json()) as { path: string }).path;
  }

  private async post(path: string, type: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
    let res: Response;
    try {
      const credential: Record<string, string> =
        'token' in this.auth ? { 'x-mekong-token': this.auth.token } : { 'x-mekong-csrf': this.auth.csrf };
      res = await fetch(path, { method: 'POST', headers: { 'content-type': type, ...credential, ...headers }, body });
    } catch {
      // fetch rejects only when no answer came back at all ("Failed to fetch").
      throw new ApiError({ error: 'The Mekong server is not answering: it was stopped, or the connection dropped.', kind: 'unreachable' });
    }
    if (res.ok) return res;
    if (res.status === 401 && this.team) {
      setTeamAccount(null);
      window.location.reload();
    }
    const error = (await res.json().catch(() => null)) as ApiErrorBody | null;
    throw new ApiError(error ?? { error: `${res.status} ${res.statusText}`, kind: 'internal' });
  }

  private connect(): void {
    const url = new URL(`/events${this.tokenQuery()}`, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    this.socketOpen = new Promise<void>((resolve) => {
      socket.addEventListener(
        'open',
        () => {
          resolve();
          if (this.openPairId !== null) this.sendOpenPair();
        },
        { once: true },
      );
      socket.addEventListener('close', () => resolve(), { once: true });
    });
    socket.addEventListener('message', (msg) => {
      const event = JSON.parse(String(msg.data)) as JobEvent | TeamEvent;
      if (isTeamEvent(event)) for (const listener of this.teamListeners) listener(event);
      else for (const listener of this.listeners) listener(event);
    });
    socket.addEventListener('close', () => {
      this.socket = null;
      if (this.listeners.size || this.teamListeners.size) setTimeout(() => !this.socket && this.connect(), RECONNECT_MS);
    });
  }
}
