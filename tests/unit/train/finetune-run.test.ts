// Fine-tuning the project's encoder from the Models page, through the real dispatch on a real
// project file with a tiny BERT-shaped folder (real ONNX training): the run records step and
// epoch losses, a checkpoint per epoch (a Hugging Face folder that reopens) scored on the
// dev pairs' gold and by their sentence retrieval P@1, the device that ran it; re-aligning with a checkpoint stores a model
// alignment of that run that keeps the gold links and drops rejected ones; without an
// encoder folder, or continuing a run, it is a one-line error at once. The papers' settings
// the Train… form sends (a length cap, a step count, gradient accumulation, checkpoints
// ranked by retrieval, the aligner's links recomputed during training) reach the training
// and are stored with the run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { JobEvent } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { HfEncoder } from '../../../src/main/models/transformer/hf-encoder.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { checkpointDir, runDir } from '../../../src/main/train/run-files.ts';
import { markDone, project, sure } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from '../models/transformer/tiny-encoders.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-finetune-run-');

/** A project of 16 sample pairs, and its API as `annotator`. */
function sampleProject(annotator: string) {
  const { src, tgt } = samplePairs(16);
  const { store, ids } = project(
    dir,
    src.map((s, k) => [s.join(' '), tgt[k].join(' ')]),
  );
  const events: JobEvent[] = [];
  const ctx: AppContext = { ...createContext('browser', annotator, dir), store };
  ctx.jobs.onEvent((e) => events.push(e));
  return { store, ids, src, tgt, events, api: dispatchApi(ctx) };
}

/** The tiny BERT as the project's encoder, `annotator`'s gold on pairs 0–3 and on the dev pairs 12–15 (all Done). */
async function withEncoderAndGold({ store, ids, src, tgt, api }: ReturnType<typeof sampleProject>, annotator: string) {
  const bert = join(dir, `tiny-bert-${annotator}`);
  writeTinyBert(bert);
  await api.invoke('project.setEncoder', { dir: bert });
  const insert = linkInserter(store, goldAlignmentOf(store, annotator));
  store.transaction(() => [0, 1, 2, 3, 12, 13, 14, 15].forEach((k) => insert(ids[k], diagonal(src, tgt, k))));
  dbOf(store).prepare(`UPDATE pairs SET split = 'dev' WHERE id >= ?`).run(ids[12]);
  markDone(
    store,
    [0, 1, 2, 3, 12, 13, 14, 15].map((k) => ids[k]),
  );
}

