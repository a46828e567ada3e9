// Bi-Sent2Vec for sentence-level curation: a model trained on a parallel corpus with its
// decision thresholds found on pairs held out of training, and the two uses the CLI and the
// app call (both with a progress callback and an AbortSignal):
//   scoreCorpusPairs  the parallelism score of every pair of a parallel corpus (eval/margin.ts),
//   mineSentences     proposed pairs between two monolingual sets.
// Both score a sentence pair by the margin (eval/margin.ts) of a pair score; mining's is
//   s(x, y) = cos(x, y) + config.lexicalWeight · lex(x, y),
// cos between the Bi-Sent2Vec sentence vectors and lex the IBM1 translation log-likelihood
// (align/sentence-translation.ts) of tables trained on the same pairs; flagging's the cosine
// alone (sentenceSets says why). The IBM1 term at weight 0.1 is what mines best on the
// bench's en-fr and en-de sets (docs/experiments.md has its figures and the other weights
// and forms tried).
// Held-out pairs: 10% of the corpus (at most 3,000, at least 30). Mining threshold: a third
// of them kept as pairs, the other two thirds broken into lone sentences (the sources of one
// third, the targets of the other), so a third of each side's sentences has its partner;
// the F1-optimal threshold on the pairs proposed there. Flagging threshold: all held-out
// pairs with the targets of 10% of them shuffled among themselves; the F1-optimal threshold
// at finding those.
import { UserError } from '../../errors.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import {
  flaggingThreshold,
  type MinedPair,
  minePairs,
  miningThreshold,
  type PairScore,
  parallelismScores,
  type SentenceSets,
} from '../../eval/margin.ts';
import type { ThresholdChoice } from '../../eval/threshold-search.ts';
import { SentenceTranslation, trainSentenceTranslation } from '../../align/sentence-translation.ts';
import type { SavedModel } from '../../align/statistical-model.ts';
import { Rng } from '../../nn/init.ts';
import { sentenceVectors } from './embed.ts';
import { trainBisent2vec } from './parallel-train.ts';
import type { Bisent2vecConfig, Bisent2vecModel, TrainStats, TrainWork } from './cbow-train.ts';

export const HELD_OUT_SHARE = 0.1;
export const HELD_OUT_MAX = 3000;
export const HELD_OUT_MIN = 30;
/** Share of the held-out pairs whose targets are shuffled to learn the flagging threshold. */
export const SHUFFLED_SHARE = 0.1;

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

/**
 * Sentences of both sides as the margin scores them: unit sentence vectors and, for mining,
 * the weighted IBM1 term when the model has tables. Flagging leaves the term out: it scores
 * the very pairs the tables were trained on, and IBM1 learns a misaligned pair's words as
 * each other's translations (tests/unit/train/score-pairs.test.ts, 600 news pairs of which
 * 60 shuffled: a shuffled pair scores under a kept one 57% of the time with the term, 77%
 * without).
 */
export function sentenceSets(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  use: 'mining' | 'flagging',
): SentenceSets {
  const sets: SentenceSets = { x: sentenceVectors(model, 0, src), y: sentenceVectors(model, 1, tgt), dim: model.config.dim };
  const w = model.config.lexicalWeight;
  if (use === 'flagging' || !model.lexicon || !w) return sets;
  return { ...sets, extra: lexicalTerm(model.lexicon, w, src, tgt) };
}

/** Mining's extra term e(i, j) = weight · the IBM1 translation log-likelihood of src[i] and tgt[j] under `tables`. */
export function lexicalTerm(
  tables: SavedModel,
  weight: number,
  src: readonly string[][],
  tgt: readonly string[][],
): (i: number, j: number) => number {
  const lex = new SentenceTranslation(tables);
  const [s, t] = [lex.encode(0, src), lex.encode(1, tgt)];
  return (i, j) => weight * lex.score(s[i], t[j]);
}

/** A model for curation: Bi-Sent2Vec and, when config.lexicalWeight > 0, IBM1 tables on the same pairs. */
export async function trainCurationModel(
  src: readonly string[][],
  tgt: readonly string[][],
  config: Partial<Bisent2vecConfig> = {},
  work: TrainWork = {},
): Promise<{ model: Bisent2vecModel; stats: TrainStats }> {
  const { model, stats } = await trainBisent2vec(src, tgt, config, work);
  if (model.config.lexicalWeight > 0) model.lexicon = await trainSentenceTranslation(src, tgt, work.ctx);
  return { model, stats };
}

/**
 * Seed 001 appendix B's mining case from held-out pairs: the first third kept as pairs, the
 * sources of the second third and the targets of the last third as lone sentences; `gold`
 * the kept pairs (as indices of the two sides returned).
 */
export function miningCase<T>(src: readonly T[], tgt: readonly T[]): { src: T[]; tgt: T[]; gold: { src: number; tgt: number }[] } {
  const third = Math.floor(src.length / 3);
  return {
    src: src.slice(0, 2 * third),
    tgt: [...tgt.slice(0, third), ...tgt.slice(2 * third, 3 * third)],
    gold: Array.from({ length: third }, (_, k) => ({ src: k, tgt: k })),
  };
}

/** The threshold cases of seed 001 appendix B built from held-out pairs, and the thresholds found there. */
async function heldOutThresholds(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  rng: Rng,
  ctx: JobContext = silentContext(),
): Promise<{ mining: ThresholdChoice; flagging: ThresholdChoice }> {
  const c = miningCase(src, tgt);
  const mining = await miningThreshold(sentenceSets(model, c.src, c.tgt, 'mining'), c.gold, {}, ctx);
  const shuffled = shuffleTargets(tgt, SHUFFLED_SHARE, rng);
  const scores = await parallelismScores(sentenceSets(model, src, shuffled.tgt, 'flagging'), 0, {}, ctx);
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
  const { model, stats } = await trainCurationModel(
    rest.map((i) => src[i]),
    rest.map((i) => tgt[i]),
    config,
    work,
  );
  const found = await heldOutThresholds(
    model,
    held.map((i) => src[i]),
    held.map((i) => tgt[i]),
    rng,
    silentContext(work.ctx?.signal),
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
  ctx: JobContext = silentContext(),
): Promise<PairScore[]> {
  return parallelismScores(sentenceSets(model, src, tgt, 'flagging'), threshold, {}, ctx);
}

/** Proposed pairs between two monolingual sets (line indices), best first, from `threshold` up. */
export function mineSentences(
  model: Bisent2vecModel,
  src: readonly string[][],
  tgt: readonly string[][],
  threshold: number,
  ctx: JobContext = silentContext(),
): Promise<MinedPair[]> {
  return minePairs(sentenceSets(model, src, tgt, 'mining'), threshold, {}, ctx);
}
