// What the browser shows after a call, in the linguist's words: a bad language code names
// the form's field, not the channel and zod's path; an import of an uploaded file names the
// file as the user chose it, never the server's temporary path; a header row is reported
// with the dialog's field to change; the wrong-script refusal names the dialog's checkbox.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { startServer, type ServerHandle } from '../../../src/main/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
let ctx: AppContext;
let server: ServerHandle;
let ws: WebSocket;
const events: JobEvent[] = [];
const base = () => `http://127.0.0.1:${server.port}`;

async function call(channel: string, input: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${base()}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mekong-token': server.token },
    body: JSON.stringify(input),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

async function upload(name: string, text: string): Promise<string> {
  const r = await fetch(`${base()}/upload?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'x-mekong-token': server.token, 'content-type': 'application/octet-stream' },
    body: text,
  });
  return ((await r.json()) as { path: string }).path;
}

/** Starts an import of `file` and waits for its end: the job.done message or the job.failed error. */
async function importEnd(input: Record<string, unknown>): Promise<JobEvent> {
  const { body } = await call('import.start', { format: 'csv', ...input });
  const jobId = body.jobId as string;
  await expect.poll(() => events.find((e) => e.jobId === jobId && e.type !== 'job.progress'), { timeout: 60_000 }).toBeDefined();
  return events.find((e) => e.jobId === jobId && e.type !== 'job.progress')!;
}

beforeAll(async () => {
  ctx = createContext('browser', 'tester', dir);
  server = await startServer(ctx);
  ws = new WebSocket(`ws://127.0.0.1:${server.port}/events?token=${server.token}`, { origin: base() });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.on('message', (m) => events.push(JSON.parse(String(m)) as JobEvent));
});
afterAll(async () => {
  ws.close();
  await server.close();
  ctx.store?.close();
});

describe('messages a linguist reads', () => {
  test('a bad language code names the field', async () => {
    const r = await call('project.create', { path: join(dir, 'x.mekong'), name: 'x', srcLang: 'xx', tgtLang: 'th' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("Source language: 'xx' is not a language code (e.g. lo, th, zh)");
    const both = await call('project.create', { path: join(dir, 'x.mekong'), name: 'x', srcLang: 'lo', tgtLang: 'thai' });
    expect(both.body.error).toBe("Target language: 'thai' is not a language code (e.g. lo, th, zh)");
    // a field no form names keeps the channel and zod's account
    const other = await call('project.create', { path: '', name: 'x', srcLang: 'lo', tgtLang: 'th' });
    expect(other.body.error).toMatch(/^project\.create: /);
  });

  test('an uploaded file is named as the user chose it, in the summary and in errors', async () => {
    expect((await call('project.create', { path: join(dir, 'vi-en.mekong'), name: 'v', srcLang: 'vi', tgtLang: 'en' })).status).toBe(200);
    const header = await importEnd({ file: await upload('tatoeba vi-en.csv', 'vi,en\nTôi ăn cơm,I eat rice\nXin chào,Hello\n') });
    expect(header).toMatchObject({
      type: 'job.done',
      message:
        'imported 2 pairs from tatoeba vi-en.csv; line 1 ("vi", "en") looked like a header and was skipped; set "First line" to "a sentence pair" to keep it as a pair',
    });
    const empty = await importEnd({ file: await upload('empty.csv', '') });
    expect(empty).toMatchObject({ type: 'job.failed', error: 'empty.csv: the file is empty: there is nothing to import' });
    const lao = await importEnd({ file: await upload('lao.csv', 'ສະບາຍດີ,สวัสดี\nຂອບໃຈ,ขอบคุณ\n') });
    expect(lao.type).toBe('job.failed');
    const error = (lao as { error: string }).error;
    expect(error).toMatch(
      /^lao\.csv: the source side .*\(or tick "Import even if the text's script does not match the project's languages"\)$/,
    );
    expect(error).not.toMatch(/mekong-upload|--any-script/);
  });
});
