// The Bi-Sent2Vec family's aligner for `mekong lexicon` (seed 002's bilingual CBOW,
// models/bisent2vec/): --epochs; the lexicon is CSLS of the word vectors
// (models/bisent2vec/csls-lexicon.ts). It learns no word links: `align` is refused by the registry
// (sentence scores and mining: `mekong mine`).
import { availableParallelism } from 'node:os';
import { toArrays } from '../align/sentences.ts';
import { bisent2vecLexicon } from '../models/bisent2vec/csls-lexicon.ts';
import { trainBisent2vec } from '../models/bisent2vec/parallel-train.ts';
import { epochsOption, PER_WORD, type TextAlignerFactory } from './text-aligner.ts';

export const bisent2vecAligner: TextAlignerFactory = () => ({
  async lexicon(src, tgt, o, display) {
    const epochs = epochsOption(o.epochs);
    const { model } = await display('training (bisent2vec)', (ctx) =>
      trainBisent2vec(toArrays(src), toArrays(tgt), epochs ? { epochs } : {}, { ctx, threads: availableParallelism() }),
    );
    return bisent2vecLexicon(model, PER_WORD);
  },
});
