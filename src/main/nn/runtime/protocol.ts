// The training-job contract shared by the main thread and the training worker: what a
// job is, the recipe module a job names (it builds the graph and supplies batches, since
// functions cannot cross threads), and the messages both ways.
import type { DeviceSetting } from '../devices.ts';
import type { Graph, Value } from '../graph.ts';
import type { Rng } from '../init.ts';
import type { Feeds } from '../session.ts';
import type { TrainerOptions } from './trainer.ts';

/** Default export of a recipe module. */
export interface Recipe<C = unknown> {
  build(config: C, rng: Rng): { graph: Graph; loss: Value };
  /** The batch for a step; derive it from `step` (not only `rng`) so a resumed run sees the same data. */
  batch(config: C, step: number, rng: Rng): Feeds | Promise<Feeds>;
  options(config: C): Omit<TrainerOptions, 'device' | 'threads' | 'log'>;
  /** Examples per batch, for throughput (default 1). */
  examplesPerStep?(config: C): number;
}

export interface TrainJob<C = unknown> {
  /** URL (href) of the recipe module. */
  recipe: string;
  config: C;
  steps: number;
  seed?: number;
  /** One thread and a fixed seed: bit-identical runs (tests). */
  deterministic?: boolean;
  device?: DeviceSetting;
  /** Save a checkpoint here every `checkpointEvery` steps and at the end. */
  checkpointDir?: string;
  checkpointEvery?: number;
  /** Continue from this checkpoint folder. */
  resumeFrom?: string;
}

export interface Progress {
  step: number;
  total: number;
  loss: number;
  stepsPerSecond: number;
  examplesPerSecond: number;
  etaSeconds: number;
}

export type Control = { type: 'start'; job: TrainJob } | { type: 'pause' } | { type: 'resume' } | { type: 'cancel' };

export type Report =
  | ({ type: 'progress' } & Progress)
  | { type: 'log'; line: string }
  | { type: 'done'; step: number; loss: number; losses: number[] }
  | { type: 'cancelled'; step: number; losses: number[] }
  | { type: 'error'; message: string };
