// What a Models-page BiLSTM run trains on and with, decided in its worker thread
// (neural.worker.ts) from the project: the training set (project-data.ts: tokens,
// supervision, rejected links, the evaluation pairs), the options completed as the run uses
// them (bilstm-options.ts: epochs by corpus size, the method's weights) and any self-training
// after the epochs. The server's thread gets back only the completed options and the counts
// (the worker's 'setup' report), which the run records.
import type { TrainOptions } from '../../shared/models-api.ts';
import type { AlignedPair, LinkRef } from '../../shared/link-set.ts';
import { completed, neuralConfig, selfTrainEpochsOf } from '../aligners/bilstm-options.ts';
import type { NeuralConfig, TrainData } from '../models/bilstm/bilstm-train.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { RunStats } from '../store/training-runs.ts';
import { trainingSet } from './project-data.ts';

export interface BilstmRunSetup {
  /** the options as the run uses them (recorded with the run) */
  options: TrainOptions;
  config: NeuralConfig;
  stats: RunStats;
  data: TrainData;
  /** pairs scored at each checkpoint (aligner.ts extraction, gdfa, against their gold) */
  eval: { src: string[][]; tgt: string[][]; gold: AlignedPair[] };
  /** after the epochs, `config.epochs` more of self-training (method.ts): the model's own links
   *  at or above `threshold` supervise the pairs without gold, except those of `skip` (the
   *  evaluation pairs) */
  selfTrain?: { config: NeuralConfig; threshold: number; skip: number[] };
}

/** The run of options `o` on the project's pairs; `withoutSelfTraining`: its epochs alone (a run timed before it is made). */
export function bilstmRunSetup(store: ProjectStore, o: TrainOptions, withoutSelfTraining = false): BilstmRunSetup {
  const set = trainingSet(store, o);
  const { src, tgt } = set.corpus;
  const pairs = set.stats.pairs;
  const supervised = [...set.supervision, ...set.rejected].some((l: LinkRef[] | undefined) => l?.length);
  const config = neuralConfig(o, supervised, pairs);
  const selfTrainEpochs = selfTrainEpochsOf(o, pairs);
  const options = completed({ ...o, epochs: config.epochs, selfTrainEpochs }, config);
  // self-training always has word-level signal (its pseudo-labels): the supervised weights unless the user set some
  const selfTrain =
    selfTrainEpochs && !withoutSelfTraining
      ? { config: { ...neuralConfig(o, true, pairs), epochs: selfTrainEpochs }, threshold: o.threshold, skip: set.evalIndex }
      : undefined;
  return {
    options,
    config,
    stats: set.stats,
    data: { src, tgt, gold: set.supervision, rejected: set.rejected },
    eval: { src: set.evalIndex.map((k) => src[k]), tgt: set.evalIndex.map((k) => tgt[k]), gold: set.evalGold },
    ...(selfTrain ? { selfTrain } : {}),
  };
}
