// Worker thread of the app's sentence-level curation jobs (score-pairs-job.ts, mine-job.ts):
// Bi-Sent2Vec training (its Hogwild threads started from here), the held-out threshold
// search and the margin scoring over the whole corpus keep a thread busy for minutes, so
// they run here rather than on the server's thread. The jobs read and write the project;
// this thread gets plain sentences and returns the scores or the proposed pairs.
import { availableParallelism } from 'node:os';
import type { MinedPair, PairScore } from '../eval/margin.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import { mineSentences, scoreCorpusPairs, trainCurationModel, trainForCuration } from '../models/bisent2vec/curation.ts';

export interface ScoreTask {
  type: 'score';
  src: string[][];
  tgt: string[][];
}

export interface ScoreResult {
  scores: PairScore[];
  threshold: number;
  heldOut: number;
  flagging: { precision: number; recall: number };
}

export interface MineTask {
  type: 'mine';
  /** the project's pairs the model learns from */
  corpus: { src: string[][]; tgt: string[][] };
  /** the two files' sentences, as words */
  src: string[][];
  tgt: string[][];
  /** the margin threshold; absent: the best F1 on held-out project pairs */
  threshold?: number;
}

export interface MineResult {
  mined: MinedPair[];
  threshold: number;
  /** how the threshold was chosen, for the run's record */
  thresholdSource: string;
}

export type CurationTask = ScoreTask | MineTask;

async function score(t: ScoreTask, ctx: WorkerContext): Promise<ScoreResult> {
  // No IBM1 tables: flagging scores by the cosine alone (models/bisent2vec/curation.ts' sentenceSets).
  const training = await trainForCuration(t.src, t.tgt, { lexicalWeight: 0 }, { ctx, threads: availableParallelism() });
  const threshold = training.flagging.threshold;
  ctx.progress({ done: 0, total: 1, message: 'scoring every pair' });
  const scores = scoreCorpusPairs(training.model, t.src, t.tgt, threshold, ctx);
  const f = training.flagging;
  return { scores, threshold, heldOut: training.heldOut, flagging: { precision: f.precision, recall: f.recall } };
}

async function mine(t: MineTask, ctx: WorkerContext): Promise<MineResult> {
  const training = { ctx, threads: availableParallelism() };
  let model, threshold: number, thresholdSource: string;
  if (t.threshold !== undefined) {
    ({ model } = await trainCurationModel(t.corpus.src, t.corpus.tgt, {}, training));
    threshold = t.threshold;
    thresholdSource = 'given';
  } else {
    const c = await trainForCuration(t.corpus.src, t.corpus.tgt, {}, training);
    model = c.model;
    threshold = c.mining.threshold;
    thresholdSource = `best F1 on ${c.heldOut} held-out project pairs (F1 ${c.mining.f1.toFixed(2)}, precision ${c.mining.precision.toFixed(2)}, recall ${c.mining.recall.toFixed(2)})`;
  }
  ctx.progress({ done: 0, total: 1, message: 'scoring' });
  return { mined: mineSentences(model, t.src, t.tgt, threshold, ctx), threshold, thresholdSource };
}

serveWorker<CurationTask, ScoreResult | MineResult>((t, ctx) => (t.type === 'score' ? score(t, ctx) : mine(t, ctx)));
