// Bi-Sent2Vec for sentence-level curation: a model trained on a parallel corpus with its
// decision thresholds found on pairs held out of training, and the two uses the CLI and the
// app call (both with a progress callback and an AbortSignal):
//   scoreCorpusPairs  the parallelism score of every pair of a parallel corpus (eval/margin.ts),
//   mineSentences     proposed pairs between two monolingual sets.
// Held-out pairs: 10% of the corpus (at most 3,000, at least 30). Mining threshold: a third
// of them kept as pairs, the other two thirds broken into lone sentences (the sources of one
// third, the targets of the other), so a third of each side's sentences has its partner;
// the F1-optimal threshold on the pairs proposed there. Flagging threshold: all held-out
// pairs with the targets of 10% of them shuffled among themselves; the F1-optimal threshold
// at finding those.
import { UserError } from '../../errors.ts';
import type { LongWork } from '../../eval/csls.ts';
import { flaggingThreshold, type MinedPair, minePairs, miningThreshold, type PairScore, parallelismScores } from '../../eval/margin.ts';
import type { ThresholdChoice } from '../../eval/threshold-search.ts';
import { Rng } from '../../nn/init.ts';
import { sentenceVectors } from './embed.ts';
import { trainBisent2vec } from './parallel-train.ts';
import type { Bisent2vecConfig, Bisent2vecModel, TrainStats, TrainWork } from './train.ts';

export const HELD_OUT_SHARE = 0.1;
export const HELD_OUT_MAX = 3000;
export const HELD_OUT_MIN = 30;
/** Share of the held-out pairs whose targets are shuffled to learn the flagging threshold. */
const SHUFFLED_SHARE = 0.1;

export interface CurationTraining {
  model: Bisent2vecModel;
  stats: TrainStats;
  mining: ThresholdChoice;
  flagging: ThresholdChoice;
  heldOut: number;
}

/** Targets of `share` of the pairs moved to other pairs of that share (a cyclic shift of a random subset): which pairs are no longer parallel. */
export function shuffleTargets<T>(tgt: readonly T[], share: number, rng: Rng): { tgt: T[]; bad: boolean[] } {
  const n = tgt.length;
  const chosen = rng.shuffle(Array.from(tgt, (_, i) => i)).slice(0, Math.round(n * share));
  const out = [...tgt];
  const bad = new Array<boolean>(n).fill(false);
  if (chosen.length < 2) return { tgt: out, bad };
  chosen.forEach((i, k) => {
    out[i] = tgt[chosen[(k + 1) % chosen.length]];
    bad[i] = true;
  });
  return { tgt: out, bad };
}

/** The threshold cases of seed 001 appendix B built from held-out pairs, and the thresholds found there. */
function heldOutThresholds(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  rng: Rng,
  work: LongWork = {},
): { mining: ThresholdChoice; flagging: ThresholdChoice } {
  const d = model.config.dim;
  const third = Math.floor(src.length / 3);
  const x = sentenceVectors(model, 0, src.slice(0, 2 * third));
  const y = sentenceVectors(model, 1, [...tgt.slice(0, third), ...tgt.slice(2 * third, 3 * third)]);
  const gold = Array.from({ length: third }, (_, k) => ({ src: k, tgt: k }));
  const mining = miningThreshold(x, y, d, gold, {}, work);
  const shuffled = shuffleTargets(tgt, SHUFFLED_SHARE, rng);
  const scores = parallelismScores(sentenceVectors(model, 0, src), sentenceVectors(model, 1, shuffled.tgt), d, 0, {}, work);
  const flagging = flaggingThreshold(
    scores.map((s) => s.score),
    shuffled.bad,
  );
  return { mining, flagging };
}

/** Trains on all but the held-out pairs, then finds the mining and flagging thresholds on those (stored in the model). */
export async function trainForCuration(
  src: readonly string[][],
  tgt: readonly string[][],
  config: Partial<Bisent2vecConfig> = {},
  work: TrainWork = {},
): Promise<CurationTraining> {
  const heldOut = Math.min(HELD_OUT_MAX, Math.floor(src.length * HELD_OUT_SHARE));
  if (heldOut < HELD_OUT_MIN)
    throw new UserError(
      `${src.length} training pairs are too few to hold out ${HELD_OUT_MIN} for the threshold search (${HELD_OUT_MIN / HELD_OUT_SHARE} needed): give --threshold`,
    );
  const rng = new Rng((config.seed ?? 1) + 7);
  const order = rng.shuffle(Array.from(src, (_, i) => i));
  const held = order.slice(0, heldOut),
    rest = order.slice(heldOut);
  const { model, stats } = await trainBisent2vec(
    rest.map((i) => src[i]),
    rest.map((i) => tgt[i]),
    config,
    work,
  );
  const found = heldOutThresholds(
    model,
    held.map((i) => src[i]),
    held.map((i) => tgt[i]),
    rng,
    { signal: work.signal },
  );
  model.thresholds = { mining: found.mining.threshold, flagging: found.flagging.threshold };
  return { model, stats, ...found, heldOut };
}

/** The parallelism score of every pair (src[i], tgt[i]), flagged under `threshold`. */
export function scoreCorpusPairs(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  threshold: number,
  work: LongWork = {},
): PairScore[] {
  return parallelismScores(sentenceVectors(model, 0, src), sentenceVectors(model, 1, tgt), model.config.dim, threshold, {}, work);
}

/** Proposed pairs between two monolingual sets (line indices), best first, from `threshold` up. */
export function mineSentences(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  threshold: number,
  work: LongWork = {},
): MinedPair[] {
  return minePairs(sentenceVectors(model, 0, src), sentenceVectors(model, 1, tgt), model.config.dim, threshold, {}, work);
}
