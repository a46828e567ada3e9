// Browser-mode transport: token and origin checks, schema validation of every call,
// the CSP on pages, job events over the WebSocket.
import { get } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { startServer, type ServerHandle } from '../../../src/main/server.ts';
import { sampleCorpusPath } from '../../../src/main/corpus/sample.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
let ctx: AppContext;
let server: ServerHandle;
const base = () => `http://127.0.0.1:${server.port}`;

function call(channel: string, input: unknown, headers: Record<string, string> = { 'x-mekong-token': server.token }) {
  return fetch(`${base()}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
  });
}

beforeAll(async () => {
  ctx = createContext('browser', 'tester', dir);
  server = await startServer(ctx);
});
afterAll(async () => {
  await server.close();
  ctx.store?.close();
});

describe('browser-mode server', () => {
  test('binds to 127.0.0.1 and prints a tokened URL', () => {
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[\\w-]{20,}$`));
  });

  test('refuses calls without the token, with a wrong one, or from another origin', async () => {
    expect((await call('app.info', {}, {})).status).toBe(401);
    expect((await call('app.info', {}, { 'x-mekong-token': 'nope' })).status).toBe(401);
    const foreign = await call('app.info', {}, { 'x-mekong-token': server.token, origin: 'https://evil.example' });
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const ok = await call('app.info', {});
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ mode: 'browser', annotator: 'tester', project: null });
  });

  test('validates every input against the contract', async () => {
    const bad = await call('project.create', { path: '', name: 'x', srcLang: 'lo', tgtLang: 'th', extra: 1 });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: string; kind: string };
    expect(body.kind).toBe('input');
    expect(body.error).toMatch(/project\.create/);
    expect((await call('no.such', {})).status).toBe(400);
    expect((await call('pairs.list', { filter: {}, offset: 0, limit: 10 })).status).toBe(400);
  });

  test('serves pages with the strict CSP, and nothing outside the renderer', async () => {
    const page = await fetch(`${base()}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port: server.port, path: '/..%2f..%2f..%2f..%2fetc%2fpasswd' }, (r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(body).not.toMatch(/root:/);
  });

  test('creates a project, imports with progress events over the WebSocket, lists pairs', async () => {
    const events: JobEvent[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events?token=${server.token}`);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('message', (m) => events.push(JSON.parse(String(m)) as JobEvent));
    expect((await call('project.create', { path: join(dir, 'w.mekong'), name: 'web', srcLang: 'lo', tgtLang: 'th' })).status).toBe(200);
    const start = await call('import.start', {
      file: sampleCorpusPath(),
      format: 'csv',
      header: true,
      srcColumn: 'lao_sent',
      tgtColumn: 'thai_sent',
    });
    const { jobId } = (await start.json()) as { jobId: string };
    await expect.poll(() => events.find((e) => e.type !== 'job.progress'), { timeout: 30_000 }).toMatchObject({ type: 'job.done', jobId });
    expect(events.some((e) => e.type === 'job.progress' && e.jobId === jobId)).toBe(true);
    const list = (await (await call('pairs.list', { filter: { text: 'ລາວ' }, offset: 0, limit: 5 })).json()) as { total: number };
    expect(list.total).toBeGreaterThan(10);
    ws.close();
  });

  test('refuses a WebSocket without the token', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`);
    await expect(
      new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      }),
    ).rejects.toThrow();
  });
});

/** Sends one raw request (any bytes) and resolves with the status line, or '' if the socket closed silently. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', () => resolve(text.split('\r\n')[0] ?? ''));
  });
}

describe('malformed requests', () => {
  // Each of these ended the process before: decodeURIComponent and new URL threw outside any try.
  const killers = [
    'GET /%c0 HTTP/1.1',
    'GET /%E0%A4%A HTTP/1.1',
    'GET /% HTTP/1.1',
    'GET /%zz/%c0 HTTP/1.1',
    'GET http://[ HTTP/1.1',
    'GET http://[::1 HTTP/1.1',
    'GET http://%zz/ HTTP/1.1',
    'GET http:// HTTP/1.1',
    'POST /api/%c0 HTTP/1.1',
    'GET /events%c0 HTTP/1.1',
  ];

  test('a bad escape or an unparsable request line is a 400, and the server lives on', async () => {
    for (const line of killers) {
      const status = await raw(server.port, `${line}\r\nhost: 127.0.0.1\r\ncontent-length: 0\r\n\r\n`);
      expect(status, line).toMatch(/^HTTP\/1\.1 4\d\d/);
    }
    expect((await call('app.info', {})).status).toBe(200);
  });

  test('hundreds of random request lines and URLs never end the server', async () => {
    // Fixed seed: the same 300 cases every run (mulberry32).
    let seed = 20261125;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const parts = [
      '/',
      '%',
      '%c0',
      '%zz',
      'http://',
      '[',
      ']',
      '::',
      '@',
      '?',
      '#',
      '..',
      '\\',
      'api/',
      'upload',
      'events',
      '%00',
      'ü',
      '%2f',
      ' ',
    ];
    const methods = ['GET', 'POST', 'PUT', 'OPTIONS', 'BREW', ''];
    for (let i = 0; i < 300; i++) {
      let target = '';
      const n = 1 + Math.floor(rand() * 8);
      for (let k = 0; k < n; k++) target += parts[Math.floor(rand() * parts.length)];
      const method = methods[Math.floor(rand() * methods.length)];
      const upgrade =
        rand() < 0.2
          ? 'upgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n'
          : '';
      await raw(server.port, `${method} ${target} HTTP/1.1\r\nhost: 127.0.0.1\r\n${upgrade}content-length: 0\r\n\r\n`);
    }
    expect((await call('app.info', {})).status).toBe(200);
  });

  test('an upload over the limit is refused before it is written', async () => {
    const r = await fetch(`${base()}/upload?name=big.txt`, {
      method: 'POST',
      headers: { 'x-mekong-token': server.token, 'content-length': String(2 ** 31 + 1) },
      body: 'x',
    }).catch((e: Error) => e);
    // Node's fetch may refuse the mismatched length itself; either way nothing is stored.
    if (!(r instanceof Error)) expect(r.status).toBe(413);
    expect((await call('app.info', {})).status).toBe(200);
  });
});

describe('native dialogs', () => {
  test('are refused in browser mode with a clear message', async () => {
    const r = await call('dialog.openFile', { purpose: 'corpus' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/only in the desktop app/);
  });
});
