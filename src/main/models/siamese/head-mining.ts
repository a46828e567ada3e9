// Mining and parallelism scores with a saved siamese head (seed 004), the app's Mine and Score
// parallelism jobs (train/curation.worker.ts). Mining:
// the head's encoder embeds both files' sentences, the head maps them
// (headed-encoder.ts, as `mine --head` and `eval retrieval --head` do), and pairs are proposed
// by the distance margin of their cosine (eval/margin.ts, k = 4; each sentence in at most one
// pair). Without a given threshold, the threshold of best F1 is found as the Bi-Sent2Vec path
// finds it (models/bisent2vec/curation.ts): on up to HELD_OUT_MAX of the pairs the caller
// names, built into seed 001's mining case. Nothing is trained here, so those should be pairs
// the head and its encoder did not learn from (the Mine job gives the project's dev and test
// pairs when it has enough): on their own training pairs the vectors match far better than
// on new text, and the threshold found there proposes almost nothing. checkSavedHead refuses
// a head folder at once, before a job starts; describeHead says what a recorded one is for the
// Models page.
// Scoring (scoreWithHead): a pair's score is the cosine of its two sides' vectors through the
// head, the number `eval retrieval --head` ranks by; its rival the best cosine of its source
// with another target or of its target with another source. Pairs under the threshold are
// flagged; the threshold is the one of best F1 at finding the shuffled pairs among the same
// threshold pairs with a tenth of their targets shuffled, as the Bi-Sent2Vec path finds its own.
import { existsSync } from 'node:fs';
import type { SiameseHeadInfo } from '../../../shared/models-api.ts';
import { sentenceEncoderOf } from '../../aligners/registry.ts';
import { UserError } from '../../errors.ts';
import { type Neighbourhoods, neighbourhoods, rowDot } from '../../eval/csls.ts';
import { flaggingThreshold, type MinedPair, minePairs, miningThreshold, type PairScore, type Rival } from '../../eval/margin.ts';
import type { ThresholdChoice } from '../../eval/threshold-search.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import { Rng } from '../../nn/init.ts';
import { HELD_OUT_MAX, HELD_OUT_MIN, miningCase, SHUFFLED_SHARE, shuffleTargets } from '../bisent2vec/curation.ts';
import { openUnitSentenceVectors } from './headed-encoder.ts';
import { loadSiameseHead, type SavedHead } from './siamese-folder.ts';

/** Why a loaded head cannot be applied: its encoder's folder is gone; null when it is there. */
function missingEncoder(dir: string, saved: SavedHead): string | null {
  const { dir: encoderDir } = sentenceEncoderOf(saved.encoder);
  return existsSync(encoderDir) ? null : `${dir}: the encoder it was trained on (${saved.encoder}) is not there`;
}

/** The head folder's encoder spec, once the folder loads and its encoder's folder is there; else a one-line error. */
export function checkSavedHead(dir: string): string {
  const saved = loadSiameseHead(dir);
  const missing = missingEncoder(dir, saved);
  if (missing) throw new UserError(missing);
  return saved.encoder;
}

/** A recorded head folder as the Models page lists it: what its config.json says, or why it no longer loads. */
export function describeHead(dir: string): SiameseHeadInfo {
  let saved: SavedHead;
  try {
    saved = loadSiameseHead(dir);
  } catch (err) {
    if (err instanceof UserError) return { dir, head: null, error: err.message };
    throw err;
  }
  const head = {
    encoder: saved.encoder,
    pooling: saved.vectors?.pooling ?? null,
    layer: saved.vectors?.layer ?? null,
    negatives: saved.config.negatives,
    epochs: saved.config.epochs,
    lr: saved.config.lr,
    retrieval: saved.retrieval ?? null,
  };
  return { dir, head, error: missingEncoder(dir, saved) };
}

export interface HeadMining {
  mined: MinedPair[];
  threshold: number;
  /** how the threshold was chosen */
  thresholdSource: string;
}

/** Pairs to find the threshold on, and what they are (for the run's record). */
export interface ThresholdPairs {
  src: readonly string[][];
  tgt: readonly string[][];
  what: string;
}

/** Up to HELD_OUT_MAX of the threshold pairs, in a fixed random order; too few is a one-line error. */
function pickedThresholdPairs(fit: ThresholdPairs): { src: string[][]; tgt: string[][] } {
  if (fit.src.length < HELD_OUT_MIN)
    throw new UserError(`the threshold is found on at least ${HELD_OUT_MIN} ${fit.what}; there are ${fit.src.length}: give a threshold`);
  const picked = new Rng(8).shuffle(Array.from(fit.src, (_, i) => i)).slice(0, HELD_OUT_MAX);
  return { src: picked.map((i) => fit.src[i]), tgt: picked.map((i) => fit.tgt[i]) };
}

