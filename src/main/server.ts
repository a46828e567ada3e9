// Browser mode: the same API as the desktop app's IPC, over HTTP + WebSocket on
// 127.0.0.1. Every API call and the event socket need the per-run token (printed in the
// URL the user opens); there is no CORS header at all, and requests whose Origin is not
// this server are refused, so other web pages cannot drive it. Static files are the built
// renderer, sent with the same strict Content-Security-Policy as the desktop window.
// Exports the browser downloads are served from the server's own download folder.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { WebSocketServer } from 'ws';
import type { AppContext } from './api/app-context.ts';
import { dispatch } from './api/dispatch.ts';
import { CONTENT_SECURITY_POLICY } from '../shared/csp.ts';
import type { ApiErrorBody } from '../shared/api.ts';
import { rendererDir } from './paths.ts';
import { downloadPath } from './export-downloads.ts';

export interface ServerHandle {
  url: string;
  token: string;
  port: number;
  close(): Promise<void>;
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

async function receiveUpload(url: URL, req: IncomingMessage, res: ServerResponse, uploadDir: string): Promise<void> {
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

/** `token`: a fixed one (serve --token), so that a restarted server answers the pages still open; default: a new random one. */
export async function startServer(ctx: AppContext, options: { port?: number; token?: string } = {}): Promise<ServerHandle> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const root = rendererDir();
  removeStaleFolders();
  const uploadDir = mkdtempSync(join(tmpdir(), 'mekong-upload-'));
  const downloadDir = mkdtempSync(join(tmpdir(), 'mekong-download-'));
  ctx.downloadDir = downloadDir;
  let origin = '';
  const authorised = (req: IncomingMessage, given: string | null) =>
    given === token && (req.headers.origin === undefined || req.headers.origin === origin);

  // Every request is answered inside one try: a malformed request line, URL or escape is a
  // 400 for that request, never an exception that ends the process (and the training with it).
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      if (!res.headersSent) send(res, 400, { error: (e as Error).message, kind: 'input' });
      else res.destroy();
    }
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = requestUrl(req);
    if (url === null) return send(res, 400, { error: 'malformed request URL', kind: 'input' });
    if (url.pathname.startsWith('/download/')) return sendDownload(req, res, url);
    const isApi = url.pathname.startsWith('/api/') || url.pathname === '/upload';
    if (!isApi) return req.method === 'GET' ? serveStatic(url, res, root) : void res.writeHead(405).end();
    if (req.method !== 'POST') return void res.writeHead(405).end();
    if (!authorised(req, (req.headers['x-mekong-token'] as string | undefined) ?? null))
      return send(res, 401, { error: 'missing or wrong token', kind: 'input' });
    const channel = decodePath(url.pathname.slice(5));
    if (channel === null) return send(res, 400, { error: 'malformed channel name', kind: 'input' });
    const work =
      url.pathname === '/upload'
        ? receiveUpload(url, req, res, uploadDir)
        : readJson(req).then(async (input) => {
            const r = await dispatch(ctx, channel, input);
            send(res, r.ok ? 200 : STATUS[r.error.kind], r.ok ? r.value : r.error);
          });
    work.catch((err: Error) => {
      if (!res.headersSent) send(res, 400, { error: err.message, kind: 'input' });
      else res.destroy();
    });
  }

  /** `GET /download/<id>/<name>?token=…`: a link the page follows, so the token comes in the query, as for /events. */
  function sendDownload(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET') return void res.writeHead(405).end();
    if (!authorised(req, url.searchParams.get('token'))) return send(res, 401, { error: 'missing or wrong token', kind: 'input' });
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
    if (url === null || url.pathname !== '/events' || !authorised(req, url.searchParams.get('token'))) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      const off = ctx.jobs.onEvent((e) => ws.send(JSON.stringify(e)));
      ws.on('close', off);
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
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
          resolve();
        });
      }),
  };
}
