// How many epochs the neural aligner trains by default, and when it self-trains; shared by the
// trainer (CLI, benchmarks) and the Models page's form, which proposes both for the project's
// size. Epochs scale to about 20,000 pair-passes (between 20 and 80 epochs) and self-training
// (models/bilstm/method.ts) is on up to SELF_TRAIN_MAX_PAIRS pairs, because on the Tatoeba
// corpora measured this gives a small corpus enough optimiser steps and puts the lexicon's P@1
// above the statistical aligner's, within issue 20's memory budget (docs/experiments.md).

const PAIR_PASSES = 20_000;
const MIN_EPOCHS = 20;
const MAX_EPOCHS = 80;

/** The default number of training epochs for a corpus of `pairs` sentence pairs. */
export function defaultEpochs(pairs: number): number {
  return Math.min(MAX_EPOCHS, Math.max(MIN_EPOCHS, Math.round(PAIR_PASSES / Math.max(1, pairs))));
}

const SELF_TRAIN_EPOCHS = 10;
export const SELF_TRAIN_MAX_PAIRS = 1_000;

const n = (x: number) => x.toLocaleString('en');
/** defaultEpochs in words, for help texts. */
export const DEFAULT_EPOCHS_RULE = `${MIN_EPOCHS}, more for fewer than ${n(PAIR_PASSES / MIN_EPOCHS)} pairs: ${n(PAIR_PASSES)} / pairs, at most ${MAX_EPOCHS}`;
/** defaultSelfTrainEpochs in words, for help texts. */
export const DEFAULT_SELF_TRAIN_RULE = `${SELF_TRAIN_EPOCHS} on corpora of up to ${n(SELF_TRAIN_MAX_PAIRS)} pairs, else 0`;

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
