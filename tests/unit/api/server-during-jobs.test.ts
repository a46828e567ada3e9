// The server keeps answering while ONNX jobs run: a fine-tuning run of the project's encoder
// and an encoder Align job (a tiny BERT-shaped folder, real ONNX sessions) run in worker
// threads, so the browser-mode server answers HTTP calls during them and a timer on the
// server's thread is never held up for long (its largest delay is measured and bounded).
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { startServer, type ServerHandle } from '../../../src/main/server.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from '../models/transformer/tiny-encoders.ts';

const dir = tempDir('mekong-server-during-jobs-');
let ctx: AppContext;
let server: ServerHandle;
const events: JobEvent[] = [];

function call(channel: string, input: unknown) {
  return fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mekong-token': server.token },
    body: JSON.stringify(input),
  });
}

beforeAll(async () => {
  const { src, tgt } = samplePairs(48);
  const { store } = project(
    dir,
    src.map((s, k) => [s.join(' '), tgt[k].join(' ')]),
  );
  ctx = { ...createContext('browser', 'anna', dir), store };
  ctx.jobs.onEvent((e) => events.push(e));
  server = await startServer(ctx);
  const bert = join(dir, 'tiny-bert');
  writeTinyBert(bert);
  expect((await call('project.setEncoder', { dir: bert })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
  ctx.store?.close();
});

/** Runs the job `start` starts while calling the server and timing a 10 ms timer; returns the job's outcome, the calls answered and the timer's largest delay. */
async function whileRunning(start: () => Promise<Response>): Promise<{ outcome: JobEvent; answered: number; maxDelayMs: number }> {
  const { jobId } = (await (await start()).json()) as { jobId: string };
  let last = performance.now();
  let maxDelayMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxDelayMs = Math.max(maxDelayMs, now - last - 10);
    last = now;
  }, 10);
  let answered = 0;
  try {
    for (;;) {
      const outcome = events.find((e) => e.jobId === jobId && e.type !== 'job.progress');
      if (outcome) return { outcome, answered, maxDelayMs };
      const r = await call('app.info', {});
      if (r.status === 200) answered++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    clearInterval(timer);
  }
}

test('the server answers while a fine-tuning run trains', async () => {
  const r = await whileRunning(() =>
    call('models.train', { method: 'encoder-finetune', epochs: 3, lr: 1e-3, finetune: { objectives: ['tr', 'awp'], batch: 4 } }),
  );
  expect(r.outcome).toMatchObject({ type: 'job.done' });
  expect(r.answered).toBeGreaterThan(5);
  console.info(`fine-tuning: ${r.answered} calls answered, largest timer delay ${r.maxDelayMs.toFixed(0)} ms`);
  // a machine under load can delay a timer by itself; ONNX on this thread held it for whole sessions
  expect(r.maxDelayMs).toBeLessThan(500);
}, 300_000);

test('the server answers while an encoder Align job aligns', async () => {
  const r = await whileRunning(() => call('align.start', { method: 'simalign-itermax', sym: 'gdfa' }));
  expect(r.outcome).toMatchObject({ type: 'job.done' });
  expect(r.answered).toBeGreaterThan(0);
  console.info(`encoder align: ${r.answered} calls answered, largest timer delay ${r.maxDelayMs.toFixed(0)} ms`);
  expect(r.maxDelayMs).toBeLessThan(500);
}, 300_000);
