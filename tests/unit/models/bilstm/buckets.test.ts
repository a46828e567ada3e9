// Length buckets in training: every batch is full (the training graphs' batch dimension is
// static) and within a bucket its pairs fit; the first batch of a run is one of the shortest
// bucket (its session compiles fastest), and the other buckets' sessions, compiled in the
// background while it trains, serve every batch of a run over four bucket lengths.
import { expect, test } from 'vitest';
import { DEFAULT_CONFIG, firstShortest, makeBatches, trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { bucketOf } from '../../../../src/main/models/bilstm/vocab-batches.ts';
import { Rng } from '../../../../src/main/nn/index.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);

test('makeBatches: full batches of pairs that fit their bucket, every pair each epoch, no pair twice in a batch', () => {
  // 70 pairs of length 5 (bucket 8), 33 of 14 (16), 3 of 20 (24: joins 32), 40 of 30 (32), 10 of 60 (64: takes in 32)
  const lengths = [...Array(70).fill(5), ...Array(33).fill(14), ...Array(3).fill(20), ...Array(40).fill(30), ...Array(10).fill(60)];
  const src = lengths.map(words);
  const c = { ...DEFAULT_CONFIG, batchSize: 32 };
  const batches = makeBatches({ src, tgt: src }, c, new Rng(3));
  expect(new Set(batches.map((b) => b.T))).toEqual(new Set([8, 16, 64]));
  const seen = new Set<number>();
  for (const b of batches) {
    expect(b.idx).toHaveLength(32);
    expect(new Set(b.idx).size).toBe(32);
    for (const k of b.idx) {
      expect(bucketOf(lengths[k])).toBeLessThanOrEqual(b.T);
      seen.add(k);
    }
  }
  expect(seen.size).toBe(lengths.length);
  // 70 → 3 batches, 33 → 2, 3 + 40 + 10 = 53 → 2
  expect(batches).toHaveLength(7);
});

test('makeBatches: a corpus smaller than a batch repeats its pairs to fill one', () => {
  const src = [3, 9, 4].map(words);
  const batches = makeBatches({ src, tgt: src }, { ...DEFAULT_CONFIG, batchSize: 8 }, new Rng(1));
  expect(batches).toHaveLength(1);
  expect(batches[0].T).toBe(16);
  expect(batches[0].idx).toHaveLength(8);
  expect(new Set(batches[0].idx)).toEqual(new Set([0, 1, 2]));
});

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
  const m = await trainNeural(
    { src, tgt },
    { dim: 8, batchSize: 4, epochs: 2, merges: 2 },
    {
      onEvent: (e) => void (e.type === 'step' && steps.push(e.step - 1)),
    },
  );
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
    { ctx: { progress: () => abort.abort(), signal: abort.signal }, onBucket: (T) => void built.push(T) },
  );
  await expect(run).rejects.toThrow('cancelled');
  // the shortest bucket trained the first step; at most the one compiling then finished
  expect(built[0]).toBe(8);
  expect(built.length).toBeLessThanOrEqual(2);
}, 120_000);
