// The Models page's channels through the real dispatch, on real project files and real
// ONNX training (tiny configurations): train → run, curves and loadable checkpoints;
// re-align → a scored model alignment that keeps gold and honours rejections; cancel;
// delete; bad input; a run an app crash left 'running'.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { JobEvent } from '../../../src/shared/api.ts';
import type { ModelsResults } from '../../../src/shared/models-api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { loadNeuralModel } from '../../../src/main/models/bilstm/bilstm-folder.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { checkpointDir, runDir } from '../../../src/main/train/run-files.ts';
import { markDone, project, sure } from '../review/fixture.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { defaultSelfTrainEpochs } from '../../../src/shared/epochs.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-models-');
// selfTrainEpochs 0: these 16-pair projects would otherwise self-train the default 10 epochs (shared/epochs.ts)
const tiny = { dim: 16, batchSize: 8, lr: 1e-2, selfTrainEpochs: 0 };

/** A project of `pairs` pairs (16): pairs 0–3 train with gold, the last `dev` (4) are the dev split (with gold when `devGold`). */
function setup(devGold = true, pairs = 16, dev = 4) {
  const c = syntheticCorpus(pairs, 12);
  const { store, ids } = project(
    dir,
    c.src.map((s, k) => [s.join(' '), c.tgt[k].join(' ')]),
  );
  const gold = goldAlignmentOf(store, 'anna');
  const insert = linkInserter(store, gold);
  const devPairs = Array.from({ length: dev }, (_, n) => pairs - dev + n);
  const withGold = [0, 1, 2, 3, ...(devGold ? devPairs : [])];
  store.transaction(() =>
    withGold.forEach((k) =>
      insert(
        ids[k],
        c.gold[k].map((l) => sure(l.s, l.t)),
      ),
    ),
  );
  dbOf(store)
    .prepare(`UPDATE pairs SET split = 'dev' WHERE id >= ?`)
    .run(ids[pairs - dev]);
  markDone(
    store,
    withGold.map((k) => ids[k]),
  );
  const events: JobEvent[] = [];
  const ctx: AppContext = { ...createContext('browser', 'anna', dir), store };
  ctx.jobs.onEvent((e) => events.push(e));
  return { ctx, store, ids, corpus: c, events };
}

async function call<C extends keyof ModelsResults>(ctx: AppContext, channel: C, input: unknown): Promise<ModelsResults[C]> {
  const r = await dispatch(ctx, channel, input);
  if (!r.ok) throw new Error(r.error.error);
  return r.value as ModelsResults[C];
}

async function failure(ctx: AppContext, channel: string, input: unknown): Promise<string> {
  const r = await dispatch(ctx, channel, input);
  expect(r).toMatchObject({ ok: false, error: { kind: 'input' } });
  return r.ok ? '' : r.error.error;
}