async function outcome(events: JobEvent[], jobId: string): Promise<JobEvent> {
  for (;;) {
    const e = events.find((x) => x.jobId === jobId && x.type !== 'job.progress');
    if (e) return e;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Pair k's diagonal links, as withEncoderAndGold gives its gold pairs. */
const diagonal = (src: string[][], tgt: string[][], k: number) =>
  Array.from({ length: Math.min(src[k].length, tgt[k].length, 4) }, (_, i) => sure(i, i));

/** sampleProject with its encoder and gold. */
async function encoderProject(annotator: string) {
  const p = sampleProject(annotator);
  await withEncoderAndGold(p, annotator);
  return p;
}

test('a fine-tuning run of the project encoder: curves, scored HF checkpoints, re-align with corrections', async () => {
  const p = sampleProject('anna');
  const { store, ids, events, api } = p;
  await expect(api.invoke('models.train', { method: 'encoder-finetune', epochs: 2 })).rejects.toThrow(
    'this project names no encoder folder',
  );
  // gold on train pairs 0–3 and on the dev pairs 12–15; pair 1's link 1–0 is rejected too
  await withEncoderAndGold(p, 'anna');
  dbOf(store)
    .prepare(`INSERT INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, 1, 0, 'anna', '2026-11-25T00:00:00Z')`)
    .run(ids[1]);

  const started = await api.invoke('models.train', {
    method: 'encoder-finetune',
    epochs: 2,
    lr: 1e-3,
    device: 'cuda',
    finetune: { objectives: ['tr', 'awp', 'wtr'], batch: 4 },
  });
  const done = await outcome(events, started.jobId);
  expect(done).toMatchObject({
    type: 'job.done',
    message: expect.stringMatching(/^fine-tuned .*tiny-bert-anna \(run \d+\): 2 epochs, 8 steps on cpu; .*best dev AER/),
  });

  const { models } = await api.invoke('models.list', {});
  const model = models.find((m) => m.id === started.modelId)!;
  expect(model.kind).toBe('encoder-finetune');
  const run = model.runs[0];
  expect(run.state).toBe('done');
  // cuda was asked for and is not here: the run says so
  expect(run.device).toEqual({ requested: 'cuda', used: 'cpu' });
  expect(run).toMatchObject({ goldPairs: 4, evalPairs: 4 });
  expect(run.checkpoints.map((c) => c.epoch)).toEqual([1, 2]);
  for (const c of run.checkpoints) {
    expect(c.aer).toBeGreaterThanOrEqual(0);
    expect(c.aer).toBeLessThanOrEqual(1);
    // the dev pairs' sentence retrieval P@1 (mean of both ways), a multiple of 1/8 on 4 pairs
    expect(c.retrieval).toBeGreaterThanOrEqual(0);
    expect(c.retrieval).toBeLessThanOrEqual(1);
    expect((c.retrieval! * 8) % 1).toBe(0);
    expect(c.loss).toBeGreaterThan(0);
  }
  const points = (await api.invoke('models.metrics', { runId: run.id })).points;
  expect(points.filter((p) => p.name === 'loss')).toHaveLength(8);
  expect(points.filter((p) => p.name === 'epoch_loss').map((p) => p.step)).toEqual([4, 8]);
  const folder = checkpointDir(runDir(store.path, run.id), 1);
  expect(existsSync(join(folder, 'model.safetensors'))).toBe(true);
  const reopened = HfEncoder.open(folder);
  expect(reopened.config.layers).toBe(2);
  await reopened.release();

  const re = await api.invoke('models.realign', { runId: run.id, epoch: 1 });
  expect(await outcome(events, re.jobId)).toMatchObject({
    type: 'job.done',
    message: expect.stringMatching(/with encoder-finetune run \d+ · epoch 1 \+ awesome layer \d/),
  });
  const alignment = store.info().alignments.find((a) => a.runId === run.id)!;
  expect(alignment.origin).toBe('model');
  const linksOf = (k: number) =>
    dbOf(store).prepare(`SELECT s, t, score FROM links WHERE alignment_id = ? AND pair_id = ?`).all(alignment.id, ids[k]) as {
      s: number;
      t: number;
      score: number;
    }[];
  for (const l of diagonal(p.src, p.tgt, 0)) expect(linksOf(0)).toContainEqual({ s: l.s, t: l.t, score: 1 });
  expect(linksOf(1).some((l) => l.s === 1 && l.t === 0)).toBe(false);

  await expect(
    api.invoke('models.train', { method: 'encoder-finetune', epochs: 1, startFrom: { runId: run.id, epoch: 1 } }),
  ).rejects.toThrow('a fine-tuning run starts from the project encoder');
  store.close();
}, 300_000);

test("the papers' settings from the Train… form: a length cap, a step count, accumulation, the best checkpoint by retrieval", async () => {
  const { store, events, api } = await encoderProject('bo');
  const finetune = {
    objectives: ['tr' as const, 'wtr' as const],
    batch: 2,
    accumulate: 2,
    maxLength: 6,
    maxSteps: 6,
    selectBy: 'retrieval' as const,
    soLabels: 'recomputed' as const,
  };
  // no epochs: with a step count, as many as the steps need — 16 pairs at 2 × 2 a step are 4 steps an epoch, so 2 epochs
  const started = await api.invoke('models.train', { method: 'encoder-finetune', lr: 1e-3, finetune });
  expect(await outcome(events, started.jobId)).toMatchObject({
    type: 'job.done',
    message: expect.stringMatching(/: 2 epochs, 6 steps on cpu; .*best dev retrieval P@1 [\d.]+ at epoch [12] \(dev AER [\d.]+\)$/),
  });
  const run = (await api.invoke('models.list', {})).models.find((m) => m.id === started.modelId)!.runs[0];
  expect(run.config).toMatchObject({ epochs: 2, finetune });
  expect(run.checkpoints.map((c) => [c.epoch, c.step])).toEqual([
    [1, 4],
    [2, 6],
  ]);
  // the best is the highest retrieval P@1 (the earlier on a tie), whatever the AER says
  const [first, second] = run.checkpoints;
  expect(run.bestEpoch).toBe(second.retrieval! > first.retrieval! ? 2 : 1);
  // the last checkpoint records the settings it was trained with
  const made = JSON.parse(readFileSync(join(checkpointDir(runDir(store.path, run.id), 2), 'mekong-finetune.json'), 'utf8'));
  expect(made).toMatchObject({ batch: 2, accumulate: 2, maxLength: 6, steps: 6, epochs: 2, supervision: { labels: 'recomputed' } });
  store.close();
}, 300_000);
