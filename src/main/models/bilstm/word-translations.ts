// A word-translation lexicon from the neural aligner: each source word's co-occurring target
// words scored t(t | s)·√t(s | t), the tables of EM with agreement over the model's per-pair
// similarities (agreement-em.ts), best first. The square root: the full product t(t|s)·t(s|t)
// marks down frequent target words that other source words share ("but" for 但是), t(t|s)
// alone marks down nothing; on one model per language vi/id/zh/th P@1 0.608/0.679/0.628/0.658
// against 0.601/0.676/0.617/0.657 (product) and 0.600/0.664/0.623/0.639 (t(t|s) alone).
// Measured (Tatoeba x→en, MUSE, 20 epochs; vi/id/zh/th P@1), `npm run bench -- neural`:
// over seeds 1–3 (`--seeds 1,2,3`) 0.607 ± 0.005 / 0.683 ± 0.004 / 0.624 ± 0.007 / 0.645 ±
// 0.015 (th per seed 0.658/0.648/0.628); seed 1 alone
// 0.609/0.683/0.621/0.660 with word dropout (train.ts) and this score; 0.603/0.674/0.614/0.651
// with the product score; the statistical aligner (agree) 0.604/0.677/0.662/0.642; the
// previous lexicon (summed cell confidences / count + type-vector CSLS) 0.544/0.638/0.564/0.560.
import type { PairEmbeddings } from './embedder.ts';
import { AgreementEm } from './agreement-em.ts';
import type { DictEntry } from '../../align/dictionary.ts';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

/** Up to `top` translations per source word, best first; a dictionary, if given, is a prior of the EM. */
export function neuralLexicon(
  src: readonly string[][],
  tgt: readonly string[][],
  e: PairEmbeddings,
  top = 5,
  dictionary?: readonly DictEntry[],
): LexiconEntry[] {
  return new AgreementEm(src, tgt, e, { dictionary }).translations().flatMap((w) =>
    w.tgt
      .sort((a, b) => b.score - a.score)
      .slice(0, top)
      .map((t) => ({ src: w.src, tgt: t.word, score: t.score })),
  );
}
