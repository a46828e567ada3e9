// The Models page's worker thread as its jobs drive it (train/worker-run.ts), on a real
// ONNX training run: a cancel given before the first step (while the sessions are being
// built) ends the run as cancelled once the worker stops by itself; a report the job
// cannot take stops the worker the same way and fails the run with that error. Neither
// tears the thread down inside onnxruntime (which would abort this test process). Aligning
// with a saved model reports the extraction's phases after the embeddings, and a cancel
// given during them stops the extraction before any links. Self-training aligns the pairs
// after the first phase and trains a second, its epochs numbered on; a cancel while it
// aligns stops the run before that second phase. A run continuing a checkpoint on pairs with
// words it lacks reports how many joined its vocabulary.
import { expect, test } from 'vitest';
import { saveNeuralModel } from '../../../src/main/models/bilstm/saved.ts';
import { DEFAULT_CONFIG, trainNeural } from '../../../src/main/models/bilstm/train.ts';
import { cancelFlag, type TrainRequest, type WorkerReport } from '../../../src/main/train/neural-protocol.ts';
import { runInWorker } from '../../../src/main/train/worker-run.ts';
import { syntheticCorpus } from '../bilstm/synthetic.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-worker-run-');
const c = syntheticCorpus(16, 12);

const request = (name: string): TrainRequest => ({
  type: 'train',
  data: { src: c.src, tgt: c.tgt },
  config: { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 500 },
  eval: { src: [], tgt: [], gold: [] },
  runFolder: `${dir}/${name}`,
  checkpointEvery: 1000,
  cancel: cancelFlag(),
});

test('a cancel before the first step ends as cancelled, with no step taken', async () => {
  const seen: WorkerReport['type'][] = [];
  const abort = new AbortController();
  const outcome = runInWorker(request('cancel'), (r) => seen.push(r.type), abort.signal);
  abort.abort();
  await expect(outcome).resolves.toBe('cancelled');
  expect(seen.filter((t) => t === 'epoch')).toEqual([]);
  expect(seen.filter((t) => t === 'step').length).toBeLessThanOrEqual(1);
}, 120_000);

test('a report the job cannot take stops the worker and fails the run with that error', async () => {
  let steps = 0;
  const outcome = runInWorker(
    request('failing'),
    (r) => {
      if (r.type === 'step' && ++steps === 2) throw new Error('disk full');
    },
    new AbortController().signal,
  );
  await expect(outcome).rejects.toThrow('disk full');
  expect(steps).toBe(2);
}, 120_000);

