// Mining with a saved siamese head (seed 004) in the app's Mine job (train/curation.worker.ts):
// the head's encoder embeds both files' sentences, the head maps them
// (headed-encoder.ts, as `mine --head` and `eval retrieval --head` do), and pairs are proposed
// by the distance margin of their cosine (eval/margin.ts, k = 4; each sentence in at most one
// pair). Without a given threshold, the threshold of best F1 is found as the Bi-Sent2Vec path
// finds it (models/bisent2vec/curation.ts): on up to HELD_OUT_MAX of the pairs the caller
// names, built into seed 001's mining case. Nothing is trained here, so those should be pairs
// the head and its encoder did not learn from (the Mine job gives the project's dev and test
// pairs when it has enough): on their own training pairs the vectors match far better than
// on new text, and the threshold found there proposes almost nothing. checkSavedHead refuses
// a head folder at once, before a job starts.
import { existsSync } from 'node:fs';
import { sentenceEncoderOf } from '../../aligners/registry.ts';
import { UserError } from '../../errors.ts';
import { type MinedPair, minePairs, miningThreshold } from '../../eval/margin.ts';
import { type JobContext, silentContext } from '../../jobs/job-context.ts';
import { Rng } from '../../nn/init.ts';
import { HELD_OUT_MAX, HELD_OUT_MIN, miningCase } from '../bisent2vec/curation.ts';
import { openUnitSentenceVectors } from './headed-encoder.ts';
import { loadSiameseHead } from './siamese-folder.ts';

/** The head folder's encoder spec, once the folder loads and its encoder's folder is there; else a one-line error. */
export function checkSavedHead(dir: string): string {
  const saved = loadSiameseHead(dir);
  const { dir: encoderDir } = sentenceEncoderOf(saved.encoder);
  if (!existsSync(encoderDir)) throw new UserError(`${dir}: the encoder it was trained on (${saved.encoder}) is not there`);
  return saved.encoder;
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
      if (fit.src.length < HELD_OUT_MIN)
        throw new UserError(
          `the threshold is found on at least ${HELD_OUT_MIN} ${fit.what}; there are ${fit.src.length}: give a threshold`,
        );
      const picked = new Rng(8).shuffle(Array.from(fit.src, (_, i) => i)).slice(0, HELD_OUT_MAX);
      const c = miningCase(
        picked.map((i) => fit.src[i]),
        picked.map((i) => fit.tgt[i]),
      );
      ctx.progress({ done: 0, total: 1, message: 'finding the threshold' });
      const sets = { x: await encoder.embed(0, c.src, ctx), y: await encoder.embed(1, c.tgt, ctx), dim };
      const t = await miningThreshold(sets, c.gold, {}, ctx);
      threshold = t.threshold;
      thresholdSource = `siamese head ${head}: best F1 on ${picked.length} ${fit.what} (F1 ${t.f1.toFixed(2)}, precision ${t.precision.toFixed(2)}, recall ${t.recall.toFixed(2)})`;
    }
    ctx.progress({ done: 0, total: 1, message: 'embedding' });
    const sets = { x: await encoder.embed(0, src, ctx), y: await encoder.embed(1, tgt, ctx), dim };
    ctx.progress({ done: 0, total: 1, message: 'scoring' });
    return { mined: await minePairs(sets, threshold, {}, ctx), threshold, thresholdSource };
  } finally {
    await encoder.release();
  }
}
