// The Bi-Sent2Vec family's aligner for `mekong lexicon` (seed 002's bilingual CBOW,
// models/bisent2vec/): --epochs; the lexicon is CSLS (default) or the plain nearest neighbour
// (--extraction nn) of the word vectors (models/bisent2vec/csls-lexicon.ts). It learns no word links: `align` is refused by the registry
// (sentence scores and mining: `mekong mine`).
import { availableParallelism } from 'node:os';
import { toArrays } from '../align/sentences.ts';
import { BISENT2VEC_EXTRACTIONS, bisent2vecLexicon } from '../models/bisent2vec/csls-lexicon.ts';
import { trainBisent2vec } from '../models/bisent2vec/parallel-train.ts';
import { epochsOption, extractionOption, PER_WORD, type TextAlignerFactory } from './text-aligner.ts';

export const bisent2vecAligner: TextAlignerFactory = (method) => ({
  async lexicon(src, tgt, o, display) {
    const extraction = extractionOption(o.extraction, method, BISENT2VEC_EXTRACTIONS);
    const epochs = epochsOption(o.epochs);
    const { model } = await display('training (bisent2vec)', (ctx) =>
      trainBisent2vec(toArrays(src), toArrays(tgt), epochs ? { epochs } : {}, { ctx, threads: availableParallelism() }),
    );
    return display('word translations', (ctx) => bisent2vecLexicon(model, PER_WORD, extraction, ctx));
  },
});
