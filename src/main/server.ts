// Browser mode: the same API as the desktop app's IPC, over HTTP + WebSocket on
// 127.0.0.1. Every API call and the event socket need the per-run token (printed in the
// URL the user opens); there is no CORS header at all, and requests whose Origin is not
// this server are refused, so other web pages cannot drive it. Static files are the built
// renderer, sent with the same strict Content-Security-Policy as the desktop window.
// Exports the browser downloads are served from the server's own download folder.
// Team mode (`team`): accounts and sessions instead of the token (team/team-access.ts), each
// call dispatched for its logged-in account, which the role table checks; the server may then
// listen on another address than loopback, over TLS (node:https) or behind a reverse proxy.
// Its event socket also carries presence and changes between the accounts (team/presence.ts).
// A call with a request id (REQUEST_ID_HEADER) that comes again, sent anew after its answer
// was lost, is answered with the first answer and runs once, also after a restart: the id is
// kept in the project file with the change it made (api/call-replies.ts).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer } from 'ws';
import type { AppContext } from './api/app-context.ts';
import { dispatch } from './api/dispatch.ts';
import { CONTENT_SECURITY_POLICY } from '../shared/csp.ts';
import { REQUEST_ID_HEADER, type ApiErrorBody, type Channel } from '../shared/api.ts';
import { rendererDir } from './paths.ts';
import { downloadPath } from './export-downloads.ts';
import { UserError } from './errors.ts';
import { mayCall } from './team/permissions.ts';
import type { Caller } from './store/team-file.ts';
import { TeamAccess, type TeamAccessOptions } from './team/team-access.ts';
import { Presence } from './team/presence.ts';
import { annotatorsShare } from './store/annotation-mode.ts';
import { CallReplies, isRequestId } from './api/call-replies.ts';

export interface ServerHandle {
  url: string;
  /** The per-run token of the single-user server ('' in team mode, where accounts log in). */
  token: string;
  port: number;
  close(): Promise<void>;
}

export interface ServerOptions {
  port?: number;
  /** A fixed token (serve --token), so that a restarted server answers the pages still open; default: a new random one. */
  token?: string;
  /** The address to listen on (default 127.0.0.1); any other than loopback needs `team` and `tls` or `behindProxy`. */
  host?: string;
  /** Team mode: the project's accounts log in (team-access.ts). */
  team?: TeamAccessOptions;
  /** PEM certificate and key: serve HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** A reverse proxy terminates TLS in front of this server (README: "A team server"). */
  behindProxy?: boolean;
  /** The address browsers use (scheme://host[:port]); Host and Origin must be its. Default: this server's own. */
  origin?: string;
}

/** 127.0.0.0/8, ::1 and localhost: only this machine reaches them. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** The one-line reason these options would expose the server unsafely, or null. */
export function exposureError(o: ServerOptions): string | null {
  const host = o.host ?? '127.0.0.1';
  if (isLoopback(host)) return null;
  if (!o.team) return `listening on ${host} (not this machine alone) needs --team: accounts instead of one token for everyone`;
  if (!o.tls && !o.behindProxy)
    return `listening on ${host} needs --tls-cert and --tls-key, or --behind-proxy with a TLS reverse proxy in front`;
  if (o.behindProxy && !o.origin) return '--behind-proxy needs --origin: the https:// address the proxy serves';
  if (!o.origin && (host === '0.0.0.0' || host === '::'))
    return `listening on every address (${host}) needs --origin: the address browsers open`;
  return null;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};
const MAX_JSON = 1 << 20;
/** Largest file the browser can upload for import (2 GiB: a 200k-pair TMX is ~60 MB). */
export const MAX_UPLOAD = 2 ** 31;

/** A request's URL, or null when the request line does not parse (`GET http://[`). */
function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://x');
  } catch {
    return null;
  }
}

/** decodeURIComponent that answers null for a bad escape (`/%c0`) instead of throwing. */
function decodePath(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** The HTTP status of a rejected call, by its error kind; 410 when the project file went away under the open project, 507 when the disk is full. */
const STATUS: Record<ApiErrorBody['kind'], number> = { input: 400, gone: 410, internal: 500, unreachable: 502, full: 507 };

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_JSON) throw new Error('request body too large');
    chunks.push(c);
  }
  return size ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

