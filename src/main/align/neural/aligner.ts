// The neural aligner end to end: contextual embeddings of every pair from a trained model
// (embedder.ts), each pair aligned by CSLS (csls.ts) in both directions and symmetrised.
//   alignNeural(src, tgt, config?, hooks?) → { links[k] (sorted by s, t; score = confidence), model }
import type { Link } from '../../../shared/domain.ts';
import { symmetriser } from '../symmetrise.ts';
import { bestPartners, cosines, csls } from './csls.ts';
import { Embedder, type PairEmbeddings } from './embedder.ts';
import { type NeuralConfig, type NeuralModel, type TrainData, type TrainHooks, trainNeural } from './train.ts';

export type { PairEmbeddings } from './embedder.ts';

export const CSLS_K = 3;

/** Contextual embeddings of every pair under a trained model. */
export async function embedPairs(m: NeuralModel, src: readonly string[][], tgt: readonly string[][]): Promise<PairEmbeddings> {
  const e = new Embedder();
  try {
    return await e.embed(m, src, tgt);
  } finally {
    await e.release();
  }
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

/** Trains (from scratch, or continuing `start`: train.ts) and aligns the training pairs. */
export async function alignNeural(
  data: TrainData, config: Partial<NeuralConfig> = {}, hooks: TrainHooks & { sym?: string } = {}, start?: NeuralModel,
): Promise<NeuralAlignResult> {
  const model = await trainNeural(data, config, hooks, start);
  const embeddings = await embedPairs(model, data.src, data.tgt);
  return { links: extractLinks(embeddings, hooks.sym), model, embeddings };
}
