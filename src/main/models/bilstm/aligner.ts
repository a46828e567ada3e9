// The neural aligner end to end: contextual embeddings of every pair from a trained model
// (embedder.ts); the pairs' eq. 17 similarities refined by EM with agreement over the corpus
// (agreement-em.ts; pairs with gold links count those); then the link decision: with gold
// links of pairs the model did not train on (`heldOut`), one learned from them
// (link-classifier.ts; scores are link probabilities), else each word's most probable
// partner in both directions, symmetrised (scores: the mean of the two posteriors).
//   extractLinks(src, tgt, embeddings, options) → links[k] (sorted by s, t; score = confidence)
// The EM lowers AER well below each pair's CSLS alone (seed 003's extraction), and the
// learned decision lowers it again wherever gold pairs are given (docs/experiments.md).
// Extraction of 5k random pairs of 15–35 words (one core, another
// two processes running): gdfa 12–13 s (the EM 11 of them), the learned decision 48–56 s (two
// EMs, the per-cell features).
import { DEFAULT_SYM } from '../../../shared/aligner-defaults.ts';
import type { Link } from '../../../shared/domain.ts';
import { symmetriser } from '../../align/symmetrise.ts';
import { cosines, csls, PAIR_CSLS_K } from '../../eval/csls.ts';
import {
  cellsAbove,
  fitLinkClassifier,
  type LinkClassifier,
  linkProbabilities,
  type PairPosteriors,
  type PairSignals,
} from './link-classifier.ts';
import { AgreementEm } from './agreement-em.ts';
import { checkCancelled, type JobContext, silentContext, withMessage } from '../../jobs/job-context.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { GoldStats } from './gold-stats.ts';
import { Embedder, type PairEmbeddings } from './embedder.ts';
import type { NeuralModel } from './bilstm-train.ts';
import type { CorpusLinks } from '../../../shared/link-set.ts';

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
  const fwd = new Uint8Array(I * J),
    rev = new Uint8Array(I * J),
    mean = new Float32Array(I * J);
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
  /** symmetrisation heuristic (symmetrise.ts), default DEFAULT_SYM */
  sym?: string;
  /** known gold links per pair, counted by the EM */
  gold?: CorpusLinks;
  /** gold links of pairs the model did not train on: with at least MIN_HELD_OUT_LINKS of
   *  them, the link decision is learned from them (link-classifier.ts) instead of `sym` */
  heldOut?: CorpusLinks;
  /** a link decision learned earlier (a saved model's): used instead of learning one from `heldOut` */
  decision?: LinkClassifier;
  /** a bilingual dictionary, a prior of the extraction's EM (agreement-em.ts) */
  dictionary?: readonly DictEntry[];
  /** progress of each phase, its message naming it (EM passes, pairs linked), and cancel; default silent */
  ctx?: JobContext;
}

/** How often (in pairs) extraction reports progress. */
const PROGRESS_EVERY = 64;

/** Fewer held-out gold links than this leave the decision to the symmetrisation heuristic. */
export const MIN_HELD_OUT_LINKS = 100;

const gdfa = symmetriser('gdfa');

/** Pair k's signals for the link decision under the EM's tables. */
function pairSignals(
  src: readonly string[][],
  tgt: readonly string[][],
  e: PairEmbeddings,
  em: AgreementEm,
  stats: GoldStats,
  k: number,
): PairSignals | null {
  const p = em.posteriors(k);
  if (!p) return null;
  const dir = directional(p);
  return {
    ...p,
    ...dir,
    stats,
    src: src[k],
    tgt: tgt[k],
    gdfa: gdfa({ I: p.I, J: p.J, ...dir }),
    csls: csls(cosines(e.src[k], e.tgt[k], e.dim), p.I, p.J, PAIR_CSLS_K),
  };
}

/** The link decision learned on the held-out pairs, their signals from an EM that does not count their links. */
export function learnLinkDecision(
  src: readonly string[][],
  tgt: readonly string[][],
  e: PairEmbeddings,
  o: ExtractOptions,
): LinkClassifier | null {
  const held = (o.heldOut ?? []).flatMap((ls, k) => (ls?.length && e.src[k].length && e.tgt[k].length ? [k] : []));
  if (held.reduce((n, k) => n + o.heldOut![k]!.length, 0) < MIN_HELD_OUT_LINKS) return null;
  const em = new AgreementEm(src, tgt, e, {
    gold: o.gold,
    dictionary: o.dictionary,
    ctx: withMessage(o.ctx ?? silentContext(), 'EM without the held-out gold'),
  });
  const stats = new GoldStats(src, tgt, o.gold ?? []);
  return fitLinkClassifier(
    held.map((k) => pairSignals(src, tgt, e, em, stats, k)!),
    held.map((k) => o.heldOut![k]),
  );
}

/** Links of every pair (tokens and their embeddings); scores are link probabilities under a
 *  learned decision, else the mean of the two directional posteriors. */
export function extractLinks(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, o: ExtractOptions = {}): Link[][] {
  const keep = symmetriser(o.sym ?? DEFAULT_SYM);
  const decision = o.decision ?? learnLinkDecision(src, tgt, e, o);
  const known = o.heldOut ? e.src.map((_, k) => (o.gold?.[k]?.length ? o.gold[k] : o.heldOut![k])) : o.gold;
  const ctx = o.ctx ?? silentContext();
  const em = new AgreementEm(src, tgt, e, { gold: known, dictionary: o.dictionary, ctx: withMessage(ctx, 'EM') });
  const stats = decision ? new GoldStats(src, tgt, known ?? []) : null;
  return e.src.map((_, k) => {
    if (k % PROGRESS_EVERY === 0) {
      checkCancelled(ctx.signal);
      ctx.progress({ done: k, total: e.src.length, message: 'linking' });
    }
    if (decision && stats) {
      const p = pairSignals(src, tgt, e, em, stats, k);
      if (!p) return [];
      const prob = linkProbabilities(decision, p);
      return cellsAbove(prob, p.J, decision.threshold).map(([s, t]): Link => ({ s, t, kind: 'sure', score: prob[s * p.J + t] }));
    }
    const p = em.posteriors(k);
    if (!p) return [];
    const dir = directional(p);
    const links: Link[] = [];
    keep({ I: p.I, J: p.J, ...dir }).forEach(
      (on, x) => on && links.push({ s: Math.floor(x / p.J), t: x % p.J, kind: 'sure', score: dir.mean[x] }),
    );
    return links;
  });
}

export interface NeuralAlignResult {
  links: Link[][];
  model: NeuralModel;
  embeddings: PairEmbeddings;
}
