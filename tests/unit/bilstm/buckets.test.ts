// Length buckets in training: the first batch of a run is one of the shortest bucket (its
// session compiles fastest), and the other buckets' sessions, compiled in the background
// while it trains, serve every batch of a run over four bucket lengths.
import { expect, test } from 'vitest';
import { firstShortest, trainNeural } from '../../../src/main/models/bilstm/train.ts';

test('firstShortest moves one batch of the shortest bucket to the front, the rest in order', () => {
  const batches = [{ T: 32 }, { T: 16 }, { T: 8 }, { T: 48 }, { T: 8 }];
  firstShortest(batches);
  expect(batches.map((b) => b.T)).toEqual([8, 32, 16, 48, 8]);
  const one = [{ T: 24 }];
  firstShortest(one);
  expect(one).toEqual([{ T: 24 }]);
});

test('a run over four bucket lengths trains every batch once per epoch, sessions compiled ahead', async () => {
  const lengths = [3, 12, 20, 40];
  const src = Array.from({ length: 16 }, (_, k) => Array.from({ length: lengths[k % 4] }, (_, i) => `w${(k + i) % 9}`));
  const tgt = src.map((s) => s.map((w) => w.toUpperCase()));
  const steps: number[] = [];
  const m = await trainNeural({ src, tgt }, { dim: 8, batchSize: 4, epochs: 2, merges: 2 }, { onStep: (s) => void steps.push(s) });
  expect(steps).toEqual(Array.from({ length: 8 }, (_, i) => i));
  expect(m.params.size).toBeGreaterThan(0);
}, 120_000);

test('cancelling after the first step drops the sessions not yet compiling: the run ends without compiling every bucket', async () => {
  const lengths = [3, 12, 20, 28, 40, 60];
  const src = Array.from({ length: 24 }, (_, k) => Array.from({ length: lengths[k % 6] }, (_, i) => `w${(k + i) % 9}`));
  const tgt = src.map((s) => s.map((w) => w.toUpperCase()));
  const built: number[] = [];
  const abort = new AbortController();
  const run = trainNeural(
    { src, tgt },
    { dim: 8, batchSize: 4, epochs: 2, merges: 2 },
    { signal: abort.signal, onStep: () => abort.abort(), onBucket: (T) => void built.push(T) },
  );
  await expect(run).rejects.toThrow('cancelled');
  // the shortest bucket trained the first step; at most the one compiling then finished
  expect(built[0]).toBe(8);
  expect(built.length).toBeLessThanOrEqual(2);
}, 120_000);
