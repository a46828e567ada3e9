// Bi-Sent2Vec training, the entry point: builds the vocabulary and trains on this thread, or on
// several threads Hogwild style (Recht et al. 2011; fastText and
// seed 002's asynchronous SGD): U and V move into SharedArrayBuffers, the pairs are dealt
// into one shard per thread, and each worker (hogwild.worker.ts) runs the one-thread loop of
// train.ts on its shard, reading and writing the shared rows without locks — sparse updates
// rarely collide. Each shard decays its learning rate over its own tokens and draws its own
// random numbers (seed + shard), so a run is not bit-for-bit repeatable across thread counts.
// Workers hold no ONNX sessions, so cancelling terminates them outright.
import { CancelledError } from '../../errors.ts';
import { spawnWorker } from '../../jobs/spawn-worker.ts';
import {
  BISENT2VEC_DEFAULTS,
  type Bisent2vecConfig,
  type Bisent2vecModel,
  initModel,
  trainModel,
  type TrainStats,
  type TrainWork,
} from './train.ts';
import type { HogwildShard } from './hogwild.worker.ts';

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
  const started = performance.now();
  const done = new Array<number>(threads).fill(0),
    totals = new Array<number>(threads).fill(0);
  const workers = shards.map(() => spawnWorker(new URL('./hogwild.worker.ts', import.meta.url)));
  const stop = () => workers.forEach((w) => void w.terminate());
  const onAbort = () => stop();
  work.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const results = await Promise.all(
      workers.map(
        (w, s) =>
          new Promise<TrainStats>((resolve, reject) => {
            w.on(
              'message',
              (m: { type: 'progress'; done: number; total: number; message: string } | { type: 'done'; stats: TrainStats }) => {
                if (m.type === 'done') return resolve(m.stats);
                done[s] = m.done;
                totals[s] = m.total;
                work.progress?.(
                  done.reduce((a, b) => a + b, 0),
                  totals.reduce((a, b) => a + b, 0),
                  `${m.message} · ${threads} threads`,
                );
              },
            );
            w.on('error', reject);
            w.on('exit', (code) =>
              reject(work.signal?.aborted ? new CancelledError() : new Error(`training worker exited with code ${code}`)),
            );
            const shard: HogwildShard = {
              config: { ...model.config, seed: shards[s].seed },
              vocab: model.index.vocab,
              U: model.U,
              V: model.V,
              src: shards[s].src,
              tgt: shards[s].tgt,
            };
            w.postMessage(shard);
          }),
      ),
    );
    return {
      loss: results.reduce((a, r) => a + r.loss, 0) / threads,
      wordsPerSecond: (model.config.epochs * tokens) / ((performance.now() - started) / 1000),
      steps: results.reduce((a, r) => a + r.steps, 0),
    };
  } finally {
    work.signal?.removeEventListener('abort', onAbort);
    stop();
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
  const stats = threads > 1 ? await trainOnThreads(model, src, tgt, threads, work) : trainModel(model, src, tgt, work);
  return { model, stats };
}
