// Worker thread of the app's sentence-level curation jobs (score-pairs-job.ts, mine-job.ts):
// Bi-Sent2Vec training (its Hogwild threads started from here), or a saved siamese head's
// encoder embedding both files or the project's pairs, the held-out threshold search and the margin scoring over
// the whole corpus keep a thread busy for minutes, so they run here rather than on the
// server's thread. The score job's pairs are read here too
// (a read-only connection of this thread's own), the mine job's sent as plain sentences;
// the jobs write the scores or the proposed pairs into the project.
import { availableParallelism } from 'node:os';
import type { MinedPair, PairScore } from '../eval/margin.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import {
  HELD_OUT_MIN,
  HELD_OUT_SHARE,
  mineSentences,
  scoreCorpusPairs,
  trainCurationModel,
  trainForCuration,
} from '../models/bisent2vec/curation.ts';
import { UserError } from '../errors.ts';
import { loadCorpus, type ProjectCorpus } from '../store/pair-corpus.ts';
import { ProjectStore } from '../store/project-store.ts';
import { mineWithHead, scoreWithHead, type ThresholdPairs } from '../models/siamese/head-mining.ts';

/** Pairs a project needs before its pairs can be scored (enough to hold some out for the threshold). */
const MIN_PAIRS_TO_SCORE = Math.ceil(HELD_OUT_MIN / HELD_OUT_SHARE);

export interface ScoreTask {
  type: 'score';
  /** the project file, whose pairs (excluded ones too) this thread reads on a connection of its own */
  projectPath: string;
  /** a saved siamese head's folder: a pair's score is the cosine of its sides' vectors through the head (models/siamese/head-mining.ts) */
  head?: string;
}

export interface ScoreResult {
  /** the pairs scored, scores[k] the score of pair ids[k] */
  ids: number[];
  scores: PairScore[];
  threshold: number;
  heldOut: number;
  /** what the held-out pairs were */
  heldOutWhat: string;
  flagging: { precision: number; recall: number };
}

export interface MineTask {
  type: 'mine';
  /** the project file, whose pairs (excluded ones left out) the model learns from, read by this thread */
  projectPath: string;
  /** the two files' sentences, as words */
  src: string[][];
  tgt: string[][];
  /** the margin threshold; absent: the best F1 on held-out project pairs */
  threshold?: number;
  /** a saved siamese head's folder: its encoder's vectors through the head replace Bi-Sent2Vec (models/siamese/head-mining.ts) */
  head?: string;
}

export interface MineResult {
  mined: MinedPair[];
  threshold: number;
  /** how the threshold was chosen, for the run's record */
  thresholdSource: string;
}

export type CurationTask = ScoreTask | MineTask;

/** The project's pairs, excluded ones too (so that including one again shows its score). */
function pairsToScore(path: string): { ids: number[]; src: string[][]; tgt: string[][] } {
  const store = ProjectStore.openReader(path);
  try {
    const { ids, src, tgt } = loadCorpus(store, true, { withExcluded: true });
    if (ids.length < MIN_PAIRS_TO_SCORE)
      throw new UserError(
        `scoring needs at least ${MIN_PAIRS_TO_SCORE} pairs (a tenth is held out to find the threshold); this project has ${ids.length}`,
      );
    return { ids, src, tgt };
  } finally {
    store.close();
  }
}

async function score(t: ScoreTask, ctx: WorkerContext): Promise<ScoreResult> {
  ctx.progress({ done: 0, total: 0, message: 'reading the pairs' });
  if (t.head !== undefined) {
    const corpus = readCorpus(t.projectPath, true);
    const fit = headThresholdPairs(corpus);
    const r = await scoreWithHead(t.head, fit, corpus.src, corpus.tgt, ctx);
    return { ids: corpus.ids, ...r, heldOutWhat: fit.what };
  }
  const { ids, src, tgt } = pairsToScore(t.projectPath);
  // No IBM1 tables: flagging scores by the cosine alone (models/bisent2vec/curation.ts' sentenceSets).
  const training = await trainForCuration(src, tgt, { lexicalWeight: 0 }, { ctx, threads: availableParallelism() });
  const threshold = training.flagging.threshold;
  ctx.progress({ done: 0, total: 1, message: 'scoring every pair' });
  const scores = await scoreCorpusPairs(training.model, src, tgt, threshold, ctx);
  const f = training.flagging;
  return {
    ids,
    scores,
    threshold,
    heldOut: training.heldOut,
    heldOutWhat: 'held-out pairs',
    flagging: { precision: f.precision, recall: f.recall },
  };
}

/** The pairs a siamese head's threshold is found on: the project's dev and test pairs when there are enough, else all its pairs. */
function headThresholdPairs(c: ProjectCorpus): ThresholdPairs {
  const held = c.split.flatMap((s, i) => (s === 'train' ? [] : [i]));
  if (held.length >= HELD_OUT_MIN)
    return { src: held.map((i) => c.src[i]), tgt: held.map((i) => c.tgt[i]), what: 'dev/test project pairs' };
  return { src: c.src, tgt: c.tgt, what: `project pairs (fewer than ${HELD_OUT_MIN} dev/test pairs: maybe ones the head was trained on)` };
}

/** The project's pairs, on a read-only connection of this thread's own; excluded ones too when `withExcluded`. */
function readCorpus(path: string, withExcluded: boolean): ProjectCorpus {
  const store = ProjectStore.openReader(path);
  try {
    return loadCorpus(store, true, { withExcluded });
  } finally {
    store.close();
  }
}

async function mine(t: MineTask, ctx: WorkerContext): Promise<MineResult> {
  ctx.progress({ done: 0, total: 0, message: 'reading the pairs' });
  const corpus = readCorpus(t.projectPath, false);
  if (t.head !== undefined) return mineWithHead(t.head, headThresholdPairs(corpus), t.src, t.tgt, t.threshold, ctx);
  const training = { ctx, threads: availableParallelism() };
  let model, threshold: number, thresholdSource: string;
  if (t.threshold !== undefined) {
    ({ model } = await trainCurationModel(corpus.src, corpus.tgt, {}, training));
    threshold = t.threshold;
    thresholdSource = 'given';
  } else {
    const c = await trainForCuration(corpus.src, corpus.tgt, {}, training);
    model = c.model;
    threshold = c.mining.threshold;
    thresholdSource = `best F1 on ${c.heldOut} held-out project pairs (F1 ${c.mining.f1.toFixed(2)}, precision ${c.mining.precision.toFixed(2)}, recall ${c.mining.recall.toFixed(2)})`;
  }
  ctx.progress({ done: 0, total: 1, message: 'scoring' });
  return { mined: await mineSentences(model, t.src, t.tgt, threshold, ctx), threshold, thresholdSource };
}

serveWorker<CurationTask, ScoreResult | MineResult>((t, ctx) => (t.type === 'score' ? score(t, ctx) : mine(t, ctx)));
