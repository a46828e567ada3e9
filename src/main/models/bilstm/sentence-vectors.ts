// Sentence vectors of a trained BiLSTM aligner: one side's sentences through the inference
// encoder, pooled as the contrastive loss pools them (encoder.ts buildSentenceEncoder), for
// sentence-level uses of the model (the siamese head, retrieval). One compiled program per
// bucket length; sentences run in batches of their bucket.
import { Program, type Tensor } from '../../nn/index.ts';
import { buildSentenceEncoder } from './encoder.ts';
import type { NeuralModel } from './bilstm-train.ts';
import { batchFeeds, forBucketBatches } from './vocab-batches.ts';

const BATCH = 64;

/** Vectors [sentences, dim] of side 0 (source) or 1 (target) under `m`; an empty sentence gets zeros. */
export async function bilstmSentenceVectors(m: NeuralModel, side: 0 | 1, sentences: readonly string[][]): Promise<Float32Array> {
  const d = m.dims.dim;
  const x = side === 0 ? 's' : 't';
  const out = new Float32Array(sentences.length * d);
  const params = Object.fromEntries(m.params);
  const programs = new Map<number, Program>();
  try {
    await forBucketBatches(
      sentences.map((s) => s.length),
      BATCH,
      async (T, idx) => {
        let prog = programs.get(T);
        if (!prog) {
          const enc = buildSentenceEncoder(T, m.dims, x, m.config.pooling, m.config.seed);
          prog = await Program.compile(enc.graph, { v: enc.v }, { device: m.config.device, threads: m.config.threads });
          programs.set(T, prog);
        }
        const own = idx.map((k) => sentences[k]);
        const none = idx.map(() => []);
        const feeds = batchFeeds(m.vocab, side === 0 ? { src: own, tgt: none } : { src: none, tgt: own }, T);
        const v: Tensor = (await prog.run({ ...feeds, ...params })).v;
        idx.forEach((k, b) => out.set((v.data as Float32Array).subarray(b * d, (b + 1) * d), k * d));
      },
    );
  } finally {
    for (const p of programs.values()) await p.release();
  }
  return out;
}
