// The default epochs for a corpus size (shared/epochs.ts), and trainNeural taking them when its
// config gives none.
import { expect, test } from 'vitest';
import { defaultEpochs } from '../../../../src/shared/epochs.ts';
import { trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';

test('20 epochs from 1,000 pairs on, 20,000 pair-passes below, at most 80', () => {
  expect([1, 100, 250, 265, 400, 500, 999, 1000, 5000, 100_000].map(defaultEpochs)).toEqual([80, 80, 80, 75, 50, 40, 20, 20, 20, 20]);
  expect(defaultEpochs(0)).toBe(80);
});

test('trainNeural trains the default epochs for its corpus unless told otherwise', async () => {
  const src = Array.from({ length: 300 }, (_, k) => [`a${k % 7}`, `b${k % 5}`]);
  const tgt = src.map((s) => s.map((w) => w.toUpperCase()));
  const tiny = { dim: 8, batchSize: 300, merges: 2 };
  const epochsRun = async (config: object) => {
    let n = 0;
    const m = await trainNeural({ src, tgt }, config, { onEvent: (e) => void (e.type === 'epoch' && n++) });
    return [n, m.config.epochs];
  };
  expect(await epochsRun(tiny)).toEqual([67, 67]);
  expect(await epochsRun({ ...tiny, epochs: 3 })).toEqual([3, 3]);
}, 120_000);
