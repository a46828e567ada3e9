// Bi-Sent2Vec training, the entry point: builds the vocabulary and trains on this thread, or on
// several threads Hogwild style (Recht et al. 2011; fastText and
// seed 002's asynchronous SGD): U and V move into SharedArrayBuffers, the pairs are dealt
// into one shard per thread, and each worker (hogwild.worker.ts) trains its shard with the
// one-thread trainer of cbow-train.ts, reading and writing the shared rows without locks — sparse
// updates rarely collide. The fit loop (train/fit-loop.ts) runs on this thread: a step is
// one chunk of every shard, trained at once, so progress, cancel and checkpoints (taken while
// the workers wait) are the loop's as for any family. Each shard decays its learning rate over
// its own tokens and draws its own random numbers (seed + shard), so a run is not bit-for-bit
// repeatable across thread counts. The workers serve the job protocol's tasks
// (jobs/worker-host.ts WorkerClient); they hold no ONNX sessions, so a cancel terminates
// them outright, even in the middle of a chunk.
import { BISENT2VEC_DEFAULTS } from '../../../shared/aligner-defaults.ts';
import { silentContext } from '../../jobs/job-context.ts';
import { WorkerClient } from '../../jobs/worker-host.ts';
import { abortable, fit } from '../../train/fit-loop.ts';
import {
  type Bisent2vecConfig,
  type Bisent2vecModel,
  CHUNK_PAIRS,
  initModel,
  trainModel,
  type TrainStats,
  type TrainWork,
} from './cbow-train.ts';
import type { HogwildReply, HogwildRequest } from './hogwild.worker.ts';

function shared(a: Float32Array): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(a.byteLength));
  out.set(a);
  return out;
}

/** Trains `model` on `threads` workers; its U and V are replaced by shared copies holding the result. */
export async function trainOnThreads(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  threads: number,
  work: TrainWork = {},
): Promise<TrainStats> {
  model.U = shared(model.U);
  model.V = shared(model.V);
  const shards = Array.from({ length: threads }, (_, s) => ({ src: [] as string[][], tgt: [] as string[][], seed: model.config.seed + s }));
  src.forEach((s, i) => {
    shards[i % threads].src.push([...s]);
    shards[i % threads].tgt.push([...tgt[i]]);
  });
  const tokens = src.reduce((a, s) => a + s.length, 0) + tgt.reduce((a, s) => a + s.length, 0);
  const ctx = work.ctx ?? silentContext();
  const started = performance.now();
  const workers = shards.map(() => new WorkerClient<HogwildRequest, HogwildReply>(new URL('./hogwild.worker.ts', import.meta.url)));
  try {
    await Promise.all(
      workers.map((w, s) =>
        w.run({
          type: 'shard',
          config: { ...model.config, seed: shards[s].seed },
          vocab: model.index.vocab,
          U: model.U,
          V: model.V,
          src: shards[s].src,
          tgt: shards[s].tgt,
        }),
      ),
    );
    await fit(
      {
        epochs: model.config.epochs,
        stepsPerEpoch: Math.ceil(shards[0].src.length / CHUNK_PAIRS),
        beginEpoch: async () => void (await Promise.all(workers.map((w) => w.run({ type: 'epoch' })))),
        async step({ index }) {
          const replies = await abortable(Promise.all(workers.map((w) => w.run({ type: 'chunk', index }))), ctx.signal);
          let loss = 0,
            terms = 0;
          for (const r of replies) if (r?.type === 'chunk') [loss, terms] = [loss + r.loss, terms + r.terms];
          return terms ? loss / terms : 0;
        },
        model: () => model,
      },
      ctx,
      { checkpoints: work.checkpoints },
    );
    const results = await Promise.all(workers.map((w) => w.run({ type: 'stats' })));
    const stats = results.flatMap((r) => (r?.type === 'stats' ? [r] : []));
    return {
      loss: stats.reduce((a, r) => a + r.loss, 0) / threads,
      wordsPerSecond: (model.config.epochs * tokens) / ((performance.now() - started) / 1000),
      steps: stats.reduce((a, r) => a + r.steps, 0),
    };
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

/** Builds the vocabulary and trains a model on a parallel corpus, on `work.threads` threads (default 1). */
export async function trainBisent2vec(
  src: readonly string[][],
  tgt: readonly string[][],
  config: Partial<Bisent2vecConfig> = {},
  work: TrainWork = {},
): Promise<{ model: Bisent2vecModel; stats: TrainStats }> {
  if (src.length !== tgt.length) throw new Error(`trainBisent2vec: ${src.length} source and ${tgt.length} target sentences`);
  const model = initModel(src, tgt, { ...BISENT2VEC_DEFAULTS, ...config });
  const threads = Math.max(1, Math.min(work.threads ?? 1, src.length));
  const stats = threads > 1 ? await trainOnThreads(model, src, tgt, threads, work) : await trainModel(model, src, tgt, work);
  return { model, stats };
}
