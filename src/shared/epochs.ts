// How many epochs the neural aligner trains by default: enough optimiser steps on a small
// corpus. Twenty epochs (seed 003's setting for its larger corpora) are about 600 steps on
// 1,000 pairs but 160 on 250, too few; seed 003 trains its smallest corpora 200 epochs.
// Scaling the epochs to about 20,000 pair-passes (20 on 1,000 pairs and more, 40 on 500,
// 80 on 250 and fewer) raised Tatoeba x→en P@1 on 250 pairs in every language and on 500 in
// three of four (`npm run bench -- neural --pairs 250,500 --seeds 1,2`, means): 250 pairs, 20 →
// 80 epochs: vi 0.477 → 0.504, id 0.682 → 0.695, zh 0.533 → 0.539, th 0.604 → 0.617; 500
// pairs, 20 → 40: vi 0.573 → 0.581, id 0.679 → 0.687, zh 0.600 → 0.605, th 0.649 → 0.643; th
// 548 pairs, 20 → 36: 0.655 → 0.648.
// Self-training (models/bilstm/method.ts: the trained model aligns the corpus, then trains
// SELF_TRAIN_EPOCHS more epochs on its own links at or above the threshold) is on by default
// for corpora of up to SELF_TRAIN_MAX_PAIRS pairs, the regime where the neural aligner must
// beat the statistical one with the least data. Tatoeba x→en P@1 of `mekong lexicon`'s
// lexicon, mean ± sd over seeds 1–3, without → with (agree): zh 250 / 500 / 1,000 pairs
// 0.550 / 0.615 / 0.647 → 0.563 / 0.628 / 0.672 (0.527 / 0.586 / 0.662); th 250 / 500 / 548
// 0.638 / 0.659 / 0.655 → 0.644 / 0.660 / 0.657 (0.630 / 0.648 / 0.642); vi 250 / 500 /
// 1,000 0.541 / 0.571 / 0.614 → 0.537 / 0.576 / 0.622 (0.523 / 0.547 / 0.604); id 0.692 /
// 0.679 / 0.693 → 0.689 / 0.681 / 0.694 (0.649 / 0.661 / 0.677). With it every seed of all
// twelve corpora is above agree, and so is mean − sd; without it zh 1,000 is below and th 250
// ties on one seed (`npm run bench -- neural --p1 vie,ind,tha,cmn --pairs 250,500 --seeds
// 1,2,3`). It about doubles the training time (zh 1,000 pairs: 66–74 s, then 137–140 s).
// 1,000 pairs is the largest corpus it was measured on, and above it the memory grows past
// issue 20's budget: `mekong lexicon` on 1,500 uniq39k de–en pairs peaked at 1.27 GB with it
// (`/usr/bin/time -v node bin/mekong.js lexicon --src 1500.de --tgt 1500.en --out L`; ≤ 1 GB
// is the target at that size), so larger corpora keep it off.
// Shared by the trainer (CLI, benchmarks) and the Models page's form, which proposes both for
// the project's size.

const PAIR_PASSES = 20_000;
const MIN_EPOCHS = 20;
const MAX_EPOCHS = 80;

/** The default number of training epochs for a corpus of `pairs` sentence pairs. */
export function defaultEpochs(pairs: number): number {
  return Math.min(MAX_EPOCHS, Math.max(MIN_EPOCHS, Math.round(PAIR_PASSES / Math.max(1, pairs))));
}

const SELF_TRAIN_EPOCHS = 10;
export const SELF_TRAIN_MAX_PAIRS = 1_000;

/** How a run is already supervised beyond its gold: pseudo-labels from an alignment, or the checkpoint it continues from. */
export interface Supervision {
  pseudoLabels?: boolean;
  continued?: boolean;
}

/**
 * The default number of self-training epochs after the training on a corpus of `pairs` pairs
 * (0: none). None when pseudo-labels or a checkpoint to continue from already say how the run is
 * supervised: self-training on top of either was not measured.
 */
export function defaultSelfTrainEpochs(pairs: number, supervision: Supervision = {}): number {
  if (supervision.pseudoLabels || supervision.continued) return 0;
  return pairs <= SELF_TRAIN_MAX_PAIRS ? SELF_TRAIN_EPOCHS : 0;
}
