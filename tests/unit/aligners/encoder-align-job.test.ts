// The app's Align job with a pretrained encoder, through the API on a real project file: the
// project names a folder (checked without reading the weights; a bad one is a one-line
// error), an encoder method aligns every pair into a new model alignment with probabilities,
// a layer the encoder lacks and the statistical-only options are refused, and forgetting the
// folder takes the encoder methods away again.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from '../models/transformer/tiny-encoders.ts';

const dir = tempDir('mekong-encoder-job-');

test('a project names an encoder folder and aligns with its similarity aligners', async () => {
  const { src, tgt } = samplePairs(12);
  const { store, ids } = project(
    dir,
    src.map((s, k) => [s.join(' '), tgt[k].join(' ')]),
  );
  const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
  const api = dispatchApi(ctx);
  const bert = join(dir, 'tiny-bert');
  writeTinyBert(bert, { layers: 3 });
  const empty = join(dir, 'empty');
  mkdirSync(empty);

  expect((await api.invoke('app.info', {})).encoderMethods).toContain('simalign-argmax');
  await expect(api.invoke('align.start', { method: 'simalign-argmax', sym: 'gdfa' })).rejects.toThrow(
    'this project names no encoder folder',
  );
  await expect(api.invoke('project.setEncoder', { dir: empty })).rejects.toThrow(join(empty, 'config.json'));
  expect(store.info().encoderDir).toBeNull();
  expect((await api.invoke('project.setEncoder', { dir: bert })).encoderDir).toBe(bert);

  await expect(api.invoke('align.start', { method: 'simalign-argmax', sym: 'gdfa', layer: 4 })).rejects.toThrow('layer 4 does not exist');
  await expect(api.invoke('align.start', { method: 'awesome', sym: 'gdfa', byCharacter: true })).rejects.toThrow('by character');
  await expect(api.invoke('align.start', { method: 'agree', sym: 'gdfa', layer: 2 })).rejects.toThrow('encoder methods');

  const done = new Promise<string>((resolve, reject) =>
    ctx.jobs.onEvent((e) => {
      if (e.type === 'job.done') resolve(e.message ?? '');
      if (e.type === 'job.failed') reject(new Error(e.error));
    }),
  );
  await api.invoke('align.start', { method: 'simalign-itermax', sym: 'gdfa', layer: 2 });
  expect(await done).toMatch(/aligned 12 pairs with simalign-itermax over .*tiny-bert \(hidden state 2, on cpu\): \d+ links/);
  const alignment = store.info().alignments.find((a) => a.origin === 'model')!;
  expect(alignment.name).toMatch(/^simalign-itermax \(layer 2\)/);
  const links = store.getPair(ids[0]).alignments.find((a) => a.alignmentId === alignment.id)!.links;
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) expect(l.score).toBeGreaterThan(0);

  expect((await api.invoke('project.setEncoder', { dir: null })).encoderDir).toBeNull();
  await expect(api.invoke('align.start', { method: 'awesome', sym: 'gdfa' })).rejects.toThrow('this project names no encoder folder');
  store.close();
}, 120_000);
