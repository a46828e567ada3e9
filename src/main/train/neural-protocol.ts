// The tasks of the Models page's BiLSTM worker thread (neural.worker.ts), which trains a run
// or aligns with a saved checkpoint, as the job protocol carries them (jobs/worker-protocol.ts):
// the task's input, the records it reports as it trains, and an alignment's result. A
// training reads its own training set from the project file, so that the server's thread,
// which answers the linguists' edits meanwhile, neither reads it (seconds at 100k pairs) nor
// copies it to the worker. Progress
// and cancel are the protocol's (JobProgress, the task's AbortSignal).
import type { Link } from '../../shared/domain.ts';
import type { NeuralConfig } from '../models/bilstm/bilstm-train.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import type { RunStats } from '../store/training-runs.ts';
import type { FitEvent } from './fit-loop.ts';
import type { LinkRef } from '../../shared/link-set.ts';
import type { DeviceSetting, DeviceUse } from '../../shared/device-settings.ts';

export interface TrainRequest {
  type: 'train';
  /** the project file: the worker reads the training set from it (project-data.ts) on a read-only connection of its own */
  projectPath: string;
  /** the run's options as the Train form sent them; the worker completes them (bilstm-options.ts) and reports them */
  options: TrainOptions;
  /** the run's folder: checkpoints go to its epoch-<n>/ */
  runFolder: string;
  /** a checkpoint to continue from (its vocabulary and parameters); absent: from scratch */
  startDir?: string;
  /** the epochs alone, no self-training after them (a run timed before it is made, train-pace.ts) */
  withoutSelfTraining?: boolean;
}

export interface AlignRequest {
  type: 'align';
  modelDir: string;
  src: string[][];
  tgt: string[][];
  /** each pair's gold links (sure and possible) that the model may have trained on, empty where none */
  gold: LinkRef[][];
  /** gold links of the pairs the model never trained on (evaluation splits), which teach the link decision */
  heldOut: LinkRef[][];
  sym: string;
  /** where the embedding sessions run (the run's Train form setting) */
  device?: DeviceSetting;
}

export type NeuralTask = TrainRequest | AlignRequest;

/** An alignment's links (pair k's at index k, none for an empty side) and how they were decided: the symmetrisation heuristic's name, or 'learned decision' (aligner.ts). */
export interface NeuralAlignResult {
  links: Link[][];
  decidedBy: string;
}

/** What a training reports for its job to record; the fit loop's events with steps and epochs numbered over the run (self-training after training). */
export type NeuralReport =
  /** first, once the training set is read: the options completed as the run uses them, its configuration and the set's counts */
  | { type: 'setup'; options: TrainOptions; config: NeuralConfig; stats: RunStats }
  /** before each phase of a training: the first training (firstEpoch 0), then any self-training (firstEpoch = the first training's epochs) */
  | { type: 'plan'; stepsPerEpoch: number; epochs: number; firstEpoch: number }
  /** a continued training: the words of the data its checkpoint lacked, now in its vocabulary */
  | { type: 'vocabulary'; src: number; tgt: number }
  /** once the first training session opened: the device asked for and the provider that runs it */
  | ({ type: 'device' } & DeviceUse)
  | FitEvent;
