// The BiLSTM's jobs on the Models page (its registry entry's run jobs, aligners/registry.ts).
// Train: reads the training set from the project (project-data.ts), trains the neural
// aligner in a worker thread (neural.worker.ts, by the job protocol), then any self-training
// (its checkpoints numbered on after the run's epochs), and records the run as it goes from
// the worker's reports — step losses (buffered, one transaction per FLUSH_MS), each epoch's
// mean loss, each checkpoint with its AER / precision / recall on the evaluation pairs — then
// marks the run done, cancelled (checkpoints saved so far stay usable) or failed with its
// error. Re-align: a checkpoint's links in a worker thread (aligner.ts extraction, its EM
// counting the train-split gold links; the gold of the held-out pairs, which no run trains on
// (models/bilstm/held-out.ts), teaches the link decision when there is enough of it).
import type { TrainOptions } from '../../shared/models-api.ts';
import { alignedRefs } from '../../shared/link-set.ts';
import type { NeuralConfig } from '../models/bilstm/bilstm-train.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { type RunStats, setRunSetup } from '../store/training-runs.ts';
import type { CheckpointInput, RunJobs } from '../aligners/app-jobs.ts';
import { bestDevAer, recordedRun, recordFitEvent } from './recorded-run.ts';
import { completed, neuralConfig, selfTrainEpochsOf } from '../aligners/bilstm-options.ts';
import type { NeuralAlignResult, NeuralReport, NeuralTask, TrainRequest } from './neural-protocol.ts';
import { trainingSet, type TrainingSet } from './project-data.ts';
import { checkpointDir, runDir } from './run-files.ts';

/** The worker's training task for run options `o` on `set` (a run, and the pace measured before one, train-pace.ts). */
export function trainRequest(set: TrainingSet, o: TrainOptions, config: NeuralConfig, runFolder: string, startDir?: string): TrainRequest {
  const { src, tgt } = set.corpus;
  // self-training always has word-level signal (its pseudo-labels): the supervised weights unless the user set some
  const selfTrain = o.selfTrainEpochs
    ? { config: { ...neuralConfig(o, true, set.stats.pairs), epochs: o.selfTrainEpochs }, threshold: o.threshold, skip: set.evalIndex }
    : undefined;
  return {
    type: 'train',
    config,
    runFolder,
    checkpointEvery: o.checkpointEvery,
    ...(startDir ? { startDir } : {}),
    ...(selfTrain ? { selfTrain } : {}),
    data: { src, tgt, gold: set.supervision, rejected: set.rejected },
    eval: { src: set.evalIndex.map((k) => src[k]), tgt: set.evalIndex.map((k) => tgt[k]), gold: set.evalGold },
  };
}

function summary(store: ProjectStore, runId: number, o: TrainOptions, set: TrainingSet): string {
  const self = o.selfTrainEpochs ? ` + ${o.selfTrainEpochs} of self-training` : '';
  return `trained ${o.method} run ${runId}: ${o.epochs} epochs${self} on ${set.stats.pairs} pairs (${set.stats.goldPairs} reviewed pairs with gold)${bestDevAer(store, runId)}`;
}

/** Trains a run created by createModelRun; returns a one-line summary. */
function trainBilstmRun(store: ProjectStore, runId: number, o: TrainOptions, ctx: JobContext): Promise<string> {
  return recordedRun(store, runId, ctx.signal, async (metrics) => {
    const folder = runDir(store.path, runId);
    const set = trainingSet(store, o);
    const supervised = [...set.supervision, ...set.rejected].some((l) => l?.length);
    const config = neuralConfig(o, supervised, set.stats.pairs);
    const selfTrainEpochs = selfTrainEpochsOf(o, set.stats.pairs);
    o = { ...o, epochs: config.epochs, selfTrainEpochs };
    let stats: RunStats = set.stats;
    setRunSetup(store, runId, completed(o, config), stats);
    const onReport = (r: NeuralReport) => {
      if (r.type === 'vocabulary') {
        stats = { ...stats, newWords: { src: r.src, tgt: r.tgt } };
        setRunSetup(store, runId, completed(o, config), stats);
      } else if (r.type === 'device') {
        stats = { ...stats, device: { requested: r.requested, used: r.used } };
        setRunSetup(store, runId, completed(o, config), stats);
      } else if (r.type !== 'plan') recordFitEvent(store, runId, metrics, r);
    };
    const from = o.startFrom && checkpointDir(runDir(store.path, o.startFrom.runId), o.startFrom.epoch);
    await runInWorker<NeuralTask, null, NeuralReport>(
      new URL('./neural.worker.ts', import.meta.url),
      trainRequest(set, o, config, folder, from),
      ctx,
      {
        onReport,
      },
    );
    return summary(store, runId, o, set);
  });
}

/** A checkpoint's links, in a worker thread (train-split gold counted by its EM, held-out gold teaching the link decision). */
function alignBilstmCheckpoint(
  { modelDir, corpus, gold, held, options, sym }: CheckpointInput,
  ctx: JobContext,
): Promise<NeuralAlignResult> {
  const linksOf = (inTraining: boolean) => gold.map((g, k) => (g && !held[k] === inTraining ? alignedRefs(g) : []));
  const task: NeuralTask = {
    type: 'align',
    modelDir,
    src: corpus.src,
    tgt: corpus.tgt,
    gold: linksOf(true),
    heldOut: linksOf(false),
    sym,
    device: options.device,
  };
  return runInWorker<NeuralTask, NeuralAlignResult, NeuralReport>(new URL('./neural.worker.ts', import.meta.url), task, ctx);
}

export const bilstmRunJobs: RunJobs = { train: trainBilstmRun, alignCheckpoint: alignBilstmCheckpoint };