function serveStatic(url: URL, res: ServerResponse, root: string): void {
  if (url.pathname === '/favicon.ico') return void res.writeHead(204, PAGE_HEADERS).end();
  const decoded = decodePath(url.pathname);
  if (decoded === null || decoded.includes('\0')) return void res.writeHead(400, PAGE_HEADERS).end('bad path');
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  let file = join(root, rel || 'index.html');
  if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(403, PAGE_HEADERS).end();
  if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
  if (!existsSync(file)) return void res.writeHead(404, PAGE_HEADERS).end('renderer not built: run `npm run build`');
  res.writeHead(200, { ...PAGE_HEADERS, 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}

/** Stores an upload under the upload folder and answers its path; `uploads` keeps the name the user chose it by, for messages. */
async function receiveUpload(
  url: URL,
  req: IncomingMessage,
  res: ServerResponse,
  uploadDir: string,
  uploads: Map<string, string>,
): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_UPLOAD) return send(res, 413, { error: `upload larger than ${MAX_UPLOAD} bytes`, kind: 'input' });
  const name = basename(url.searchParams.get('name') ?? 'upload.txt');
  const target = join(uploadDir, `${Date.now()}-${name.replace(/[^\w.\-]+/g, '_')}`);
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > MAX_UPLOAD ? new Error(`upload larger than ${MAX_UPLOAD} bytes`) : null, chunk);
    },
  });
  try {
    await pipeline(req, limit, createWriteStream(target));
  } catch (e) {
    rmSync(target, { force: true });
    throw e;
  }
  uploads.set(target, name);
  send(res, 200, { path: target });
}

/** Upload and download folders of earlier runs that ended without closing (killed): removed after a day. */
function removeStaleFolders(): void {
  const dayAgo = Date.now() - 86_400_000;
  for (const d of readdirSync(tmpdir())) {
    if (!d.startsWith('mekong-upload-') && !d.startsWith('mekong-download-')) continue;
    const path = join(tmpdir(), d);
    try {
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process removed it first
    }
  }
}

