// Which gold pairs are held out of training — the one rule of the CLI and the Models page
// (method.ts, train/project-data.ts, train/realign-job.ts): the model never sees their
// links, so its signals on them are what it will show on new pairs; their gold scores the
// checkpoints and teaches the link decision (aligner.ts, link-classifier.ts). A module of its
// own, without the training stack, so that the CLI's help text can name the figures without
// loading onnxruntime.
import type { CorpusLinks } from '../../../shared/link-set.ts';

/** A quarter of the gold pairs teach the link decision (aligner.ts) rather than the model, once there are MIN_GOLD_PAIRS_TO_HOLD_OUT. */
export const HELD_OUT_SHARE = 0.25;
export const MIN_GOLD_PAIRS_TO_HOLD_OUT = 40;

/**
 * Which pairs' gold is held out of training: where the corpus has splits (a project's) and
 * marks any pair with gold dev or test, the dev and test pairs with gold; otherwise an evenly
 * spread `share` of the pairs with gold, none below MIN_GOLD_PAIRS_TO_HOLD_OUT.
 */
export function heldOutPairs(gold: CorpusLinks | undefined, share: number, split?: readonly string[]): boolean[] {
  const withGold = (gold ?? []).flatMap((g, k) => (g?.length ? [k] : []));
  const held = new Array<boolean>(gold?.length ?? 0).fill(false);
  if (split && withGold.some((k) => split[k] !== 'train')) {
    for (const k of withGold) held[k] = split[k] !== 'train';
    return held;
  }
  if (withGold.length < MIN_GOLD_PAIRS_TO_HOLD_OUT) return held;
  withGold.forEach((k, n) => (held[k] = Math.floor((n + 1) * share) > Math.floor(n * share)));
  return held;
}
