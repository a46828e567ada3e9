// Which gold pairs the neural aligner holds out of training to learn its link decision from
// (method.ts, link-classifier.ts). A module of its own, without the training stack, so that
// the CLI's help text can name the figures without loading onnxruntime.
import type { PairLinks } from './vocab.ts';

/** A quarter of the gold pairs teach the link decision (aligner.ts) rather than the model, once there are MIN_GOLD_PAIRS_TO_HOLD_OUT. */
export const HELD_OUT_SHARE = 0.25;
export const MIN_GOLD_PAIRS_TO_HOLD_OUT = 40;

/** Which pairs' gold is held out of training: evenly spread, `share` of the pairs with gold; none below the minimum. */
export function heldOutPairs(gold: readonly PairLinks[] | undefined, share: number): boolean[] {
  const withGold = (gold ?? []).flatMap((g, k) => (g?.length ? [k] : []));
  const held = new Array<boolean>(gold?.length ?? 0).fill(false);
  if (withGold.length < MIN_GOLD_PAIRS_TO_HOLD_OUT) return held;
  withGold.forEach((k, n) => (held[k] = Math.floor((n + 1) * share) > Math.floor(n * share)));
  return held;
}
