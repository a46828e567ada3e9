// Contextual embeddings of pairs under a model whose parameters change between calls (a
// training run scored at each checkpoint): like align/neural/aligner.ts embedPairs, but
// each bucket's compiled encoder program is kept for the next call (parameters are fed
// at run time), so only the first checkpoint pays for compiling; `onBatch` reports pairs
// done, so a long re-alignment shows progress.
import type { PairEmbeddings } from '../align/neural/aligner.ts';
import { buildNetwork } from '../align/neural/network.ts';
import type { NeuralModel } from '../align/neural/train.ts';
import { batchFeeds, bucketOf } from '../align/neural/vocab.ts';
import { Program, type Tensor } from '../nn/index.ts';

const BATCH = 64;

function rows(t: Tensor, b: number, n: number, T: number, d: number): Float32Array {
  return (t.data as Float32Array).slice(b * T * d, (b * T + n) * d);
}

export class Embedder {
  private readonly programs = new Map<number, Program>();

  private async program(m: NeuralModel, T: number): Promise<Program> {
    let p = this.programs.get(T);
    if (!p) {
      const net = buildNetwork(T, m.dims, m.config);
      p = await Program.compile(net.graph, { us: net.us, ut: net.ut }, { device: 'cpu', threads: m.config.threads });
      this.programs.set(T, p);
    }
    return p;
  }

  /** Embeddings of every pair (both sides non-empty) under `m`'s current parameters. */
  async embed(m: NeuralModel, src: readonly string[][], tgt: readonly string[][], onBatch?: (done: number) => void): Promise<PairEmbeddings> {
    const d = m.dims.dim;
    const out: PairEmbeddings = { src: new Array(src.length), tgt: new Array(src.length), dim: d };
    const byBucket = new Map<number, number[]>();
    src.forEach((s, k) => {
      const T = bucketOf(Math.max(s.length, tgt[k].length));
      (byBucket.get(T) ?? byBucket.set(T, []).get(T)!).push(k);
    });
    const params = Object.fromEntries(m.params);
    let done = 0;
    for (const [T, ks] of [...byBucket].sort((a, b) => a[0] - b[0])) {
      const prog = await this.program(m, T);
      for (let i = 0; i < ks.length; i += BATCH) {
        const idx = ks.slice(i, i + BATCH);
        const r = await prog.run({ ...batchFeeds(m.vocab, { src: idx.map((k) => src[k]), tgt: idx.map((k) => tgt[k]) }, T), ...params });
        idx.forEach((k, b) => {
          out.src[k] = rows(r.us, b, src[k].length, T, d);
          out.tgt[k] = rows(r.ut, b, tgt[k].length, T, d);
        });
        onBatch?.((done += idx.length));
      }
    }
    return out;
  }

  async release(): Promise<void> {
    for (const p of this.programs.values()) await p.release();
    this.programs.clear();
  }
}
