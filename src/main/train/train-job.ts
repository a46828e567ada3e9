// The Models page's Train job: reads the training set from the project (project-data.ts),
// trains the neural aligner in a worker thread (neural.worker.ts) — or hands an encoder
// fine-tuning run to finetune-job.ts — then any self-training
// (its checkpoints numbered on after the run's epochs), and records the run as
// it goes — step losses (buffered, one transaction per FLUSH_MS), each epoch's mean loss,
// each checkpoint with its AER / precision / recall on the evaluation pairs — then marks
// the run done, cancelled (checkpoints saved so far stay usable) or failed with its error.
import type { TrainOptions } from '../../shared/models-api.ts';
import { FINETUNE_METHOD } from '../../shared/methods.ts';
import type { NeuralConfig } from '../models/bilstm/train.ts';
import { CancelledError } from '../errors.ts';
import type { Progress } from '../jobs/job-registry.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { recordCheckpoint, type RunStats, setRunSetup } from '../store/training-runs.ts';
import { finetuneRun } from './finetune-job.ts';
import { bestDevAer, recordedRun } from './recorded-run.ts';
import { completed, neuralConfig, selfTrainEpochsOf } from './neural-options.ts';
import { cancelFlag, type TrainRequest, type WorkerReport } from './neural-protocol.ts';
import { trainingSet, type TrainingSet } from './project-data.ts';
import { checkpointDir, runDir } from './run-files.ts';
import { StepMeter } from './step-meter.ts';
import { runInWorker } from './worker-run.ts';

function request(set: TrainingSet, o: TrainOptions, config: NeuralConfig, runFolder: string, startDir?: string): TrainRequest {
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
    cancel: cancelFlag(),
    ...(startDir ? { startDir } : {}),
    ...(selfTrain ? { selfTrain } : {}),
    data: { src, tgt, gold: set.supervision, rejected: set.rejected },
    eval: { src: set.evalIndex.map((k) => src[k]), tgt: set.evalIndex.map((k) => tgt[k]), gold: set.evalGold },
  };
}

function summary(store: ProjectStore, runId: number, o: TrainOptions, set: TrainingSet): string {
  const self = o.selfTrainEpochs ? ` + ${o.selfTrainEpochs} of self-training` : '';
  return `trained ${o.method} run ${runId}: ${o.epochs} epochs${self} on ${set.stats.pairs} pairs (${set.stats.goldPairs} with gold)${bestDevAer(store.db, runId)}`;
}

/** Runs the job for a run created by createModelRun; returns a one-line summary. */
export async function trainRun(
  store: ProjectStore,
  runId: number,
  o: TrainOptions,
  run: { progress: Progress; signal: AbortSignal },
): Promise<string> {
  if (o.method === FINETUNE_METHOD) return finetuneRun(store, runId, o, run);
  return recordedRun(store, runId, run.signal, async (metrics) => {
    const db = store.db;
    const folder = runDir(store.path, runId);
    const set = trainingSet(db, o);
    const supervised = [...set.supervision, ...set.rejected].some((l) => l?.length);
    const config = neuralConfig(o, supervised, set.stats.pairs);
    const selfTrainEpochs = selfTrainEpochsOf(o, set.stats.pairs);
    o = { ...o, epochs: config.epochs, selfTrainEpochs };
    let stats: RunStats = set.stats;
    setRunSetup(db, runId, completed(o, config), stats);
    let meter = new StepMeter(1, config.epochs);
    // the progress bar's end: the phase's, plus the self-training's estimated from the first phase's steps per epoch until it starts
    let end = 0;
    let lastStep = 0;
    const onReport = (r: WorkerReport) => {
      if (r.type === 'plan') {
        const self = r.firstEpoch > 0;
        meter = new StepMeter(r.stepsPerEpoch, r.epochs, self ? { firstStep: lastStep, label: 'self-training epoch' } : {});
        end = meter.total + (self ? 0 : r.stepsPerEpoch * selfTrainEpochs);
        run.progress(lastStep, end, `${self ? 'self-training epoch' : 'epoch'} 1/${r.epochs} · building the model`);
      } else if (r.type === 'step') {
        lastStep = r.step;
        metrics.add('loss', r.step, r.loss);
        run.progress(r.step, end, meter.step(r.step, r.loss));
      } else if (r.type === 'vocabulary') {
        stats = { ...stats, newWords: { src: r.src, tgt: r.tgt } };
        setRunSetup(db, runId, completed(o, config), stats);
      } else if (r.type === 'device') {
        stats = { ...stats, device: { requested: r.requested, used: r.used } };
        setRunSetup(db, runId, completed(o, config), stats);
      } else if (r.type === 'linking') {
        run.progress(lastStep, end, `${r.phase} ${r.done}/${r.total}`);
      } else if (r.type === 'epoch') {
        metrics.add('epoch_loss', r.step, r.loss);
        if (r.score) for (const name of ['aer', 'precision', 'recall'] as const) metrics.add(name, r.step, r.score[name]);
        metrics.flush();
        if (r.saved) recordCheckpoint(db, runId, r.epoch, r.step);
      }
    };
    const from = o.startFrom && checkpointDir(runDir(store.path, o.startFrom.runId), o.startFrom.epoch);
    const outcome = await runInWorker(request(set, o, config, folder, from), onReport, run.signal);
    if (outcome === 'cancelled') throw new CancelledError();
    return summary(store, runId, o, set);
  });
}
