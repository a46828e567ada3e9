// Timing a training run before it is made ('models.timeRun'): a few real steps of the run's
// own worker task on a real project file (tiny ONNX configuration), stopped once timed; no
// run, model or run folder is left behind; the estimate covers every epoch and self-training
// epoch at the measured pace. The worker reads the project's pairs itself, so the thread
// that serves the project keeps answering while 50,000 pairs are read for a run.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, test } from 'vitest';
import type { JobEvent, JobResult } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { project } from '../review/fixture.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-pace-');

test('a few steps timed on the project pairs give the run its time, and nothing is kept', async () => {
  const c = syntheticCorpus(64, 12);
  const { store } = project(
    dir,
    c.src.map((s, k) => [s.join(' '), c.tgt[k].join(' ')]),
  );
  const ctx: AppContext = { ...createContext('browser', 'anna', dir), store };
  const filesBefore = readdirSync(dirname(store.path)).sort();
  const ended = new Promise<JobEvent>((resolve) => ctx.jobs.onEvent((e) => e.type !== 'job.progress' && resolve(e)));
  const started = await dispatch(ctx, 'models.timeRun', { method: 'bilstm-ctl', dim: 16, batchSize: 4, epochs: 30, selfTrainEpochs: 2 });
  expect(started).toMatchObject({ ok: true });
  const end = await ended;
  expect(end).toMatchObject({ type: 'job.done', kind: 'train-pace', message: expect.stringMatching(/ s a step over 8 steps$/) });
  const pace = (end as { result?: JobResult }).result!;
  if (pace.kind !== 'trainPace') throw new Error(`a ${pace.kind} result`);
  expect(pace.measuredSteps).toBe(8);
  expect(pace.secondsPerStep).toBeGreaterThan(0);
  expect(pace.stepsPerEpoch).toBeGreaterThan(1);
  expect(pace.steps).toBe(pace.stepsPerEpoch * 32);
  expect(pace.seconds).toBeCloseTo(pace.setupSeconds + pace.steps * pace.secondsPerStep, 6);
  expect(dbOf(store).prepare('SELECT count(*) FROM training_runs').pluck().get()).toBe(0);
  expect(readdirSync(dirname(store.path)).sort()).toEqual(filesBefore);

  expect(await dispatch(ctx, 'models.timeRun', { method: 'encoder-finetune' })).toMatchObject({
    ok: false,
    error: { error: expect.stringMatching(/for the BiLSTM methods/) },
  });
  store.close();
}, 120_000);

test('reading 50,000 pairs for a run leaves the serving thread free', async () => {
  const c = syntheticCorpus(16, 12);
  const { store } = project(
    dir,
    c.src.map((s, k) => [s.join(' '), c.tgt[k].join(' ')]),
  );
  // reading the pairs, their gold and the dictionary's links took seconds of the serving
  // thread at this size, and copying them to the worker as long again
  const big = syntheticCorpus(50_000, 12, 5);
  const file = join(dir, 'big-pace.tsv');
  writeFileSync(file, big.src.map((s, k) => `${s.join(' ')}\t${big.tgt[k].join(' ')}\n`).join(''));
  await runImport(store, { file, format: 'tsv', tokenization: 'pretokenized', anyScript: true });
  const ctx: AppContext = { ...createContext('browser', 'anna', dir), store };
  const ended = new Promise<JobEvent>((resolve) => ctx.jobs.onEvent((e) => e.type !== 'job.progress' && resolve(e)));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  expect(
    await dispatch(ctx, 'models.timeRun', { method: 'bilstm-ctl', dim: 16, batchSize: 4, epochs: 1, selfTrainEpochs: 0 }),
  ).toMatchObject({ ok: true });
  const end = await ended;
  delay.disable();
  expect(end).toMatchObject({ type: 'job.done', kind: 'train-pace' });
  const pace = (end as { result?: JobResult }).result!;
  if (pace.kind !== 'trainPace') throw new Error(`a ${pace.kind} result`);
  expect(pace.steps).toBe(pace.stepsPerEpoch);
  expect(pace.stepsPerEpoch).toBeGreaterThan(50_016 / 4 - 1);
  expect(delay.max / 1e6).toBeLessThan(1000);
  store.close();
}, 300_000);
