// The checkpoint a run keeps as its best follows what ranks its checkpoints: the lowest dev
// AER (every BiLSTM run, a fine-tuning by default) or, for a fine-tuning that asked for it,
// the highest dev retrieval P@1; the Models page's best, the default of Re-align and the
// run's summary line agree. Real project file, real run rows and metrics.
import { describe, expect, test } from 'vitest';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';
import {
  bestCheckpoint,
  bestCheckpointOfRun,
  createModelRun,
  listModels,
  metricWriter,
  recordCheckpoint,
} from '../../../src/main/store/training-runs.ts';
import { bestDevScore } from '../../../src/main/train/recorded-run.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-best-checkpoint-');

/** A fine-tuning run whose epoch 1 has the lower AER and epoch 2 the higher retrieval P@1. */
function runRankedBy(selectBy: 'aer' | 'retrieval' | undefined) {
  const { store } = project(dir, [['a', 'x']]);
  const config = trainOptionsSchema.parse({ method: 'encoder-finetune', finetune: selectBy ? { selectBy } : {} });
  const { runId } = createModelRun(store, 'ft', config);
  const metrics = metricWriter(store, runId);
  for (const [epoch, aer, retrieval] of [
    [1, 0.3, 0.5],
    [2, 0.4, 0.75],
  ]) {
    metrics.add('aer', epoch * 10, aer);
    metrics.add('retrieval_p1', epoch * 10, retrieval);
    metrics.flush();
    recordCheckpoint(store, runId, epoch, epoch * 10);
  }
  return { store, runId };
}

describe("a run's best checkpoint", () => {
  test('by retrieval P@1 when the fine-tuning ranks by it', () => {
    const { store, runId } = runRankedBy('retrieval');
    expect(listModels(store, () => null)[0].runs[0].bestEpoch).toBe(2);
    expect(bestCheckpointOfRun(store, runId)).toMatchObject({ epoch: 2, by: 'retrieval' });
    expect(bestDevScore(store, runId)).toBe(', best dev retrieval P@1 0.750 at epoch 2 (dev AER 0.400)');
    store.close();
  });

  test('by AER otherwise', () => {
    for (const selectBy of ['aer', undefined] as const) {
      const { store, runId } = runRankedBy(selectBy);
      expect(listModels(store, () => null)[0].runs[0].bestEpoch).toBe(1);
      expect(bestDevScore(store, runId)).toBe(', best dev AER 0.300 at epoch 1 (dev retrieval P@1 0.500)');
      store.close();
    }
  });

  test('the other figure when the checkpoints lack the one asked for; else the last', () => {
    const c = (epoch: number, aer: number | null, retrieval: number | null) => ({
      epoch,
      step: epoch,
      loss: 1,
      aer,
      precision: null,
      recall: null,
      retrieval,
    });
    expect(bestCheckpoint([c(1, null, 0.2), c(2, null, 0.6), c(3, null, 0.4)], 'aer')?.epoch).toBe(2);
    expect(bestCheckpoint([c(1, 0.2, null), c(2, 0.1, null)], 'retrieval')?.epoch).toBe(2);
    expect(bestCheckpoint([c(1, null, null), c(2, null, null)], 'retrieval')?.epoch).toBe(2);
    expect(bestCheckpoint([], 'aer')).toBeNull();
  });
});
