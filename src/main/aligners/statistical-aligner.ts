// The statistical family's aligner for `mekong align` and `mekong lexicon`: IBM1/IBM2/HMM/agree
// (align/engine.ts) trained on the text, or a saved model (--model) aligning it; --dict is a
// prior of EM, --threshold the posterior threshold of --sym post, --by-character aligns a
// Chinese side by character with the links mapped back to words (align/by-character.ts).
// The lexicon is p(t | s) of the trained forward table, up to PER_WORD per source word.
import { alignCorpusByCharacter } from '../align/by-character.ts';
import { alignCorpus, alignCorpusStreamed } from '../align/engine.ts';
import type { SavedModel } from '../align/statistical-model.ts';
import type { LexiconEntry } from '../models/bilstm/word-translations.ts';
import { cliDictionary, PER_WORD, type TextAlignerFactory } from './text-aligner.ts';

function statLexicon(m: SavedModel): LexiconEntry[] {
  const byWord = new Map<number, LexiconEntry[]>();
  for (let p = 0; p < m.pairSrc.length; p++) {
    const e = { src: m.srcVocab[m.pairSrc[p]], tgt: m.tgtVocab[m.pairTgt[p]], score: m.fwd.lex.t[p] };
    (byWord.get(m.pairSrc[p]) ?? byWord.set(m.pairSrc[p], []).get(m.pairSrc[p])!).push(e);
  }
  return [...byWord.values()].flatMap((es) => es.sort((a, b) => b.score - a.score).slice(0, PER_WORD));
}

export const statisticalAligner: TextAlignerFactory = (method) => ({
  async align(src, tgt, o, display) {
    // the folder code (ONNX serialiser, onnxruntime's Tensor) only for a run that loads or saves a model
    const folders = o.model || o.saveModel ? await import('../align/saved-model.ts') : undefined;
    const model = o.model ? folders!.loadModel(o.model) : undefined;
    const lowercase = model ? model.lowercase : (o.lowercase ?? false);
    const dictionary = cliDictionary(o, lowercase);
    const threshold = o.threshold === undefined ? undefined : Number(o.threshold);
    const options = { method, sym: o.sym, threshold, lowercase, dictionary, model, keepModel: Boolean(o.saveModel) };
    const r = await display(`aligning (${method})`, (ctx) =>
      o.byCharacter ? alignCorpusByCharacter(src, tgt, o.byCharacter, options, { ctx }) : alignCorpusStreamed(src, tgt, options, { ctx }),
    );
    if (o.saveModel) folders!.saveModel(o.saveModel, r.model!);
    return r.links;
  },
  async lexicon(src, tgt, o) {
    const dictionary = cliDictionary(o, o.lowercase ?? false);
    return statLexicon((await alignCorpus(src, tgt, { method, dictionary })).model);
  },
});
