// The Train… form's state between the BiLSTM methods and encoder-finetune: choosing a family
// swaps in its epochs and learning rate (and back), only that family's fields are sent and
// validated, the fine-tuning objectives carry their own weights, the papers' settings (length
// cap, step count, accumulation, what ranks checkpoints) are sent when given, and the options
// it sends pass the API's schema.
import { expect, test } from 'vitest';
import { TrainFormState } from '../../../src/renderer/lib/state/train-form.svelte.ts';
import { type RunInfo, trainOptionsSchema } from '../../../src/shared/models-api.ts';

test('encoder-finetune: its defaults, its fields only, objectives with their weights; back to a BiLSTM method restores its own', () => {
  const form = new TrainFormState(265);
  expect(form.values.epochs).toBe(75);
  expect([form.values.selfTrainEpochs, new TrainFormState(1_001).values.selfTrainEpochs]).toEqual([10, 0]);
  form.method = 'encoder-finetune';
  expect(form.values.epochs).toBe(1);
  expect(form.values.lr).toBe(5e-5);
  const o = form.checked.options!;
  expect(o).toMatchObject({
    method: 'encoder-finetune',
    epochs: 1,
    lr: 5e-5,
    lowercase: false,
    finetune: { objectives: ['tr', 'awp', 'wtr'], alpha: 0.8, beta: 0.1, gamma: 0.1, batch: 16, languageEmbeddings: false },
  });
  for (const k of ['dim', 'weights', 'ctlWeight', 'batchSize', 'wordDropout'] as const) expect(o[k]).toBeUndefined();
  expect(o.finetune!.delta).toBeUndefined();
  expect(trainOptionsSchema.parse(o)).toEqual(o);

  // a BiLSTM field left empty does not count here; an objective's weight counts only when it is chosen
  form.values.dim = null;
  form.values.delta = -1;
  expect(form.checked.errors).toBeNull();
  form.objectives = ['tr', 'rtl'];
  expect(form.errors.delta).toBe('at least 0');
  form.values.delta = 1;
  form.values.alpha = 0;
  form.objectives = ['tr'];
  expect(form.errors.weights).toBe('choose an objective with a weight above 0');
  form.objectives = [];
  expect(form.errors.weights).toBe('choose an objective with a weight above 0');
  form.objectives = ['rtl', 'tr'];
  form.values.pairsPerStep = 0;
  expect(form.errors.pairsPerStep).toBe('at least 1');
  form.values.pairsPerStep = 8;
  expect(form.checked.options?.finetune).toMatchObject({ objectives: ['tr', 'rtl'], alpha: 0, delta: 1, batch: 8 });

  form.method = 'bilstm';
  expect(form.values.epochs).toBe(75);
  expect(form.values.lr).toBe(5e-3);
  expect(form.errors.dim).toBe('required');
  form.values.dim = 64;
  expect(form.checked.options).toMatchObject({ method: 'bilstm', dim: 64, lowercase: true, weights: { base: 0.5, awp: 0.25, wtr: 0.25 } });
  expect(form.checked.options!.finetune).toBeUndefined();
});

test("continuing a run: its configuration is prefilled, its length is the project's default; bilstm leaves the contrastive fields unused", () => {
  const config = trainOptionsSchema.parse({
    method: 'bilstm',
    epochs: 40,
    selfTrainEpochs: 5,
    weights: { base: 1, awp: 0.5, wtr: 0 },
    dim: 64,
    lr: 1e-3,
    batchSize: 16,
    wordDropout: 2,
    checkpointEvery: 3,
  });
  const run = { id: 7, config } as RunInfo;
  const form = TrainFormState.continuing(run, 2, 265);
  expect(form.startFrom).toEqual({ runId: 7, epoch: 2 });
  expect(form.values).toMatchObject({ base: 1, awp: 0.5, wtr: 0, dim: 64, lr: 1e-3, batchSize: 16, wordDropout: 2, checkpointEvery: 3 });
  expect([form.values.epochs, form.values.selfTrainEpochs]).toEqual([75, 0]);
  expect([form.uses('ctlWeight'), form.uses('temperature')]).toEqual([false, false]);
  expect(form.checked.options).toMatchObject({ method: 'bilstm', startFrom: { runId: 7, epoch: 2 }, dim: 64, epochs: 75 });
  expect(form.checked.options!.ctlWeight).toBeUndefined();
});

test("encoder-finetune: TR's weight follows the chosen objectives' default (1 under exactly TR + RTL, seed 001) until the linguist sets it", () => {
  const form = new TrainFormState(100);
  form.method = 'encoder-finetune';
  expect(form.values.alpha).toBe(0.8);
  form.objectives = ['tr', 'rtl'];
  expect(form.values.alpha).toBe(1);
  expect(form.checked.options?.finetune).toMatchObject({ objectives: ['tr', 'rtl'], alpha: 1 });
  form.objectives = ['tr', 'awp', 'rtl'];
  expect(form.values.alpha).toBe(0.8);
  form.values.alpha = 0.5;
  form.objectives = ['tr', 'rtl'];
  expect(form.values.alpha).toBe(0.5);
});

test("encoder-finetune: the papers' settings — sent when given, a step count deciding the epochs, each checked", () => {
  const form = new TrainFormState(100);
  form.method = 'encoder-finetune';
  // by default: one micro-batch a step, ranked by AER, no length cap or step count
  expect(form.checked.options).toMatchObject({ epochs: 1, finetune: { accumulate: 1, selectBy: 'aer', soLabels: 'fixed' } });
  expect(form.checked.options!.finetune!.maxLength).toBeUndefined();
  expect(form.checked.options!.finetune!.maxSteps).toBeUndefined();

  Object.assign(form.values, { maxLength: 32, maxSteps: 10_000, accumulate: 64 });
  form.selectBy = 'retrieval';
  form.soLabels = 'recomputed';
  const o = form.checked.options!;
  expect(o.finetune).toMatchObject({
    batch: 16,
    accumulate: 64,
    maxLength: 32,
    maxSteps: 10_000,
    selectBy: 'retrieval',
    soLabels: 'recomputed',
  });
  // the steps decide the epochs: none sent, and an empty epochs field is no error
  expect(form.uses('epochs')).toBe(false);
  expect(o.epochs).toBeUndefined();
  form.values.epochs = null;
  expect(form.checked.errors).toBeNull();
  expect(trainOptionsSchema.parse(form.checked.options)).toEqual(form.checked.options);

  form.values.maxLength = 2;
  form.values.accumulate = 0;
  form.values.maxSteps = 1.5;
  expect(form.errors).toMatchObject({ maxLength: 'at least 3', accumulate: 'at least 1', maxSteps: 'a whole number' });
  // without a step count the epochs count again
  form.values.maxSteps = null;
  expect(form.errors.epochs).toBe('required');
});
