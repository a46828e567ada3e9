// A word-translation lexicon from the neural aligner: each source word's co-occurring target
// words scored t(t | s)·√t(s | t)·√p(t | s), the first two the tables of EM with agreement
// over the model's per-pair similarities (agreement-em.ts), the third the statistical
// aligner's (agree, align/: IBM-1 and HMM in agreement) forward table on the same pairs, best
// first. The two err differently (the statistical tables read word order and are sure of
// rare words a single pair decides; the model's similarities know words by their context
// and subwords). On the twelve Tatoeba cells (vi, id, th, zh × 250 / 500 / 1,000 pairs,
// seeds 1–3) the product is above agree on every seed in 10 (the neural tables alone: 5);
// zh at 1,000 pairs stays below and th at 250 ties on one seed (all cells, the power ½ and
// other ways of joining the two: docs/experiments.md).
// The square root of t(s | t): the full product t(t|s)·t(s|t) marks down frequent target
// words that other source words share ("but" for 但是), t(t|s) alone marks down nothing;
// the square root scores best of the three on all four Tatoeba languages (docs/experiments.md).
import type { PairEmbeddings } from './embedder.ts';
import { AgreementEm } from './agreement-em.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { alignCorpus } from '../../align/engine.ts';

/** The power of the statistical aligner's p(t | s) in the score (0: the neural tables alone). */
export const STATISTICAL_WEIGHT = 0.5;
/** The statistical aligner whose forward table joins the score. */
const STATISTICAL_METHOD = 'agree';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

/**
 * Up to `top` translations per source word, best first; a dictionary, if given, is a prior of
 * both EMs (the neural tables' and the statistical aligner's).
 */
export async function neuralLexicon(
  src: readonly string[][],
  tgt: readonly string[][],
  e: PairEmbeddings,
  top = 5,
  dictionary?: readonly DictEntry[],
  statisticalWeight = STATISTICAL_WEIGHT,
): Promise<LexiconEntry[]> {
  const em = new AgreementEm(src, tgt, e, { dictionary });
  const statistical =
    statisticalWeight > 0
      ? {
          model: (await alignCorpus(src, tgt, { method: STATISTICAL_METHOD, dictionary: dictionary && [...dictionary] })).model,
          weight: statisticalWeight,
        }
      : undefined;
  return em.translations(statistical).flatMap((w) =>
    w.tgt
      .sort((a, b) => b.score - a.score)
      .slice(0, top)
      .map((t) => ({ src: w.src, tgt: t.word, score: t.score })),
  );
}
