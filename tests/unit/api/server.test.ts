// Browser-mode transport: token and origin checks, schema validation of every call,
// the CSP on pages, job events over the WebSocket.
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/context.ts';
import { startServer, type ServerHandle } from '../../../src/main/server.ts';
import { sampleCorpusPath } from '../../../src/main/corpus/sample.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
let ctx: AppContext;
let server: ServerHandle;
const base = () => `http://127.0.0.1:${server.port}`;

function call(channel: string, input: unknown, headers: Record<string, string> = { 'x-mekong-token': server.token }) {
  return fetch(`${base()}/api/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });
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
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    ws.on('message', (m) => events.push(JSON.parse(String(m)) as JobEvent));
    expect((await call('project.create', { path: join(dir, 'w.mekong'), name: 'web', srcLang: 'lo', tgtLang: 'th' })).status).toBe(200);
    const start = await call('import.start', { file: sampleCorpusPath(), format: 'csv', header: true, srcColumn: 'lao_sent', tgtColumn: 'thai_sent' });
    const { jobId } = (await start.json()) as { jobId: string };
    await expect.poll(() => events.find((e) => e.type !== 'job.progress'), { timeout: 30_000 }).toMatchObject({ type: 'job.done', jobId });
    expect(events.some((e) => e.type === 'job.progress' && e.jobId === jobId)).toBe(true);
    const list = (await (await call('pairs.list', { filter: { text: 'ລາວ' }, offset: 0, limit: 5 })).json()) as { total: number };
    expect(list.total).toBeGreaterThan(10);
    ws.close();
  });

  test('refuses a WebSocket without the token', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`);
    await expect(new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); })).rejects.toThrow();
  });
});

describe('native dialogs', () => {
  test('are refused in browser mode with a clear message', async () => {
    const r = await call('dialog.openFile', { purpose: 'corpus' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/only in the desktop app/);
  });
});
