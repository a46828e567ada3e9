// Browser-mode transport: API calls as `POST /api/<channel>` with the per-run token in
// a header, job events from the `/events` WebSocket (reconnected if it drops), raw file
// uploads to `/upload` that return a path on the server machine, and the links exports
// are downloaded from (`/download/…`).
import type { ApiErrorBody, Channel, ChannelInput, JobEvent, MekongApi, Results } from '../../../shared/api.ts';
import { ApiError } from './api-error.ts';

const RECONNECT_MS = 1000;

export class HttpApi implements MekongApi {
  private readonly listeners = new Set<(event: JobEvent) => void>();
  private socket: WebSocket | null = null;
  private socketOpen: Promise<void> = Promise.resolve();

  constructor(private readonly token: string) {}

  async invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<Results[C]> {
    // Jobs report through the socket: make sure it listens before one can start.
    await this.socketOpen;
    const res = await this.post(`/api/${channel}`, 'application/json', JSON.stringify(input));
    return (await res.json()) as Results[C];
  }

  onEvent(listener: (event: JobEvent) => void): () => void {
    this.listeners.add(listener);
    if (!this.socket) this.connect();
    return () => this.listeners.delete(listener);
  }

  /** Where the browser fetches one file of an export written for download (the token in the query: a plain link). */
  downloadUrl(download: string, name: string): string {
    return `/download/${encodeURIComponent(download)}/${encodeURIComponent(name)}?token=${encodeURIComponent(this.token)}`;
  }

  /** Sends a local file's bytes to the server; resolves to its path there. */
  async upload(file: File): Promise<string> {
    const res = await this.post(`/upload?name=${encodeURIComponent(file.name)}`, 'application/octet-stream', file);
    return ((await res.json()) as { path: string }).path;
  }

  private async post(path: string, type: string, body: BodyInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(path, { method: 'POST', headers: { 'content-type': type, 'x-mekong-token': this.token }, body });
    } catch {
      // fetch rejects only when no answer came back at all ("Failed to fetch").
      throw new ApiError({ error: 'The Mekong server is not answering: it was stopped, or the connection dropped.', kind: 'unreachable' });
    }
    if (res.ok) return res;
    const error = (await res.json().catch(() => null)) as ApiErrorBody | null;
    throw new ApiError(error ?? { error: `${res.status} ${res.statusText}`, kind: 'internal' });
  }

  private connect(): void {
    const url = new URL(`/events?token=${encodeURIComponent(this.token)}`, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.socket = socket;
    this.socketOpen = new Promise<void>((resolve) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('close', () => resolve(), { once: true });
    });
    socket.addEventListener('message', (msg) => {
      const event = JSON.parse(String(msg.data)) as JobEvent;
      for (const listener of this.listeners) listener(event);
    });
    socket.addEventListener('close', () => {
      this.socket = null;
      if (this.listeners.size) setTimeout(() => !this.socket && this.connect(), RECONNECT_MS);
    });
  }
}
