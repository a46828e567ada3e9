// Hogwild training on worker threads (models/bisent2vec/parallel-train.ts) learns as one
// thread does, on a generated corpus (tests/unit/models/bilstm/synthetic.ts): translations come out
// first by CSLS; checkpoints come between epochs, while the workers wait (the fit loop's,
// train/fit-loop.ts); and cancelling stops the workers with CancelledError.
import { expect, test } from 'vitest';
import { silentContext } from '../../../../src/main/jobs/job-context.ts';
import { CancelledError } from '../../../../src/main/errors.ts';
import { bisent2vecLexicon } from '../../../../src/main/models/bisent2vec/csls-lexicon.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { syntheticCorpus } from '../bilstm/synthetic.ts';

const corpus = syntheticCorpus(600, 40, 5);

function p1(entries: { src: string; tgt: string; score: number }[]): number {
  const best = new Map<string, string>();
  for (const e of entries) if (!best.has(e.src)) best.set(e.src, e.tgt);
  return [...best].filter(([s, t]) => corpus.translation.get(s) === t).length / best.size;
}

test('two threads learn the word translations as one does', async () => {
  const progress: number[] = [];
  const two = await trainBisent2vec(
    corpus.src,
    corpus.tgt,
    { epochs: 10 },
    { threads: 2, ctx: { progress: ({ done }) => void progress.push(done), signal: new AbortController().signal } },
  );
  expect(two.model.V.buffer).toBeInstanceOf(SharedArrayBuffer);
  expect(progress.length).toBeGreaterThan(0);
  const one = await trainBisent2vec(corpus.src, corpus.tgt, { epochs: 10 });
  expect(p1(await bisent2vecLexicon(one.model))).toBeGreaterThanOrEqual(0.9);
  expect(p1(await bisent2vecLexicon(two.model))).toBeGreaterThanOrEqual(0.9);
}, 30_000);

test('a Hogwild run saves its checkpoints between epochs: every n epochs and the last, the last one the trained model', async () => {
  const saved: { epoch: number; V: Float32Array }[] = [];
  const { model } = await trainBisent2vec(
    corpus.src,
    corpus.tgt,
    { epochs: 4 },
    { threads: 2, checkpoints: { every: 2, save: (epoch, m) => void saved.push({ epoch, V: Float32Array.from(m.V) }) } },
  );
  expect(saved.map((s) => s.epoch)).toEqual([2, 4]);
  expect(saved[1].V).toEqual(Float32Array.from(model.V));
  expect(saved[0].V).not.toEqual(saved[1].V);
}, 30_000);

test('cancelling stops the workers', async () => {
  const c = new AbortController();
  const run = trainBisent2vec(corpus.src, corpus.tgt, { epochs: 500 }, { threads: 2, ctx: silentContext(c.signal) });
  setTimeout(() => c.abort(), 300);
  await expect(run).rejects.toBeInstanceOf(CancelledError);
}, 30_000);
