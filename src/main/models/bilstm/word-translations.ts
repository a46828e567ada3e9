// A word-translation lexicon from the neural aligner, read off the trained model one of three
// ways (`mekong lexicon --extraction`):
//   em    (the default) each source word's co-occurring target words scored t(t | s)·√t(s | t)·√p(t | s), the first two the tables of EM with agreement
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
//   csls  seed 003's P@1 extraction: each source word's nearest words of the whole target
//         vocabulary by CSLS with K = 3 (eq. 17), co-occurring or not;
//   nn    the same by plain cosine.
// For csls and nn a word's vector is its contextual vectors averaged over all its occurrences
// in the corpus (the token vectors the aligner extracts with, embedder.ts: the encoder state
// with the eq. 10 embedding beside it), made unit length. Seed 003 does not say how it gets one
// vector per word from its contextual model; the average keeps eq. 17 on the vectors its
// alignment compares.
import type { PairEmbeddings } from './embedder.ts';
import { AgreementEm } from './agreement-em.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { alignCorpus } from '../../align/engine.ts';
import { unitRows, vocabularyTranslations } from '../../eval/csls.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';

/** The lexicon's extractions, the default first. */
export const BILSTM_EXTRACTIONS = ['em', 'csls', 'nn'] as const;
export type BilstmExtraction = (typeof BILSTM_EXTRACTIONS)[number];

/** K of the CSLS neighbourhoods over the vocabularies (seed 003 §IV.C). */
export const VOCABULARY_CSLS_K = 3;

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

/** One side's word types, in order of first occurrence, with their contextual vectors [words, dim] averaged over every occurrence and made unit length. */
export function typeVectors(
  sentences: readonly string[][],
  rows: readonly Float32Array[],
  dim: number,
): { words: string[]; vectors: Float32Array } {
  const id = new Map<string, number>();
  for (const s of sentences) for (const w of s) if (!id.has(w)) id.set(w, id.size);
  const vectors = new Float32Array(id.size * dim);
  sentences.forEach((s, k) =>
    s.forEach((w, p) => {
      const at = id.get(w)! * dim;
      for (let t = 0; t < dim; t++) vectors[at + t] += rows[k][p * dim + t];
    }),
  );
  return { words: [...id.keys()], vectors: unitRows(vectors, dim) };
}

/** Up to `top` translations per source word from the whole target vocabulary, by CSLS (K = VOCABULARY_CSLS_K) or by cosine, best first. */
export async function vocabularyLexicon(
  src: readonly string[][],
  tgt: readonly string[][],
  e: PairEmbeddings,
  extraction: Exclude<BilstmExtraction, 'em'>,
  top = 5,
  ctx: JobContext = silentContext(),
): Promise<LexiconEntry[]> {
  const x = typeVectors(src, e.src, e.dim),
    y = typeVectors(tgt, e.tgt, e.dim);
  const how = extraction === 'csls' ? { kind: 'csls' as const, K: VOCABULARY_CSLS_K } : { kind: 'nn' as const };
  return (await vocabularyTranslations(x.vectors, y.vectors, e.dim, how, top, ctx)).flatMap((row, i) =>
    row.map((t) => ({ src: x.words[i], tgt: y.words[t.index], score: t.score })),
  );
}
