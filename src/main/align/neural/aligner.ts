// The neural aligner end to end: contextual embeddings of every pair from a trained model
// (one compiled encoder graph per bucket length), each pair aligned by CSLS (csls.ts) in
// both directions and symmetrised; and a word-translation lexicon from type embeddings.
//   alignNeural(src, tgt, config?, hooks?) → { links[k] (sorted by s, t; score = confidence), model }
import type { Link } from '../../../shared/domain.ts';
import { Program, type Tensor } from '../../nn/index.ts';
import { symmetriser } from '../symmetrise.ts';
import { bestPartners, cosines, csls } from './csls.ts';
import { buildNetwork } from './network.ts';
import { type NeuralConfig, type NeuralModel, type TrainData, type TrainHooks, trainNeural } from './train.ts';
import { batchFeeds, bucketOf } from './vocab.ts';

export const CSLS_K = 3;
const EMBED_BATCH = 64;

export interface PairEmbeddings {
  /** per pair, L2-normalised rows [I·D] and [J·D] */
  src: Float32Array[];
  tgt: Float32Array[];
  dim: number;
}

function rows(t: Tensor, b: number, n: number, T: number, d: number): Float32Array {
  return (t.data as Float32Array).slice(b * T * d, (b * T + n) * d);
}

/** Contextual embeddings of every pair under a trained model. */
export async function embedPairs(m: NeuralModel, src: readonly string[][], tgt: readonly string[][]): Promise<PairEmbeddings> {
  const d = m.dims.dim;
  const out: PairEmbeddings = { src: new Array(src.length), tgt: new Array(src.length), dim: d };
  const byBucket = new Map<number, number[]>();
  src.forEach((s, k) => {
    const T = bucketOf(Math.max(s.length, tgt[k].length));
    (byBucket.get(T) ?? byBucket.set(T, []).get(T)!).push(k);
  });
  const params = Object.fromEntries(m.params);
  for (const [T, ks] of byBucket) {
    const net = buildNetwork(T, m.dims, m.config);
    const prog = await Program.compile(net.graph, { us: net.us, ut: net.ut }, { device: 'cpu', threads: m.config.threads });
    for (let i = 0; i < ks.length; i += EMBED_BATCH) {
      const idx = ks.slice(i, i + EMBED_BATCH);
      const feeds = batchFeeds(m.vocab, { src: idx.map((k) => src[k]), tgt: idx.map((k) => tgt[k]) }, T);
      const r = await prog.run({ ...feeds, ...params });
      idx.forEach((k, b) => {
        out.src[k] = rows(r.us, b, src[k].length, T, d);
        out.tgt[k] = rows(r.ut, b, tgt[k].length, T, d);
      });
    }
    await prog.release();
  }
  return out;
}

/** Eq. 17 per pair, symmetrised with `sym`; scores are the cell confidences. */
export function extractLinks(e: PairEmbeddings, sym = 'gdfa', K = CSLS_K): Link[][] {
  const h = symmetriser(sym);
  return e.src.map((x, k) => {
    const I = x.length / e.dim, J = e.tgt[k].length / e.dim;
    if (!I || !J) return [];
    const dir = bestPartners(csls(cosines(x, e.tgt[k], e.dim), I, J, K), I, J);
    const keep = h({ I, J, ...dir });
    const links: Link[] = [];
    for (let i = 0; i < I; i++) for (let j = 0; j < J; j++) if (keep[i * J + j]) links.push({ s: i, t: j, kind: 'sure', score: dir.mean[i * J + j] });
    return links;
  });
}

export interface NeuralAlignResult {
  links: Link[][];
  model: NeuralModel;
  embeddings: PairEmbeddings;
}

export async function alignNeural(data: TrainData, config: Partial<NeuralConfig> = {}, hooks: TrainHooks & { sym?: string } = {}): Promise<NeuralAlignResult> {
  const model = await trainNeural(data, config, hooks);
  const embeddings = await embedPairs(model, data.src, data.tgt);
  return { links: extractLinks(embeddings, hooks.sym), model, embeddings };
}
