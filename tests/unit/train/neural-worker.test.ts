// The Models page's BiLSTM worker thread (neural.worker.ts) as its jobs drive it through the
// job protocol (jobs/worker-host.ts), on a real ONNX training run of a real project file
// (the worker reads the training set itself and reports it first): a cancel given before the
// first step (while the sessions are being built) ends the run as cancelled once the worker
// stops by itself; a report the job cannot take stops the worker the same way and fails the
// run with that error. Neither tears the thread down inside onnxruntime (which would abort
// this test process). Aligning with a saved model reports the extraction's phases after the
// embeddings, and a cancel given during them stops the extraction before any links.
// Self-training aligns the pairs after the first phase and trains a second, its epochs
// numbered on; a cancel while it aligns stops the run before that second phase. A run
// continuing a checkpoint on pairs with words it lacks reports how many joined its vocabulary.
import { expect, test } from 'vitest';
import { CancelledError } from '../../../src/main/errors.ts';
import type { JobProgress } from '../../../src/main/jobs/job-context.ts';
import { runInWorker } from '../../../src/main/jobs/worker-host.ts';
import { saveNeuralModel } from '../../../src/main/models/bilstm/bilstm-folder.ts';
import { DEFAULT_CONFIG, trainNeural } from '../../../src/main/models/bilstm/bilstm-train.ts';
import type { NeuralAlignResult, NeuralReport, NeuralTask, TrainRequest } from '../../../src/main/train/neural-protocol.ts';
import { type TrainOptions, trainOptionsSchema } from '../../../src/shared/models-api.ts';
import { project } from '../review/fixture.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-neural-worker-');
const c = syntheticCorpus(16, 12);
const worker = new URL('../../../src/main/train/neural.worker.ts', import.meta.url);

/** What the job sees, in order: the worker's reports and its progress lines. */
type Seen = NeuralReport | ({ type: 'progress' } & JobProgress);

/** Runs `task`; `stop(e, abort)` sees each event and may cancel (abort) or throw. */
async function drive(task: NeuralTask, stop: (e: Seen, abort: () => void) => void = () => {}) {
  const seen: Seen[] = [];
  const controller = new AbortController();
  const abort = () => controller.abort();
  const see = (e: Seen) => {
    seen.push(e);
    stop(e, abort);
  };
  try {
    const result = await runInWorker<NeuralTask, NeuralAlignResult | null, NeuralReport>(
      worker,
      task,
      { progress: (p) => see({ type: 'progress', ...p }), signal: controller.signal },
      { onReport: see },
    );
    return { outcome: 'done' as const, result, seen };
  } catch (err) {
    if (err instanceof CancelledError) return { outcome: 'cancelled' as const, result: null, seen };
    throw err;
  }
}

/** A project holding `pairs`, closed again: the worker reads it on a connection of its own. */
function projectFile(pairs: { src: string[][]; tgt: string[][] }): string {
  const { store } = project(
    dir,
    pairs.src.map((s, k) => [s.join(' '), pairs.tgt[k].join(' ')]),
  );
  store.close();
  return store.path;
}

const request = (name: string, options: Partial<TrainOptions> = {}, pairs: { src: string[][]; tgt: string[][] } = c): TrainRequest => ({
  type: 'train',
  projectPath: projectFile(pairs),
  options: trainOptionsSchema.parse({
    method: 'bilstm',
    dim: 16,
    batchSize: 8,
    epochs: 500,
    checkpointEvery: 1000,
    selfTrainEpochs: 0,
    ...options,
  }),
  runFolder: `${dir}/${name}`,
});

/** The phases of the extraction's progress lines (a line's trailing "done/total" left out). */
const phasesOf = (seen: Seen[], test: (message: string) => boolean) =>
  seen.flatMap((e) => (e.type === 'progress' && e.message && test(e.message) ? [e.message.replace(/ \d+\/\d+$/, '')] : []));

test('the worker reads the training set from the project and reports it first; a cancel before the first step ends as cancelled, with no step taken', async () => {
  const { outcome, seen } = await drive(request('cancel'), (e, abort) => {
    if (e.type === 'plan') abort();
  });
  expect(seen.find((e) => e.type !== 'progress')).toMatchObject({
    type: 'setup',
    options: { method: 'bilstm', epochs: 500, dim: 16, selfTrainEpochs: 0 },
    config: { epochs: 500, dim: 16, batchSize: 8 },
    stats: { pairs: 16, goldPairs: 0, evalPairs: 0 },
  });
  expect(outcome).toBe('cancelled');
  expect(seen.filter((e) => e.type === 'epoch')).toEqual([]);
  expect(seen.filter((e) => e.type === 'step').length).toBeLessThanOrEqual(1);
}, 120_000);

test('a report the job cannot take stops the worker and fails the run with that error', async () => {
  let steps = 0;
  await expect(
    drive(request('failing'), (e) => {
      if (e.type === 'step' && ++steps === 2) throw new Error('disk full');
    }),
  ).rejects.toThrow('disk full');
  expect(steps).toBe(2);
}, 120_000);

