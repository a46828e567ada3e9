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
// On one trained model per language (product score), τ 0.8 gave 0.601/0.676/0.617/0.657,
// τ 0.4 0.606/—/—/0.649, τ 0.5 —/0.679/0.592/—, τ 1.2–2 no better; the same EM with uniform
// priors (no neural model: IBM-1 with agreement) 0.570/0.617/0.592/0.617, so the priors carry
// the gain. Also tried here: adding the old score (lower), τ 0.05–0.2 (lower), a null word
// (lower), 20 passes (no better), EM in one direction without agreement (th 0.52–0.58).
// Tried for the old lexicon and not kept: type vectors alone (0.41/0.49/0.43/0.43), static
// eq. 10 vectors, counts of gdfa or competitive-linking links, decoder attention as counts,
// self-training on the model's own links ≥ 0.9 (th 0.562 → 0.569 → 0.557), 60 epochs (th
// 0.571), three seeds' scores summed (th 0.580), agree's links ≥ 0.9 as seed-000
// pseudo-labels (0.604/0.660/0.631 on vi/id/zh; with this lexicon zh 0.639, vi 0.590).
// Tried for this lexicon on Chinese (one model): an HMM jump model in the EM (0.634–0.646,
// but the aligner's AER much worse: zh-en 0.41 → 0.51), priors flattened for rare words
// (≤ 0.625), uniform priors for the first passes (no change), two seeds' embeddings
// concatenated (0.620 vs 0.617 / 0.625 alone), 30 epochs (0.623), and the other way round,
// the CSLS priors as emission factors in the agree aligner's own EM (zh 0.606–0.632 vs its
// 0.662 alone): on Chinese the model's similarities mislead more than they add. Also tried,
// on one cached model per language (vi/id/zh/th 0.617/0.679/0.629/0.658): that HMM with its
// jumps flattened (weight^p, 5 passes after the others), p 0.15/0.3/0.45/0.6: zh 0.637/0.643/
// 0.650/0.651 but th 0.657/0.651/0.642/0.641, id 0.688/0.688/0.677/0.673, vi 0.612–0.617;
// one dual step of bijectivity posterior regularisation per pair (as agree's HMM has, against
// rare words collecting links), η 0.5/1: zh 0.621/0.629, th 0.657/0.653, vi 0.625/0.622;
// the priors mixed with a uniform floor, (1 − α)·softmax + α/n, α 0.1/0.2/0.4: zh 0.631/
// 0.629/0.629, th 0.655/0.657/0.646, vi 0.606–0.604, id 0.678–0.676 (none of them helps).
import type { PairEmbeddings } from './embedder.ts';
import { AgreementEm } from './agreement-em.ts';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

export function neuralLexicon(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, top = 5): LexiconEntry[] {
  return new AgreementEm(src, tgt, e).translations().flatMap((w) =>
    w.tgt.sort((a, b) => b.score - a.score).slice(0, top).map((t) => ({ src: w.src, tgt: t.word, score: t.score })));
}