/** Proposed pairs between src and tgt (line indices) by the head's vectors; the threshold given, or found on `fit`. */
export async function mineWithHead(
  head: string,
  fit: ThresholdPairs,
  src: readonly string[][],
  tgt: readonly string[][],
  given: number | undefined,
  ctx: JobContext = silentContext(),
): Promise<HeadMining> {
  const encoder = await openUnitSentenceVectors({ head }, () => {});
  try {
    const dim = encoder.dim;
    let threshold: number, thresholdSource: string;
    if (given !== undefined) [threshold, thresholdSource] = [given, `given (siamese head ${head})`];
    else {
      const picked = pickedThresholdPairs(fit);
      const c = miningCase(picked.src, picked.tgt);
      ctx.progress({ done: 0, total: 1, message: 'finding the threshold' });
      const sets = { x: await encoder.embed(0, c.src, ctx), y: await encoder.embed(1, c.tgt, ctx), dim };
      const t = await miningThreshold(sets, c.gold, {}, ctx);
      threshold = t.threshold;
      thresholdSource = `siamese head ${head}: best F1 on ${picked.src.length} ${fit.what} (F1 ${t.f1.toFixed(2)}, precision ${t.precision.toFixed(2)}, recall ${t.recall.toFixed(2)})`;
    }
    ctx.progress({ done: 0, total: 1, message: 'embedding' });
    const sets = { x: await encoder.embed(0, src, ctx), y: await encoder.embed(1, tgt, ctx), dim };
    ctx.progress({ done: 0, total: 1, message: 'scoring' });
    return { mined: await minePairs(sets, threshold, {}, ctx), threshold, thresholdSource };
  } finally {
    await encoder.release();
  }
}

export interface HeadScoring {
  /** scores[i]: pair i's */
  scores: PairScore[];
  threshold: number;
  /** how many threshold pairs the threshold was found on */
  heldOut: number;
  flagging: ThresholdChoice;
}

/** Pair i's rival: among the two nearest targets of x_i and sources of y_i (unit rows: cosine), the best one other than i. */
function cosineRival(nb: Neighbourhoods, i: number): Rival | null {
  let rival: Rival | null = null;
  for (let r = 0; r < nb.k; r++) {
    const [t, s] = [nb.xNear[i * nb.k + r], nb.yNear[i * nb.k + r]];
    if (t >= 0 && t !== i && (!rival || nb.xSim[i * nb.k + r] > rival.score))
      rival = { side: 'target', index: t, score: nb.xSim[i * nb.k + r] };
    if (s >= 0 && s !== i && (!rival || nb.ySim[i * nb.k + r] > rival.score))
      rival = { side: 'source', index: s, score: nb.ySim[i * nb.k + r] };
  }
  return rival;
}

/** The parallelism score of every pair (src[i], tgt[i]) by the head's vectors, flagged under the threshold found on `fit`. */
export async function scoreWithHead(
  head: string,
  fit: ThresholdPairs,
  src: readonly string[][],
  tgt: readonly string[][],
  ctx: JobContext = silentContext(),
): Promise<HeadScoring> {
  const encoder = await openUnitSentenceVectors({ head }, () => {});
  try {
    const dim = encoder.dim;
    const picked = pickedThresholdPairs(fit);
    const shuffled = shuffleTargets(picked.tgt, SHUFFLED_SHARE, new Rng(9));
    ctx.progress({ done: 0, total: 1, message: 'finding the threshold' });
    const [fx, fy] = [await encoder.embed(0, picked.src, ctx), await encoder.embed(1, shuffled.tgt, ctx)];
    const flagging = flaggingThreshold(
      picked.src.map((_, i) => rowDot(fx, i, fy, i, dim)),
      shuffled.bad,
    );
    ctx.progress({ done: 0, total: 1, message: 'embedding' });
    const [x, y] = [await encoder.embed(0, src, ctx), await encoder.embed(1, tgt, ctx)];
    ctx.progress({ done: 0, total: 1, message: 'scoring every pair' });
    const nb = await neighbourhoods(x, y, dim, 2, ctx);
    const scores = src.map((_, i): PairScore => {
      const score = rowDot(x, i, y, i, dim);
      return { score, flagged: score < flagging.threshold, rival: cosineRival(nb, i) };
    });
    return { scores, threshold: flagging.threshold, heldOut: picked.src.length, flagging };
  } finally {
    await encoder.release();
  }
}