export async function startServer(ctx: AppContext, options: ServerOptions = {}): Promise<ServerHandle> {
  const exposure = exposureError(options);
  if (exposure) throw new UserError(exposure);
  const host = options.host ?? '127.0.0.1';
  const team = options.team ? new TeamAccess({ ...options.team, behindProxy: options.behindProxy }) : null;
  const presence = team ? new Presence(() => ctx.store !== null && !annotatorsShare(ctx.store)) : null;
  const token = team ? '' : (options.token ?? randomBytes(24).toString('base64url'));
  const root = rendererDir();
  removeStaleFolders();
  const uploadDir = mkdtempSync(join(tmpdir(), 'mekong-upload-'));
  const downloadDir = mkdtempSync(join(tmpdir(), 'mekong-download-'));
  ctx.downloadDir = downloadDir;
  const uploads = (ctx.uploads = new Map());
  const replies = new CallReplies();
  let origin = '';

  /**
   * Whether a request may go on, and for whom: the single-user server checks the token
   * (`given`) and Origin; a team server the session cookie, Host and Origin, and for a
   * state-changing request (`kind` 'call') the CSRF header; the WebSocket must send Origin.
   */
  function admit(
    req: IncomingMessage,
    kind: 'call' | 'read' | 'socket',
    given: string | null,
  ): { caller?: Caller } | { status: number; error: string } {
    if (team) {
      const a = team.admit(req, kind === 'call', kind === 'socket');
      return a.ok ? { caller: a.caller } : a;
    }
    if (given === token && (req.headers.origin === undefined || req.headers.origin === origin)) return {};
    return { status: 401, error: 'missing or wrong token' };
  }

  // Every request is answered inside one try: a malformed request line, URL or escape is a
  // 400 for that request, never an exception that ends the process (and the training with it).
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    try {
      handle(req, res);
    } catch (e) {
      if (!res.headersSent) send(res, 400, { error: (e as Error).message, kind: 'input' });
      else res.destroy();
    }
  };
  const server = options.tls ? createTlsServer({ cert: options.tls.cert, key: options.tls.key }, onRequest) : createServer(onRequest);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = requestUrl(req);
    if (url === null) return send(res, 400, { error: 'malformed request URL', kind: 'input' });
    const foreign = team?.foreign(req);
    if (foreign) return send(res, 403, { error: foreign, kind: 'input' });
    if (url.pathname.startsWith('/auth/')) return answerAuth(req, res, url);
    if (url.pathname.startsWith('/download/')) return sendDownload(req, res, url);
    const isApi = url.pathname.startsWith('/api/') || url.pathname === '/upload';
    if (!isApi) return req.method === 'GET' ? serveStatic(url, res, root) : void res.writeHead(405).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const admitted = admit(req, 'call', (req.headers['x-mekong-token'] as string | undefined) ?? null);
    if ('status' in admitted) return send(res, admitted.status, { error: admitted.error, kind: 'input' });
    const { caller } = admitted;
    const channel = decodePath(url.pathname.slice(5));
    if (channel === null) return send(res, 400, { error: 'malformed channel name', kind: 'input' });
    const requestId = req.headers[REQUEST_ID_HEADER];
    if (requestId !== undefined && (typeof requestId !== 'string' || !isRequestId(requestId)))
      return send(res, 400, { error: `${REQUEST_ID_HEADER}: expected 1 to 100 letters, digits or _.:-`, kind: 'input' });
    // an upload is the first step of an import (or a dictionary, or a mining run): a manager's
    if (url.pathname === '/upload' && caller && !mayCall(caller.role, 'import.start'))
      return send(res, 403, { error: `uploads are for the manager role; ${caller.name}'s role is ${caller.role}`, kind: 'input' });
    const work =
      url.pathname === '/upload'
        ? receiveUpload(url, req, res, uploadDir, uploads)
        : readJson(req).then(async (input) => {
            const run = async () => {
              const r = await dispatch(ctx, channel, input, caller);
              if (r.ok && caller) {
                team!.recordCall(caller, channel as Channel, input);
                presence?.changed(caller, channel as Channel, input, r.value);
              }
              return r;
            };
            // a re-send is known by its id within the project and the account that sent it
            const r = requestId ? await replies.once(ctx.store, { account: caller?.name ?? '', channel, id: requestId }, run) : await run();
            send(res, r.ok ? 200 : r.forbidden ? 403 : STATUS[r.error.kind], r.ok ? r.value : r.error);
          });
    work.catch((err: Error) => {
      if (!res.headersSent) send(res, 400, { error: err.message, kind: 'input' });
      else res.destroy();
    });
  }

  /** `/auth/…`: a team server's login, logout and session; the single-user server answers that it has no accounts. */
  function answerAuth(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (!team) {
      if (url.pathname === '/auth/session' && req.method === 'GET') return send(res, 200, { team: false });
      return send(res, 404, { error: 'this server has no accounts', kind: 'input' });
    }
    void team.route(req, url).then((reply) => {
      for (const [name, value] of Object.entries(reply?.headers ?? {})) res.setHeader(name, value);
      send(res, reply?.status ?? 404, reply?.body ?? null);
    });
  }

  /** `GET /download/<id>/<name>?token=…`: a link the page follows, so the token comes in the query, as for /events (a team server: the session cookie). */
  function sendDownload(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET') return void res.writeHead(405).end();
    const admitted = admit(req, 'read', url.searchParams.get('token'));
    if ('status' in admitted) return send(res, admitted.status, { error: admitted.error, kind: 'input' });
    if (admitted.caller && !mayCall(admitted.caller.role, 'export.downloads'))
      return send(res, 403, { error: 'downloads of exports are for the manager role', kind: 'input' });
    const [id, name] = url.pathname.slice('/download/'.length).split('/').map(decodePath);
    const file = id && name ? downloadPath(downloadDir, id, name) : null;
    if (file === null) return send(res, 404, { error: 'no such download', kind: 'input' });
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': statSync(file).size,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name!)}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    createReadStream(file).pipe(res);
  }

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = requestUrl(req);
    const admitted = url?.pathname === '/events' ? admit(req, 'socket', url.searchParams.get('token')) : null;
    if (admitted === null || 'status' in admitted) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const off = ctx.jobs.onEvent((e) => ws.send(JSON.stringify(e)));
      // a team page says which pair it has open; the others are told (team/presence.ts)
      if (presence && admitted.caller) {
        presence.join(ws, admitted.caller);
        ws.on('message', (data) => presence.receive(ws, String(data)));
      }
      ws.on('close', () => {
        off();
        presence?.leave(ws);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      team?.close();
      reject(
        new UserError(e.code === 'EADDRINUSE' ? `port ${options.port} on ${host} is in use` : `cannot listen on ${host}: ${e.message}`),
      );
    });
    server.listen(options.port ?? 0, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  origin = options.origin
    ? new URL(options.origin).origin
    : `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  team?.setOrigin(origin);
  return {
    url: team ? `${origin}/` : `${origin}/?token=${token}`,
    token,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => {
          rmSync(uploadDir, { recursive: true, force: true });
          rmSync(downloadDir, { recursive: true, force: true });
          if (ctx.downloadDir === downloadDir) delete ctx.downloadDir;
          team?.close();
          if (ctx.uploads === uploads) delete ctx.uploads;
          resolve();
        });
      }),
  };
}
