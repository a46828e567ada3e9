// Word translation with a Bi-Sent2Vec model (seed 002's cross-lingual word retrieval): each
// source word's nearest target words over the word vectors (rows of V), up to `top` per word,
// best first, by CSLS (K = 10, as Conneau et al. 2018 and seed 002; the score is the CSLS value)
// or by plain cosine (seed 002's "NN" rows; the score is the cosine). Words are the model's
// vocabulary (seen at least minCount times in training, the maxVocab most frequent).
import { vocabularyTranslations } from '../../eval/csls.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import type { LexiconEntry } from '../bilstm/word-translations.ts';
import { wordVectors } from './embed.ts';
import type { Bisent2vecModel } from './cbow-train.ts';

export const LEXICON_CSLS_K = 10;

/** The lexicon's extractions, the default first. */
export const BISENT2VEC_EXTRACTIONS = ['csls', 'nn'] as const;
export type Bisent2vecExtraction = (typeof BISENT2VEC_EXTRACTIONS)[number];

export async function bisent2vecLexicon(
  model: Bisent2vecModel,
  top = 5,
  extraction: Bisent2vecExtraction = 'csls',
  ctx: JobContext = silentContext(),
): Promise<LexiconEntry[]> {
  const [srcWords, tgtWords] = model.index.vocab.words;
  const how = extraction === 'csls' ? { kind: 'csls' as const, K: LEXICON_CSLS_K } : { kind: 'nn' as const };
  const found = await vocabularyTranslations(wordVectors(model, 0), wordVectors(model, 1), model.config.dim, how, top, ctx);
  return found.flatMap((row, i) => row.map((t) => ({ src: srcWords[i], tgt: tgtWords[t.index], score: t.score })));
}
