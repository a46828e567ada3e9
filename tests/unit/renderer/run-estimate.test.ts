// The Train dialog's time estimate: the pace of the newest finished run of the same method,
// dimension and batch size (pairs per step for fine-tuning) (its time over its steps, its steps per pair and epoch), none
// without such a run.
import { describe, expect, test } from 'vitest';
import { estimateRun } from '../../../src/renderer/lib/run-estimate.ts';
import type { ModelInfo, RunInfo } from '../../../src/shared/models-api.ts';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';

function run(id: number, over: Partial<RunInfo> & { dim?: number; seconds?: number; steps?: number; epochs?: number }): RunInfo {
  const config = trainOptionsSchema.parse({ method: 'bilstm-ctl', dim: over.dim ?? 128, batchSize: 32 });
  const start = Date.parse('2026-11-25T06:00:00Z');
  return {
    id,
    modelId: 1,
    state: 'done',
    config,
    startedAt: new Date(start).toISOString(),
    finishedAt: new Date(start + (over.seconds ?? 600) * 1000).toISOString(),
    error: null,
    pairs: 1000,
    goldPairs: 0,
    partialGoldPairs: 0,
    pseudoPairs: 0,
    dictionaryPairs: 0,
    evalPairs: 0,
    newWords: null,
    device: null,
    checkpoints: [
      { epoch: over.epochs ?? 10, step: over.steps ?? 400, loss: 1, aer: null, precision: null, recall: null, retrieval: null },
    ],
    bestEpoch: 10,
    alignmentIds: [],
    jobId: null,
    realignJobId: null,
    ...over,
  };
}

const models = (runs: RunInfo[]): ModelInfo[] => [{ id: 1, name: 'm', kind: 'bilstm-ctl', createdAt: '', runs }];

describe('run estimate', () => {
  test('scales the newest comparable run: its pace per step, its steps per pair and epoch', () => {
    // 400 steps in 600 s over 10 epochs of 1,000 pairs: 1.5 s a step, 0.04 steps a pair-epoch.
    const est = estimateRun(models([run(1, {}), run(2, { dim: 256, seconds: 60 })]), {
      method: 'bilstm-ctl',
      dim: 128,
      batchSize: 32,
      epochs: 20,
      pairs: 1500,
    });
    expect(est).toEqual({ seconds: 1800, steps: 1200, secondsPerStep: 1.5, fromRun: 1 });
  });

  test('no estimate from runs of another size, or unfinished ones', () => {
    const plan = { method: 'bilstm-ctl', dim: 64, batchSize: 32, epochs: 5, pairs: 100 };
    expect(estimateRun(models([run(1, {})]), plan)).toBeNull();
    expect(estimateRun(models([run(1, { dim: 64, state: 'cancelled' })]), plan)).toBeNull();
    expect(estimateRun(models([run(1, { dim: 64, checkpoints: [] })]), plan)).toBeNull();
  });

  test('a fine-tuning run is timed from fine-tuning runs with as many pairs a step', () => {
    const ft = (id: number, batch: number) =>
      run(id, { config: trainOptionsSchema.parse({ method: 'encoder-finetune', finetune: { batch } }), seconds: 90, steps: 30, epochs: 1 });
    const plan = { method: 'encoder-finetune', dim: null, batchSize: 16, epochs: 2, pairs: 1000 };
    expect(estimateRun(models([run(1, {}), ft(2, 8)]), plan)).toBeNull();
    expect(estimateRun(models([ft(2, 8), ft(3, 16)]), plan)).toEqual({ seconds: 180, steps: 60, secondsPerStep: 3, fromRun: 3 });
  });

  test('a fine-tuning with a step count: at most its steps, or just them when they decide the epochs; from runs that accumulate alike', () => {
    const ft = (id: number, accumulate?: number) =>
      run(id, {
        config: trainOptionsSchema.parse({ method: 'encoder-finetune', finetune: { batch: 16, ...(accumulate ? { accumulate } : {}) } }),
        seconds: 90,
        steps: 30,
        epochs: 1,
      });
    const plan = { method: 'encoder-finetune', dim: null, batchSize: 16, epochs: 2, pairs: 1000 };
    expect(estimateRun(models([ft(1)]), { ...plan, maxSteps: 45 })).toEqual({ seconds: 135, steps: 45, secondsPerStep: 3, fromRun: 1 });
    expect(estimateRun(models([ft(1)]), { ...plan, epochs: null, maxSteps: 500 })?.steps).toBe(500);
    expect(estimateRun(models([ft(1)]), { ...plan, epochs: null })).toBeNull();
    // four batches a step are slower steps: only a run that accumulated four times paces it
    expect(estimateRun(models([ft(1)]), { ...plan, accumulate: 4 })).toBeNull();
    expect(estimateRun(models([ft(1), ft(2, 4)]), { ...plan, accumulate: 4 })?.fromRun).toBe(2);
  });
});
