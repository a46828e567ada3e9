// Word translation with a Bi-Sent2Vec model (seed 002's cross-lingual word retrieval): each
// source word's nearest target words by CSLS (K = 10, as Conneau et al. 2018 and seed 002)
// over the word vectors (rows of V), up to `top` per word, best first; the score is the CSLS
// value. Words are the model's vocabulary (seen at least minCount times in training).
import { cslsTranslations } from '../../eval/csls.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import type { LexiconEntry } from '../bilstm/word-translations.ts';
import { wordVectors } from './embed.ts';
import type { Bisent2vecModel } from './cbow-train.ts';

export const LEXICON_CSLS_K = 10;

export function bisent2vecLexicon(model: Bisent2vecModel, top = 5, ctx: JobContext = silentContext()): LexiconEntry[] {
  const [srcWords, tgtWords] = model.index.vocab.words;
  const found = cslsTranslations(wordVectors(model, 0), wordVectors(model, 1), model.config.dim, LEXICON_CSLS_K, top, ctx);
  return found.flatMap((row, i) => row.map((t) => ({ src: srcWords[i], tgt: tgtWords[t.index], score: t.score })));
}
