// The app's Align job with a pretrained encoder, through the API on a real project file: the
// project names a folder (checked without reading the weights; a bad one is a one-line
// error), an encoder method aligns every pair into a new model alignment with probabilities,
// a layer the encoder lacks and the statistical-only options are refused, and forgetting the
// folder takes the encoder methods away again. SimAlign's token type, null-align share and
// distortion reach the aligner as the CLI's do (the job's links are alignWithEncoder's with
// them) and are recorded on the model row; the other methods refuse them.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from '../models/transformer/tiny-encoders.ts';
import { alignWithEncoder } from '../../../src/main/models/transformer/encoder-aligner.ts';
import { HfEncoder } from '../../../src/main/models/transformer/hf-encoder.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-encoder-job-');

/** A project of 12 sample pairs, its API, and a tiny 3-layer BERT written to folder `name`. */
function encoderProject(name: string) {
  const { src, tgt } = samplePairs(12);
  const { store, ids } = project(
    dir,
    src.map((s, k) => [s.join(' '), tgt[k].join(' ')]),
  );
  const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
  const bert = join(dir, name);
  writeTinyBert(bert, { layers: 3 });
  return { src, tgt, store, ids, ctx, api: dispatchApi(ctx), bert };
}

test('a project names an encoder folder and aligns with its similarity aligners', async () => {
  const { src, tgt, store, ids, ctx, api, bert } = encoderProject('tiny-bert');
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

test("SimAlign's token type, null-align and distortion reach the aligner and are recorded on the model", async () => {
  const { src, tgt, store, ids, ctx, api, bert } = encoderProject('tiny-bert-simalign');
  await api.invoke('project.setEncoder', { dir: bert });
  const settings = { tokenType: 'bpe', nullAlign: 0.5, distortion: 1 } as const;
  await expect(api.invoke('align.start', { method: 'awesome', sym: 'gdfa', ...settings })).rejects.toThrow('SimAlign methods only');
  await expect(api.invoke('align.start', { method: 'agree', sym: 'gdfa', distortion: 0.5 })).rejects.toThrow('SimAlign methods');
  await expect(api.invoke('align.start', { method: 'simalign-argmax', sym: 'gdfa', nullAlign: 2 })).rejects.toThrow();

  const finished = new Promise<void>((resolve, reject) =>
    ctx.jobs.onEvent((e) => {
      if (e.type === 'job.done') resolve();
      if (e.type === 'job.failed') reject(new Error(e.error));
    }),
  );
  await api.invoke('align.start', { method: 'simalign-argmax', sym: 'gdfa', layer: 2, ...settings });
  await finished;
  const alignment = store.info().alignments.find((a) => a.origin === 'model')!;
  const got = ids.map((id) =>
    store
      .getPair(id)
      .alignments.find((a) => a.alignmentId === alignment.id)!
      .links.map((l) => [l.s, l.t])
      .sort(),
  );
  const encoder = HfEncoder.open(bert);
  const [expected, plain] = await Promise.all([
    alignWithEncoder(encoder, 'simalign-argmax', src, tgt, { layer: 2, ...settings }),
    alignWithEncoder(encoder, 'simalign-argmax', src, tgt, { layer: 2 }),
  ]).finally(() => encoder.release());
  const pairsOf = (links: { s: number; t: number }[][]) => links.map((ls) => ls.map((l) => [l.s, l.t]).sort());
  expect(got).toEqual(pairsOf(expected));
  expect(got).not.toEqual(pairsOf(plain));
  const row = dbOf(store).prepare(`SELECT config FROM models WHERE kind = 'encoder'`).get() as { config: string };
  expect(JSON.parse(row.config)).toMatchObject({ method: 'simalign-argmax', layer: 2, ...settings });
  store.close();
}, 120_000);