async function outcome(events: JobEvent[], jobId: string): Promise<JobEvent> {
  for (;;) {
    const e = events.find((x) => x.jobId === jobId && x.type !== 'job.progress');
    if (e) return e;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('models channels', () => {
  test('train: run done, curves, checkpoints on disk; re-align keeps gold, drops rejected, ranks the queue', async () => {
    const { ctx, store, ids, events } = setup();
    const started = await call(ctx, 'models.train', { epochs: 2, ...tiny });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.done', message: expect.stringMatching(/best dev AER/) });
    const progress = events.filter((e) => e.type === 'job.progress');
    expect(progress.at(-1)).toMatchObject({
      message: expect.stringMatching(/^epoch 2\/2 · loss \d+\.\d\d · [\d.]+ steps\/s · ETA \d+ (s|min)$/),
    });

    const { models, methods } = await call(ctx, 'models.list', {});
    expect(methods).toEqual(['bilstm-ctl', 'bilstm', 'encoder-finetune']);
    const run = models[0].runs[0];
    expect(models[0]).toMatchObject({ id: started.modelId, kind: 'bilstm-ctl' });
    expect(run).toMatchObject({
      id: started.runId,
      state: 'done',
      error: null,
      pairs: 16,
      goldPairs: 4,
      pseudoPairs: 0,
      evalPairs: 4,
      jobId: null,
      realignJobId: null,
    });
    expect(run.config).toMatchObject({ epochs: 2, dim: 16, wordDropout: 1, weights: { base: 0.5, awp: 0.25, wtr: 0.25 } });
    expect(run.checkpoints.map((c) => c.epoch)).toEqual([1, 2]);
    for (const c of run.checkpoints) {
      expect(c.aer).toBeGreaterThanOrEqual(0);
      expect(c.aer).toBeLessThanOrEqual(1);
      expect(c.loss).toBeGreaterThan(0);
      expect(loadNeuralModel(checkpointDir(runDir(store.path, run.id), c.epoch)).dims.dim).toBe(16);
    }
    const { points } = await call(ctx, 'models.metrics', { runId: run.id });
    const named = (n: string) => points.filter((p) => p.name === n);
    expect(named('loss').length).toBe(run.checkpoints[1].step);
    expect(named('epoch_loss').map((p) => p.step)).toEqual(run.checkpoints.map((c) => c.step));
    for (const n of ['aer', 'precision', 'recall']) expect(named(n)).toHaveLength(2);

    dbOf(store).prepare(`INSERT INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, 0, 0, 'anna', 'now')`).run(ids[5]);
    const gold0 = store.getPair(ids[0]).alignments[0].links;
    const { jobId } = await call(ctx, 'models.realign', { runId: run.id, epoch: 1 });
    // listed while it runs, so a page opened meanwhile follows it
    expect((await call(ctx, 'models.list', {})).models[0].runs[0]).toMatchObject({ jobId: null, realignJobId: jobId });
    expect(await outcome(events, jobId)).toMatchObject({
      type: 'job.done',
      message: expect.stringMatching(/re-aligned 16 pairs with bilstm-ctl run \d+ · epoch 1 \+ gdfa/),
    });
    const alignment = store.info().alignments.find((a) => a.origin === 'model')!;
    expect(alignment.name).toBe(`bilstm-ctl run ${run.id} · epoch 1 + gdfa`);
    expect(dbOf(store).prepare(`SELECT model_id, run_id FROM alignments WHERE id = ?`).get(alignment.id)).toEqual({
      model_id: started.modelId,
      run_id: run.id,
    });
    const linksOf = (k: number) => store.getPair(ids[k]).alignments.find((a) => a.alignmentId === alignment.id)?.links ?? [];
    for (const g of gold0) expect(linksOf(0)).toContainEqual({ s: g.s, t: g.t, kind: 'sure', score: 1 });
    expect(linksOf(5)).not.toContainEqual(expect.objectContaining({ s: 0, t: 0 }));
    for (let k = 0; k < 16; k++) for (const l of linksOf(k)) expect(l.score).toBeGreaterThanOrEqual(0);
    const queue = await dispatch(ctx, 'queue.list', { alignmentId: alignment.id, offset: 0, limit: 20 });
    expect(queue).toMatchObject({ ok: true, value: { total: 16 } });
    expect((await call(ctx, 'models.list', {})).models[0].runs[0]).toMatchObject({ alignmentIds: [alignment.id], realignJobId: null });

    expect(await call(ctx, 'models.delete', { modelId: started.modelId })).toBeNull();
    expect((await call(ctx, 'models.list', {})).models).toEqual([]);
    expect(existsSync(runDir(store.path, run.id))).toBe(false);
    expect(dbOf(store).prepare(`SELECT model_id, run_id FROM alignments WHERE id = ?`).get(alignment.id)).toEqual({
      model_id: null,
      run_id: null,
    });
    expect(dbOf(store).prepare(`SELECT count(*) AS n FROM metrics`).get()).toEqual({ n: 0 });
    store.close();
  }, 120_000);

  test('re-align learns its link decision from the dev gold when there is enough of it', async () => {
    const { ctx, store, ids, events } = setup(true, 48, 40);
    const started = await call(ctx, 'models.train', { epochs: 1, ...tiny });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.done' });
    const { jobId } = await call(ctx, 'models.realign', { runId: started.runId, epoch: 1 });
    expect(await outcome(events, jobId)).toMatchObject({
      type: 'job.done',
      message: expect.stringMatching(/epoch 1 \+ learned decision: \d+ links/),
    });
    const alignment = store.info().alignments.find((a) => a.origin === 'model')!;
    const model = (k: number) => store.getPair(ids[k]).alignments.find((a) => a.alignmentId === alignment.id)!.links;
    const scores = [4, 5, 6, 7].flatMap((k) => model(k).map((l) => l.score!));
    expect(scores.length).toBeGreaterThan(0);
    for (const p of scores) expect(p > 0 && p < 1).toBe(true);
    // The scores' reliability was measured on the 40 dev pairs' gold, and the alignment records it; the scores stay raw.
    const done = (await outcome(events, jobId)) as { message: string };
    expect(done.message).toMatch(/score reliability measured on 40 held-out pairs \(ECE \d\.\d{3} → \d\.\d{3} if calibrated\)/);
    const cal = store.info().alignments.find((a) => a.id === alignment.id)!.calibration!;
    expect(cal).toMatchObject({ pairs: 40, links: expect.any(Number), applied: false });
    expect(cal.raw.reduce((n, b) => n + b.count, 0)).toBe(cal.links);
    expect(cal.calibrated.reduce((n, b) => n + b.count, 0)).toBe(cal.links);
    expect(alignment.runId).toBe(started.runId);
    // Asked for, calibrated scores are stored when they lower the cross-fitted error.
    const again = await call(ctx, 'models.realign', { runId: started.runId, epoch: 1, calibrate: true });
    const second = (await outcome(events, again.jobId)) as { message: string };
    expect(second.message).toMatch(
      /scores (calibrated on \d+ links of 40 held-out pairs|left raw: calibrating on 40 held-out pairs did not lower their error)/,
    );
    const made = store
      .info()
      .alignments.filter((a) => a.origin === 'model')
      .at(-1)!;
    expect(made.calibration!.applied).toBe(made.calibration!.eceCalibrated < made.calibration!.eceRaw);
    if (made.calibration!.applied) {
      const calibrated = [4, 5, 6, 7].flatMap((k) => store.getPair(ids[k]).alignments.find((a) => a.alignmentId === made.id)!.links);
      expect(new Set(calibrated.map((l) => l.score)).size).toBeLessThanOrEqual(new Set(scores).size);
    }
    store.close();
  }, 120_000);

  test('a run forced onto CUDA here falls back to the CPU and records both; the default is auto', async () => {
    const { ctx, store, events } = setup(false);
    const started = await call(ctx, 'models.train', { epochs: 1, device: 'cuda', ...tiny });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.done' });
    const runs = (await call(ctx, 'models.list', {})).models.flatMap((m) => m.runs);
    expect(runs.find((r) => r.id === started.runId)).toMatchObject({
      config: { device: 'cuda' },
      device: { requested: 'cuda', used: 'cpu' },
    });
    const auto = await call(ctx, 'models.train', { epochs: 1, ...tiny });
    expect(await outcome(events, auto.jobId)).toMatchObject({ type: 'job.done' });
    const again = (await call(ctx, 'models.list', {})).models.flatMap((m) => m.runs).find((r) => r.id === auto.runId)!;
    expect(again.device).toEqual({ requested: 'auto', used: 'cpu' });
    expect(await failure(ctx, 'models.train', { device: 'tpu' })).toMatch(/device/);
    store.close();
  }, 120_000);

  test('continue from a checkpoint: a new run of the same model that starts where the checkpoint was', async () => {
    const { ctx, events } = setup();
    const first = await call(ctx, 'models.train', { epochs: 3, ...tiny });
    expect(await outcome(events, first.jobId)).toMatchObject({ type: 'job.done' });
    expect(await failure(ctx, 'models.train', { epochs: 1, ...tiny, startFrom: { runId: first.runId, epoch: 9 } })).toMatch(
      /no checkpoint at epoch 9 \(saved epochs: 1, 2, 3\)/,
    );
    expect(
      await failure(ctx, 'models.train', { epochs: 1, ...tiny, method: 'bilstm', startFrom: { runId: first.runId, epoch: 3 } }),
    ).toMatch(/method is fixed by the checkpoint/);
    expect(await failure(ctx, 'models.train', { epochs: 1, ...tiny, dim: 32, startFrom: { runId: first.runId, epoch: 3 } })).toMatch(
      /dim is fixed by the checkpoint of run \d+ \(16\); got 32/,
    );

    const { dim: _dim, ...sameButDim } = tiny;
    const next = await call(ctx, 'models.train', { epochs: 1, ...sameButDim, startFrom: { runId: first.runId, epoch: 3 } });
    expect(next.modelId).toBe(first.modelId);
    expect(await outcome(events, next.jobId)).toMatchObject({ type: 'job.done' });
    const { models } = await call(ctx, 'models.list', {});
    expect(models).toHaveLength(1);
    expect(models[0].runs.map((r) => r.id)).toEqual([first.runId, next.runId]);
    expect(models[0].runs[1].config).toMatchObject({ dim: 16, startFrom: { runId: first.runId, epoch: 3 } });
    // the same pairs: no word is new to the checkpoint (a run from scratch has no count)
    expect(models[0].runs.map((r) => r.newWords)).toEqual([null, { src: 0, tgt: 0 }]);
    const losses = async (runId: number) =>
      (await call(ctx, 'models.metrics', { runId })).points.filter((p) => p.name === 'epoch_loss').map((p) => p.value);
    const [a, b] = [await losses(first.runId), await losses(next.runId)];
    // the continued run's first epoch is as good as the checkpoint's last, far below a fresh start
    expect(b[0]).toBeLessThan(a[0] - 0.5 * (a[0] - a[2]));
  }, 120_000);

  test('self-training: the trained model aligns the pairs, then trains on with its links as pseudo-labels, checkpoints numbered on', async () => {
    const { ctx, store, events } = setup();
    const started = await call(ctx, 'models.train', { ...tiny, epochs: 2, selfTrainEpochs: 2, threshold: 0 });
    expect(await outcome(events, started.jobId)).toMatchObject({
      type: 'job.done',
      message: expect.stringMatching(/: 2 epochs \+ 2 of self-training on 16 pairs/),
    });
    const messages = events.filter((e) => e.type === 'job.progress').map((e) => (e as { message: string }).message);
    expect(messages.at(-1)).toMatch(/^self-training epoch 2\/2 · loss/);
    const run = (await call(ctx, 'models.list', {})).models[0].runs[0];
    expect(run.config).toMatchObject({ epochs: 2, selfTrainEpochs: 2, threshold: 0 });
    expect(run.checkpoints.map((c) => c.epoch)).toEqual([1, 2, 3, 4]);
    for (const c of run.checkpoints) expect(c.aer).toBeGreaterThanOrEqual(0);
    const saved = (epoch: number) => loadNeuralModel(checkpointDir(runDir(store.path, run.id), epoch)).config;
    expect(saved(4)).toMatchObject({ epochs: 2, selfTrainEpochs: 2, weights: { base: 0.5, awp: 0.25, wtr: 0.25 } });
    expect(saved(2).selfTrainEpochs).toBeUndefined();
    // pseudo-labelled pairs are repeated like gold ones: a self-training epoch takes more steps
    const steps = run.checkpoints.map((c) => c.step);
    expect(steps[3] - steps[2]).toBeGreaterThan(steps[1] - steps[0]);
    const { points } = await call(ctx, 'models.metrics', { runId: run.id });
    expect(points.filter((p) => p.name === 'loss').length).toBe(steps[3]);
    expect(await failure(ctx, 'models.train', { selfTrainEpochs: -1 })).toMatch(/selfTrainEpochs/);

    // left out: the default for the project's size, and none when pseudo-labels or a checkpoint say how the run is supervised
    const { selfTrainEpochs: _, ...defaults } = tiny;
    const byDefault = await call(ctx, 'models.train', { epochs: 1, ...defaults });
    expect(await outcome(events, byDefault.jobId)).toMatchObject({
      message: expect.stringMatching(/: 1 epochs \+ 10 of self-training on 16 pairs/),
    });
    const continued = await call(ctx, 'models.train', { epochs: 1, ...defaults, startFrom: { runId: byDefault.runId, epoch: 1 } });
    expect(await outcome(events, continued.jobId)).toMatchObject({ type: 'job.done' });
    const runs = (await call(ctx, 'models.list', {})).models.flatMap((m) => m.runs);
    const config = (id: number) => runs.find((r) => r.id === id)!.config;
    expect(config(byDefault.runId).selfTrainEpochs).toBe(defaultSelfTrainEpochs(16));
    expect(config(continued.runId).selfTrainEpochs).toBe(0);
    expect(defaultSelfTrainEpochs(1_000)).toBe(10);
    expect(defaultSelfTrainEpochs(1_001)).toBe(0);
    store.close();
  }, 120_000);

  test('without dev gold the evaluation curve is empty and checkpoints have no AER', async () => {
    const { ctx, store, events } = setup(false);
    const started = await call(ctx, 'models.train', { epochs: 2, checkpointEvery: 5, method: 'bilstm', ...tiny });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.done' });
    const run = (await call(ctx, 'models.list', {})).models[0].runs[0];
    expect(run).toMatchObject({ evalPairs: 0, goldPairs: 4, config: { ctlWeight: 0 } });
    expect(run.checkpoints).toEqual([expect.objectContaining({ epoch: 2, aer: null, precision: null, recall: null })]);
    const { points } = await call(ctx, 'models.metrics', { runId: run.id });
    expect(points.filter((p) => p.name === 'aer')).toEqual([]);
    expect(points.filter((p) => p.name === 'epoch_loss')).toHaveLength(2);
    store.close();
  }, 120_000);

  test('cancel mid-run: cancelled, delete refused while training, project intact', async () => {
    const { ctx, store, events } = setup();
    const started = await call(ctx, 'models.train', { epochs: 200, ...tiny });
    const running = async () => (await call(ctx, 'models.list', {})).models[0].runs[0];
    while (!(await running()).checkpoints.length) await new Promise((r) => setTimeout(r, 50));
    expect(await running()).toMatchObject({ state: 'running', jobId: started.jobId });
    expect(await failure(ctx, 'models.delete', { modelId: started.modelId })).toMatch(/in use by a training job/);
    expect(await failure(ctx, 'project.close', {})).toMatch(/wait for the running job/);
    await dispatch(ctx, 'jobs.cancel', { jobId: started.jobId });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.cancelled' });
    const run = (await call(ctx, 'models.list', {})).models[0].runs[0];
    expect(run).toMatchObject({ state: 'cancelled', error: null, jobId: null });
    expect(run.finishedAt).not.toBeNull();
    const saved = run.checkpoints.map((c) => `epoch-${c.epoch}`);
    expect(saved.length).toBeGreaterThan(0);
    expect(readdirSync(runDir(store.path, run.id)).sort()).toEqual(saved.sort());
    expect(loadNeuralModel(checkpointDir(runDir(store.path, run.id), run.checkpoints[0].epoch)).dims.dim).toBe(16);
    const path = store.path;
    store.close();
    const again = ProjectStore.open(path);
    expect(dbOf(again).pragma('integrity_check', { simple: true })).toBe('ok');
    expect(again.info().pairs).toBe(16);
    again.close();
  }, 120_000);

  test('a failing run is marked failed with its error; a run left running by a crash fails at the next open', async () => {
    const { ctx, store, events } = setup();
    writeFileSync(`${store.path}.models`, 'not a folder');
    const started = await call(ctx, 'models.train', { epochs: 1, ...tiny });
    expect(await outcome(events, started.jobId)).toMatchObject({ type: 'job.failed' });
    const run = (await call(ctx, 'models.list', {})).models[0].runs[0];
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/ENOTDIR|EEXIST|not a directory/i);
    dbOf(store).prepare(`UPDATE training_runs SET state = 'running', error = NULL, finished_at = NULL`).run();
    const path = store.path;
    store.close();
    const again = ProjectStore.open(path);
    expect(dbOf(again).prepare(`SELECT state, error FROM training_runs`).get()).toEqual({
      state: 'failed',
      error: expect.stringMatching(/stopped/),
    });
    again.close();
  }, 120_000);

  test('bad input is a clear error', async () => {
    const noProject = createContext('browser', 'anna', dir);
    expect(await failure(noProject, 'models.list', {})).toMatch(/no project is open/);
    expect(await failure(noProject, 'models.train', {})).toMatch(/no project is open/);
    const empty = { ...noProject, store: project(dir, []).store };
    expect(await failure(empty, 'models.train', {})).toMatch(/no sentence pairs/);
    expect(await failure(empty, 'models.metrics', { runId: 42 })).toMatch(/no training run 42/);
    expect(await failure(empty, 'models.realign', { runId: 42 })).toMatch(/no training run 42/);
    expect(await failure(empty, 'models.delete', { modelId: 42 })).toMatch(/no model 42/);
    expect(await failure(empty, 'models.train', { method: 'giza' })).toMatch(/method/);
    const { ctx, store } = setup();
    expect(await failure(ctx, 'models.train', { pseudoAlignmentId: 99 })).toMatch(/no alignment 99/);
    dbOf(store).prepare(`INSERT INTO models (id, name, kind, created_at) VALUES (7, 'm', 'bilstm-ctl', 'now')`).run();
    dbOf(store).prepare(`INSERT INTO training_runs (id, model_id, state, started_at) VALUES (8, 7, 'failed', 'now')`).run();
    expect(await failure(ctx, 'models.realign', { runId: 8 })).toMatch(/run 8 has no checkpoint \(saved epochs: none yet\)/);
    expect(await failure(ctx, 'models.realign', { runId: 8, sym: 'nope' })).toMatch(/unknown symmetrisation/);
    empty.store.close();
    store.close();
  });
});
