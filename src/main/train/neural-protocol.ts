// Messages between the Models page's jobs (main thread) and their worker thread
// (neural.worker.ts), which trains a run or aligns with a saved checkpoint. Cancel goes
// through shared memory (cancel[0] = 1), not a message: a worker busy in ONNX sessions
// reads it between steps without returning to its event loop.
import type { Link } from '../../shared/domain.ts';
import type { NeuralConfig, TrainData } from '../models/bilstm/train.ts';
import type { AerScore } from '../eval/aer.ts';
import type { AlignedPair } from '../../shared/domain.ts';
import type { DeviceSetting, DeviceUse } from '../../shared/device-settings.ts';

export interface TrainRequest {
  type: 'train';
  data: TrainData;
  config: NeuralConfig;
  /** pairs scored at each checkpoint (aligner.ts extraction, gdfa, against their gold) */
  eval: { src: string[][]; tgt: string[][]; gold: AlignedPair[] };
  /** the run's folder: checkpoints go to its epoch-<n>/ */
  runFolder: string;
  checkpointEvery: number;
  /** a checkpoint to continue from (its vocabulary and parameters); absent: from scratch */
  startDir?: string;
  /** after the training, `selfTrain.config.epochs` more of self-training (method.ts): the
   *  model's own links at or above `threshold` supervise the pairs without gold, except
   *  those of `skip` (the evaluation pairs) */
  selfTrain?: { config: NeuralConfig; threshold: number; skip: number[] };
  cancel: SharedArrayBuffer;
}

export interface AlignRequest {
  type: 'align';
  modelDir: string;
  src: string[][];
  tgt: string[][];
  /** each pair's gold links (sure and possible) that the model may have trained on, empty where none */
  gold: { s: number; t: number }[][];
  /** gold links of the pairs the model never trained on (evaluation splits), which teach the link decision */
  heldOut: { s: number; t: number }[][];
  sym: string;
  /** where the embedding sessions run (the run's Train form setting) */
  device?: DeviceSetting;
  cancel: SharedArrayBuffer;
}

export type WorkerRequest = TrainRequest | AlignRequest;

/** `step` counts optimiser steps done (1-based); epochs are 1-based. */
export type WorkerReport =
  /** before each phase of a training: the first training (firstEpoch 0), then any self-training (firstEpoch = the first training's epochs) */
  | { type: 'plan'; stepsPerEpoch: number; epochs: number; firstEpoch: number }
  /** a continued training: the words of the data its checkpoint lacked, now in its vocabulary */
  | { type: 'vocabulary'; src: number; tgt: number }
  /** once the first training session opened: the device asked for and the provider that runs it */
  | ({ type: 'device' } & DeviceUse)
  | { type: 'step'; step: number; loss: number }
  | { type: 'epoch'; epoch: number; step: number; loss: number; saved: boolean; score: AerScore | null }
  | { type: 'aligned'; done: number; total: number }
  /** after the embeddings: the extraction's phases (EM passes, pairs linked) */
  | { type: 'linking'; done: number; total: number; phase: string }
  /** `decidedBy`: the symmetrisation heuristic's name, or 'learned decision' (aligner.ts) */
  | { type: 'links'; links: Link[][]; decidedBy: string }
  | { type: 'done' }
  | { type: 'cancelled' }
  | { type: 'error'; message: string };

export const cancelFlag = (): SharedArrayBuffer => new SharedArrayBuffer(4);
export const isCancelled = (flag: SharedArrayBuffer): boolean => Atomics.load(new Int32Array(flag), 0) === 1;
export const setCancelled = (flag: SharedArrayBuffer): void => void Atomics.store(new Int32Array(flag), 0, 1);
