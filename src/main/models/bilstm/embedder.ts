// Contextual embeddings of sentence pairs under a model (the inference encoder of
// encoder.ts, one compiled program per bucket length): pairs are grouped by bucket and run
// in batches. Programs are kept for the next call, with parameters fed at run time, so a
// training run scored at every checkpoint compiles each bucket once; progress counts the
// pairs done after each batch, so a long re-alignment shows it, and cancel is checked there.
import { checkCancelled, type JobContext, silentContext } from '../../jobs/job-context.ts';
import { Program, type Tensor } from '../../nn/index.ts';
import { buildEncoder, encoderWidth, STATIC_WEIGHT } from './encoder.ts';
import type { NeuralModel } from './bilstm-train.ts';
import { batchFeeds, forBucketBatches } from './vocab-batches.ts';

export interface PairEmbeddings {
  /** per pair, unit-length rows [I·dim] and [J·dim] (dim: encoderWidth of encoder.ts) */
  src: Float32Array[];
  tgt: Float32Array[];
  dim: number;
}

const BATCH = 64;

function rows(t: Tensor, b: number, n: number, T: number, d: number): Float32Array {
  return (t.data as Float32Array).slice(b * T * d, (b * T + n) * d);
}

export class Embedder {
  private readonly programs = new Map<number, Program>();

  constructor(private readonly staticWeight = STATIC_WEIGHT) {}

  private async program(m: NeuralModel, T: number): Promise<Program> {
    let p = this.programs.get(T);
    if (!p) {
      const enc = buildEncoder(T, m.dims, m.config.seed, this.staticWeight);
      p = await Program.compile(enc.graph, { us: enc.us, ut: enc.ut }, { device: m.config.device, threads: m.config.threads });
      this.programs.set(T, p);
    }
    return p;
  }

  /** Embeddings of every pair (both sides non-empty) under `m`'s current parameters. */
  async embed(
    m: NeuralModel,
    src: readonly string[][],
    tgt: readonly string[][],
    ctx: JobContext = silentContext(),
  ): Promise<PairEmbeddings> {
    const d = encoderWidth(m.dims, this.staticWeight);
    const out: PairEmbeddings = { src: new Array(src.length), tgt: new Array(src.length), dim: d };
    const params = Object.fromEntries(m.params);
    let done = 0;
    await forBucketBatches(
      src.map((s, k) => Math.max(s.length, tgt[k].length)),
      BATCH,
      async (T, idx) => {
        const prog = await this.program(m, T);
        const r = await prog.run({ ...batchFeeds(m.vocab, { src: idx.map((k) => src[k]), tgt: idx.map((k) => tgt[k]) }, T), ...params });
        idx.forEach((k, b) => {
          out.src[k] = rows(r.us, b, src[k].length, T, d);
          out.tgt[k] = rows(r.ut, b, tgt[k].length, T, d);
        });
        checkCancelled(ctx.signal);
        ctx.progress({ done: (done += idx.length), total: src.length });
      },
    );
    return out;
  }

  async release(): Promise<void> {
    for (const p of this.programs.values()) await p.release();
    this.programs.clear();
  }
}