test('aligning with a saved model reports the EM passes and the linking, then the links', async () => {
  const big = syntheticCorpus(80, 12, 7);
  const modelDir = `${dir}/saved`;
  saveNeuralModel(modelDir, await trainNeural({ src: big.src, tgt: big.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  const reports: WorkerReport[] = [];
  const outcome = await runInWorker(
    {
      type: 'align',
      modelDir,
      src: big.src,
      tgt: big.tgt,
      sym: 'gdfa',
      cancel: cancelFlag(),
      gold: big.gold.map(() => []),
      heldOut: big.gold.map((g, k) => (k < 40 ? g : [])),
    },
    (r) => reports.push(r),
    new AbortController().signal,
  );
  expect(outcome).toBe('done');
  const phases = reports.flatMap((r) => (r.type === 'linking' ? [r.phase] : []));
  // the decision's EM (held-out gold unseen), then the extraction's, then the pairs
  expect([...new Set(phases)]).toEqual(['EM without the held-out gold', 'EM', 'linking']);
  const links = reports.find((r) => r.type === 'links');
  expect(links).toMatchObject({ decidedBy: 'learned decision' });
}, 120_000);

test('a cancel during the EM of the extraction ends the alignment as cancelled, before any links', async () => {
  const small = syntheticCorpus(80, 12, 5);
  const modelDir = `${dir}/saved-for-cancel`;
  saveNeuralModel(modelDir, await trainNeural({ src: small.src, tgt: small.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  // long pairs (six generated pairs end to end), so that the EM outlasts a report's round trip
  const parts = syntheticCorpus(12_000, 12, 9);
  const join = (side: string[][]) => Array.from({ length: 2000 }, (_, k) => side.slice(6 * k, 6 * k + 6).flat());
  const cancel = cancelFlag();
  const abort = new AbortController();
  const reports: WorkerReport[] = [];
  const outcome = await runInWorker(
    {
      type: 'align',
      modelDir,
      src: join(parts.src),
      tgt: join(parts.tgt),
      sym: 'gdfa',
      cancel,
      gold: Array.from({ length: 2000 }, () => []),
      heldOut: Array.from({ length: 2000 }, () => []),
    },
    (r) => {
      reports.push(r);
      if (r.type === 'linking') abort.abort();
    },
    abort.signal,
  );
  expect(outcome).toBe('cancelled');
  const linking = reports.flatMap((r) => (r.type === 'linking' ? [r] : []));
  expect(linking.length).toBeGreaterThan(0);
  expect(linking.some((r) => r.phase === 'linking' && r.done === r.total)).toBe(false);
  expect(reports.some((r) => r.type === 'links')).toBe(false);
}, 120_000);

test('self-training: after the epochs the worker aligns the pairs, plans a second phase and numbers its epochs on', async () => {
  const reports: WorkerReport[] = [];
  const config = { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 2 };
  const outcome = await runInWorker(
    {
      ...request('self-training'),
      config,
      checkpointEvery: 1,
      selfTrain: { config, threshold: 0, skip: [] },
    },
    (r) => reports.push(r),
    new AbortController().signal,
  );
  expect(outcome).toBe('done');
  const plans = reports.flatMap((r) => (r.type === 'plan' ? [r] : []));
  expect(plans.map((p) => p.firstEpoch)).toEqual([0, 2]);
  // every pair now has links to learn from, repeated goldRepeat times an epoch
  expect(plans[1].stepsPerEpoch).toBeGreaterThan(plans[0].stepsPerEpoch);
  expect(reports.flatMap((r) => (r.type === 'epoch' ? [r.epoch] : []))).toEqual([1, 2, 3, 4]);
  const phases = reports.flatMap((r) => (r.type === 'linking' ? [r.phase] : []));
  expect([...new Set(phases)]).toEqual(['self-training: embedding the pairs', 'self-training: EM', 'self-training: linking']);
  // between the first phase's last epoch and the second phase's plan
  const at = (test: (r: WorkerReport) => boolean) => reports.findIndex(test);
  expect(at((r) => r.type === 'linking')).toBeGreaterThan(at((r) => r.type === 'epoch' && r.epoch === 2));
  expect(reports.findLastIndex((r) => r.type === 'linking')).toBeLessThan(reports.indexOf(plans[1]));
}, 120_000);

test('a cancel while self-training aligns the pairs ends the run as cancelled, before its second phase', async () => {
  const reports: WorkerReport[] = [];
  const abort = new AbortController();
  const config = { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 };
  const outcome = await runInWorker(
    { ...request('self-training-cancel'), config, selfTrain: { config, threshold: 0, skip: [] } },
    (r) => {
      reports.push(r);
      if (r.type === 'linking') abort.abort();
    },
    abort.signal,
  );
  expect(outcome).toBe('cancelled');
  expect(reports.filter((r) => r.type === 'plan')).toHaveLength(1);
  expect(reports.flatMap((r) => (r.type === 'epoch' ? [r.epoch] : []))).toEqual([1]);
}, 120_000);

test('continuing a checkpoint on pairs with words it lacks reports how many joined its vocabulary', async () => {
  const startDir = `${dir}/start`;
  saveNeuralModel(startDir, await trainNeural({ src: c.src, tgt: c.tgt }, { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }));
  const reports: WorkerReport[] = [];
  const more = { src: [...c.src, ['novel', 's1'], ['novel', 'unseen']], tgt: [...c.tgt, ['t1', 'fresh'], ['fresh', 't2']] };
  const outcome = await runInWorker(
    { ...request('continue-new-words'), data: more, config: { ...DEFAULT_CONFIG, dim: 16, batchSize: 8, epochs: 1 }, startDir },
    (r) => reports.push(r),
    new AbortController().signal,
  );
  expect(outcome).toBe('done');
  expect(reports.filter((r) => r.type === 'vocabulary')).toEqual([{ type: 'vocabulary', src: 2, tgt: 1 }]);
  expect(reports.findIndex((r) => r.type === 'vocabulary')).toBeLessThan(reports.findIndex((r) => r.type === 'plan'));
}, 120_000);
