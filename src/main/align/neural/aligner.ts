// The neural aligner end to end: contextual embeddings of every pair from a trained model
// (embedder.ts); the pairs' eq. 17 similarities refined by EM with agreement over the corpus
// (agreement-em.ts; pairs with gold links count those); in each pair, each word's most
// probable partner in both directions, symmetrised, scored by the mean of the two
// directional posteriors.
//   alignNeural(src, tgt, config?, hooks?) → { links[k] (sorted by s, t; score = confidence), model }
// AER, gdfa, 40 epochs (`npm run bench -- neural --sets ro-en,zh-en --loop 50,100,200`):
// unsupervised, ro-en 248 pairs 0.511 with each pair's CSLS alone (seed 003's extraction) →
// 0.438 with the EM, zh-en 450 pairs 0.557 → 0.409. With the gold of the first 50/100/200
// ro-en pairs, AER on the others: 0.405/0.382/0.325 (the unsupervised model: 0.424/0.415/
// 0.390). On the model trained with 200 gold pairs (`.exp` run): per-pair CSLS 0.319, the
// EM without counting the gold 0.357, counting it 0.328. τ 0.3/0.5 (unsupervised ro-en):
// 0.442/0.437 vs 0.440 at 0.8; links where √(g·h) ≥ 0.4 instead of gdfa: 0.473.
import type { Link } from '../../../shared/domain.ts';
import { symmetriser } from '../symmetrise.ts';
import { AgreementEm, type PairPosteriors } from './agreement-em.ts';
import { Embedder, type PairEmbeddings } from './embedder.ts';
import { type NeuralConfig, type NeuralModel, type TrainData, type TrainHooks, trainNeural } from './train.ts';
import type { PairLinks } from './vocab.ts';

export type { PairEmbeddings } from './embedder.ts';

/** Contextual embeddings of every pair under a trained model. */
export async function embedPairs(m: NeuralModel, src: readonly string[][], tgt: readonly string[][]): Promise<PairEmbeddings> {
  const e = new Embedder();
  try {
    return await e.embed(m, src, tgt);
  } finally {
    await e.release();
  }
}

/** Each word's most probable partner in both directions, and the mean posterior per cell. */
function directional({ I, J, g, h }: PairPosteriors): { fwd: Uint8Array; rev: Uint8Array; mean: Float32Array } {
  const fwd = new Uint8Array(I * J), rev = new Uint8Array(I * J), mean = new Float32Array(I * J);
  for (let i = 0; i < I; i++) {
    let best = 0;
    for (let j = 1; j < J; j++) if (h[i * J + j] > h[i * J + best]) best = j;
    fwd[i * J + best] = 1;
  }
  for (let j = 0; j < J; j++) {
    let best = 0;
    for (let i = 1; i < I; i++) if (g[i * J + j] > g[best * J + j]) best = i;
    rev[best * J + j] = 1;
  }
  for (let x = 0; x < I * J; x++) mean[x] = (g[x] + h[x]) / 2;
  return { fwd, rev, mean };
}

export interface ExtractOptions {
  /** symmetrisation heuristic (symmetrise.ts), default gdfa */
  sym?: string;
  /** known gold links per pair, counted by the EM */
  gold?: readonly PairLinks[];
}

/** Links of every pair (tokens and their embeddings); scores are the cell confidences. */
export function extractLinks(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, o: ExtractOptions = {}): Link[][] {
  const keep = symmetriser(o.sym ?? 'gdfa');
  const em = new AgreementEm(src, tgt, e, o.gold);
  return e.src.map((_, k) => {
    const p = em.posteriors(k);
    if (!p) return [];
    const dir = directional(p);
    const on = keep({ I: p.I, J: p.J, ...dir });
    const links: Link[] = [];
    for (let x = 0; x < on.length; x++) if (on[x]) links.push({ s: Math.floor(x / p.J), t: x % p.J, kind: 'sure', score: dir.mean[x] });
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
  data: TrainData, config: Partial<NeuralConfig> = {}, hooks: TrainHooks & ExtractOptions = {}, start?: NeuralModel,
): Promise<NeuralAlignResult> {
  const model = await trainNeural(data, config, hooks, start);
  const embeddings = await embedPairs(model, data.src, data.tgt);
  return { links: extractLinks(data.src, data.tgt, embeddings, hooks), model, embeddings };
}