test('aligning with a saved model reports the EM passes and the linking, then the links', async () => {
  const big = syntheticCorpus(80, 12, 7);
  const modelDir = `${dir}/saved`;
  saveNeuralModel(modelDir, await trainNeural({ src: big.src, tgt: big.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  const { outcome, result, seen } = await drive({
    type: 'align',
    modelDir,
    src: big.src,
    tgt: big.tgt,
    sym: 'gdfa',
    gold: big.gold.map(() => []),
    heldOut: big.gold.map((g, k) => (k < 40 ? g : [])),
  });
  expect(outcome).toBe('done');
  // the embeddings, then the decision's EM (held-out gold unseen), then the extraction's, then the pairs
  expect([...new Set(phasesOf(seen, () => true))]).toEqual(['embedding the pairs', 'EM without the held-out gold', 'EM', 'linking']);
  expect(result).toMatchObject({ decidedBy: 'learned decision' });
  expect(result!.links).toHaveLength(80);
}, 120_000);

test('a cancel during the EM of the extraction ends the alignment as cancelled, before any links', async () => {
  const small = syntheticCorpus(80, 12, 5);
  const modelDir = `${dir}/saved-for-cancel`;
  saveNeuralModel(modelDir, await trainNeural({ src: small.src, tgt: small.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  // long pairs (six generated pairs end to end), so that the EM outlasts a report's round trip
  const parts = syntheticCorpus(12_000, 12, 9);
  const join = (side: string[][]) => Array.from({ length: 2000 }, (_, k) => side.slice(6 * k, 6 * k + 6).flat());
  const { outcome, seen } = await drive(
    {
      type: 'align',
      modelDir,
      src: join(parts.src),
      tgt: join(parts.tgt),
      sym: 'gdfa',
      gold: Array.from({ length: 2000 }, () => []),
      heldOut: Array.from({ length: 2000 }, () => []),
    },
    (e, abort) => {
      if (e.type === 'progress' && e.message === 'EM') abort();
    },
  );
  expect(outcome).toBe('cancelled');
  const linking = seen.flatMap((e) => (e.type === 'progress' && (e.message === 'EM' || e.message === 'linking') ? [e] : []));
  expect(linking.length).toBeGreaterThan(0);
  expect(linking.some((e) => e.message === 'linking' && e.done === e.total)).toBe(false);
}, 120_000);

test('self-training: after the epochs the worker aligns the pairs, plans a second phase and numbers its epochs on', async () => {
  const { outcome, seen } = await drive(request('self-training', { epochs: 2, selfTrainEpochs: 2, checkpointEvery: 1, threshold: 0 }));
  expect(outcome).toBe('done');
  const plans = seen.flatMap((e) => (e.type === 'plan' ? [e] : []));
  expect(plans.map((p) => p.firstEpoch)).toEqual([0, 2]);
  // every pair now has links to learn from, repeated goldRepeat times an epoch
  expect(plans[1].stepsPerEpoch).toBeGreaterThan(plans[0].stepsPerEpoch);
  expect(seen.flatMap((e) => (e.type === 'epoch' ? [e.epoch] : []))).toEqual([1, 2, 3, 4]);
  const selfTraining = (m: string) => m.startsWith('self-training:');
  expect([...new Set(phasesOf(seen, selfTraining))]).toEqual([
    'self-training: embedding the pairs',
    'self-training: EM',
    'self-training: linking',
  ]);
  // between the first phase's last epoch and the second phase's plan
  const linking = (e: Seen) => e.type === 'progress' && !!e.message && selfTraining(e.message);
  expect(seen.findIndex(linking)).toBeGreaterThan(seen.findIndex((e) => e.type === 'epoch' && e.epoch === 2));
  expect(seen.findLastIndex(linking)).toBeLessThan(seen.indexOf(plans[1]));
}, 120_000);

test('a cancel while self-training aligns the pairs ends the run as cancelled, before its second phase', async () => {
  const { outcome, seen } = await drive(request('self-training-cancel', { epochs: 1, selfTrainEpochs: 1, threshold: 0 }), (e, abort) => {
    if (e.type === 'progress' && e.message?.startsWith('self-training:')) abort();
  });
  expect(outcome).toBe('cancelled');
  expect(seen.filter((e) => e.type === 'plan')).toHaveLength(1);
  expect(seen.flatMap((e) => (e.type === 'epoch' ? [e.epoch] : []))).toEqual([1]);
}, 120_000);

test('continuing a checkpoint on pairs with words it lacks reports how many joined its vocabulary', async () => {
  const startDir = `${dir}/start`;
  saveNeuralModel(startDir, await trainNeural({ src: c.src, tgt: c.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  const more = { src: [...c.src, ['novel', 's1'], ['novel', 'unseen']], tgt: [...c.tgt, ['t1', 'fresh'], ['fresh', 't2']] };
  const { outcome, seen } = await drive({ ...request('continue-new-words', { epochs: 1 }, more), startDir });
  expect(outcome).toBe('done');
  expect(seen.filter((e) => e.type === 'vocabulary')).toEqual([{ type: 'vocabulary', src: 2, tgt: 1 }]);
  expect(seen.findIndex((e) => e.type === 'vocabulary')).toBeLessThan(seen.findIndex((e) => e.type === 'plan'));
}, 120_000);
