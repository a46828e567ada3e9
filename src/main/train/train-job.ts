// The BiLSTM's jobs on the Models page (its registry entry's run jobs, aligners/registry.ts).
// Train: in a worker thread (neural.worker.ts, by the job protocol), reads the training set
// from the project (bilstm-run-setup.ts) and trains the neural aligner, then any self-training
// (its checkpoints numbered on after the run's epochs), and records the run as it goes from
// the worker's reports — step losses (buffered, one transaction per FLUSH_MS), each epoch's
// mean loss, each checkpoint with its AER / precision / recall on the evaluation pairs — then
// marks the run done, cancelled (checkpoints saved so far stay usable) or failed with its
// error. Re-align: a checkpoint's links in a worker thread (aligner.ts extraction, its EM
// counting the train-split gold links; the gold of the held-out pairs, which no run trains on
// (models/bilstm/held-out.ts), teaches the link decision when there is enough of it).
import type { TrainOptions } from '../../shared/models-api.ts';
import { alignedRefs } from '../../shared/link-set.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { type RunStats, setRunSetup } from '../store/training-runs.ts';
import type { CheckpointInput, RunJobs } from '../aligners/app-jobs.ts';
import { bestDevScore, recordedRun, recordFitEvent } from './recorded-run.ts';
import type { NeuralAlignResult, NeuralReport, NeuralTask, TrainRequest } from './neural-protocol.ts';
import { checkpointDir, runDir } from './run-files.ts';

/** The BiLSTM jobs' worker: it reads a run's training set itself (bilstm-run-setup.ts). */
export const NEURAL_WORKER = new URL('./neural.worker.ts', import.meta.url);

function summary(store: ProjectStore, runId: number, o: TrainOptions, stats: RunStats): string {
  const self = o.selfTrainEpochs ? ` + ${o.selfTrainEpochs} of self-training` : '';
  return `trained ${o.method} run ${runId}: ${o.epochs} epochs${self} on ${stats.pairs} pairs (${stats.goldPairs} reviewed pairs with gold)${bestDevScore(store, runId)}`;
}

/** Trains a run created by createModelRun; returns a one-line summary. */
function trainBilstmRun(store: ProjectStore, runId: number, o: TrainOptions, ctx: JobContext): Promise<string> {
  return recordedRun(store, runId, ctx.signal, async (metrics) => {
    let stats: RunStats | undefined;
    const onReport = (r: NeuralReport) => {
      if (r.type === 'setup') {
        o = r.options;
        stats = r.stats;
      } else if (r.type === 'vocabulary') {
        stats = { ...stats!, newWords: { src: r.src, tgt: r.tgt } };
      } else if (r.type === 'device') {
        stats = { ...stats!, device: { requested: r.requested, used: r.used } };
      } else {
        if (r.type !== 'plan') recordFitEvent(store, runId, metrics, r);
        return;
      }
      setRunSetup(store, runId, o, stats);
    };
    const startDir = o.startFrom && checkpointDir(runDir(store.path, o.startFrom.runId), o.startFrom.epoch);
    const task: TrainRequest = {
      type: 'train',
      projectPath: store.path,
      options: o,
      runFolder: runDir(store.path, runId),
      ...(startDir ? { startDir } : {}),
    };
    await runInWorker<NeuralTask, null, NeuralReport>(NEURAL_WORKER, task, ctx, { onReport });
    return summary(store, runId, o, stats!);
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
  return runInWorker<NeuralTask, NeuralAlignResult, NeuralReport>(NEURAL_WORKER, task, ctx);
}

export const bilstmRunJobs: RunJobs = { train: trainBilstmRun, alignCheckpoint: alignBilstmCheckpoint };
