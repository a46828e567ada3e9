// The training worker: progress events, pause/resume, cancel, deterministic reruns, and
// checkpoint-resume across jobs, on the rings MLP recipe in a real worker thread.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Progress, TrainJob } from '../../../src/main/nn/runtime/protocol.ts';
import { startTraining } from '../../../src/main/nn/runtime/train-job.ts';
import type { RingsConfig } from './fixtures/rings.ts';

const tmp = mkdtempSync(join(tmpdir(), 'nn-runtime-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const job = (o: Partial<TrainJob<RingsConfig>> = {}): TrainJob<RingsConfig> => ({
  recipe: new URL('./fixtures/rings.ts', import.meta.url).href,
  config: { hidden: 8, batch: 32 },
  steps: 30,
  deterministic: true,
  device: 'cpu',
  ...o,
});

test('a job reports progress and finishes; a deterministic rerun is identical', async () => {
  const seen: Progress[] = [];
  const first = await startTraining(job(), { onProgress: (p) => seen.push(p) }).outcome;
  expect(first.status).toBe('done');
  expect(first.losses).toHaveLength(30);
  expect(first.losses[29]).toBeLessThan(first.losses[0]);
  const last = seen.at(-1)!;
  expect(last).toMatchObject({ step: 30, total: 30, etaSeconds: 0 });
  expect(last.examplesPerSecond).toBeCloseTo(32 * last.stepsPerSecond, 6);
  const again = await startTraining(job()).outcome;
  expect(again.losses).toEqual(first.losses);
});

test('pause holds the job, resume continues it, cancel stops it', async () => {
  let step = 0;
  const h = startTraining(job({ steps: 10_000, config: { hidden: 8, batch: 32, delayMs: 5 } }), { onProgress: (p) => (step = p.step) });
  while (step < 3) await new Promise((r) => setTimeout(r, 20));
  h.pause();
  await new Promise((r) => setTimeout(r, 150));
  const atPause = step;
  await new Promise((r) => setTimeout(r, 300));
  expect(step).toBe(atPause);
  h.resume();
  while (step <= atPause) await new Promise((r) => setTimeout(r, 20));
  h.cancel();
  const out = await h.outcome;
  expect(out.status).toBe('cancelled');
  expect(out.step).toBeGreaterThan(atPause);
  expect(out.step).toBeLessThan(10_000);
});

test('a job resumed from its checkpoint continues the same curve', async () => {
  const whole = await startTraining(job({ steps: 20 })).outcome;
  const dir = join(tmp, 'ckpt');
  const head = await startTraining(job({ steps: 10, checkpointDir: dir })).outcome;
  const tail = await startTraining(job({ steps: 20, resumeFrom: dir })).outcome;
  expect([...head.losses, ...tail.losses]).toEqual(whole.losses);
});
