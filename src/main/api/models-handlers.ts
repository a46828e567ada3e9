// The Models page's API handlers (spread into handlers.ts): training runs of the neural
// aligner on the project, their curves and checkpoints, re-alignment with a checkpoint,
// deleting a model with its files; the siamese heads the project recorded (store/siamese-heads.ts). Long work runs as jobs (train/train-job.ts,
// train/realign-job.ts); these handlers check the input first, so bad input is a clear
// error at once rather than a failed job.
import type { z } from 'zod';
import { type CheckpointInfo, type modelsChannels, type ModelsResults, type TrainOptions } from '../../shared/models-api.ts';
import { capabilitiesOf, TRAINABLE_METHODS } from '../../shared/methods.ts';
import { projectEncoderDir } from '../aligners/app-jobs.ts';
import { runJobsOf } from '../aligners/registry.ts';
import { symmetriser } from '../align/symmetrise.ts';
import { UserError } from '../errors.ts';
import { countPairs } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import {
  bestCheckpointOfRun,
  checkpointsOf,
  createModelRun,
  createRun,
  deleteModelRows,
  getRun,
  listModels,
  metricsOf,
  runsOfModel,
} from '../store/training-runs.ts';
import { jobOf, jobUsing, trackJob } from '../train/active-jobs.ts';
import { realignRun } from '../train/realign-job.ts';
import { removeRunFiles } from '../train/run-files.ts';
import { openProject, type AppContext } from './app-context.ts';
import { alignmentExists } from '../store/alignments.ts';
import { recordedHeads } from '../store/siamese-heads.ts';
import { describeHead } from '../models/siamese/head-mining.ts';

type Channel = keyof ModelsResults;
type Handler<C extends Channel> = (
  ctx: AppContext,
  input: z.infer<(typeof modelsChannels)[C]>,
) => ModelsResults[C] | Promise<ModelsResults[C]>;

const store = openProject;

/** The run's checkpoint at `epoch`, or its best when no epoch is given. */
function checkpoint(s: ProjectStore, runId: number, epoch: number | undefined): CheckpointInfo {
  getRun(s, runId);
  const checkpoints = checkpointsOf(s, runId);
  const chosen = epoch === undefined ? bestCheckpointOfRun(s, runId) : checkpoints.find((c) => c.epoch === epoch);
  if (!chosen) {
    const have = checkpoints.map((c) => c.epoch).join(', ') || 'none yet';
    throw new UserError(`run ${runId} has no checkpoint${epoch === undefined ? '' : ` at epoch ${epoch}`} (saved epochs: ${have})`);
  }
  return chosen;
}

interface NewRun {
  modelId: number;
  runId: number;
  /** the options the run trains with */
  options: TrainOptions;
}

/** A new run of the model whose checkpoint `o.startFrom` names: what the checkpoint fixes must match. */
function continuedRun(s: ProjectStore, o: TrainOptions & { startFrom: { runId: number; epoch: number } }): NewRun {
  checkpoint(s, o.startFrom.runId, o.startFrom.epoch);
  const from = getRun(s, o.startFrom.runId);
  const fixed = JSON.parse(from.config) as TrainOptions;
  for (const key of ['method', 'dim', 'lowercase'] as const) {
    if (o[key] !== undefined && o[key] !== fixed[key]) {
      throw new UserError(`${key} is fixed by the checkpoint of run ${from.id} (${String(fixed[key])}); got ${String(o[key])}`);
    }
  }
  const options = { ...o, dim: fixed.dim };
  return { modelId: from.model_id, runId: createRun(s, from.model_id, options), options };
}

export const modelsHandlers: { [C in Channel]: Handler<C> } = {
  'models.heads': (ctx) => ({ heads: recordedHeads(store(ctx)).map(describeHead) }),
  'models.list': (ctx) => {
    const s = store(ctx);
    return { models: listModels(s, (runId, kind) => jobOf(s, runId, kind)), methods: [...TRAINABLE_METHODS] };
  },
  'models.train': (ctx, o) => {
    const s = store(ctx);
    if (!countPairs(s, {})) throw new UserError('the project has no sentence pairs to train on (import a corpus first)');
    if (o.pseudoAlignmentId !== undefined && !alignmentExists(s, o.pseudoAlignmentId)) {
      throw new UserError(`no alignment ${o.pseudoAlignmentId} in this project`);
    }
    const can = capabilitiesOf(o.method);
    if (can.pretrainedEncoder) projectEncoderDir(s);
    if (o.startFrom && !can.continue)
      throw new UserError('a fine-tuning run starts from the project encoder; continuing from a checkpoint is for BiLSTM runs');
    const name = o.name ?? `${o.method} ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const { modelId, runId, options } = o.startFrom
      ? continuedRun(s, { ...o, startFrom: o.startFrom })
      : { ...createModelRun(s, name, o), options: o };
    const job = ctx.jobs.start('train', async (job) => (await runJobsOf(options.method)).train(s, runId, options, job));
    trackJob(s, runId, 'train', job);
    return { jobId: job.jobId, modelId, runId };
  },
  'models.timeRun': (ctx, o) => {
    const s = store(ctx);
    if (!countPairs(s, {})) throw new UserError('the project has no sentence pairs to train on (import a corpus first)');
    if (capabilitiesOf(o.method).pretrainedEncoder)
      throw new UserError(`timing a run before it starts is for the BiLSTM methods, not ${o.method}`);
    const { jobId } = ctx.jobs.start('train-pace', async (job) => {
      // Loaded when used: the training worker's modules stay out of every other call.
      const { measureTrainPace } = await import('../train/train-pace.ts');
      const pace = await measureTrainPace(s, o, job);
      return {
        message: `${pace.secondsPerStep.toFixed(3)} s a step over ${pace.measuredSteps} steps`,
        result: { kind: 'trainPace', ...pace },
      };
    });
    return { jobId };
  },
  'models.metrics': (ctx, i) => {
    const s = store(ctx);
    return { runId: i.runId, state: getRun(s, i.runId).state, points: metricsOf(s, i.runId) };
  },
  'models.realign': (ctx, i) => {
    const s = store(ctx);
    symmetriser(i.sym);
    const chosen = checkpoint(s, i.runId, i.epoch);
    const job = ctx.jobs.start('realign', (job) =>
      realignRun(s, { runId: i.runId, epoch: chosen.epoch, sym: i.sym, calibrate: i.calibrate }, job),
    );
    trackJob(s, i.runId, 'realign', job);
    return { jobId: job.jobId };
  },
  'models.delete': (ctx, i) => {
    const s = store(ctx);
    const runs = runsOfModel(s, i.modelId);
    const busy = jobUsing(
      s,
      runs.map((r) => r.id),
    );
    if (busy || runs.some((r) => r.state === 'running')) {
      throw new UserError(
        `model ${i.modelId} is in use by a ${busy?.kind === 'realign' ? 're-alignment' : 'training'} job; cancel it or wait for it to finish`,
      );
    }
    deleteModelRows(s, i.modelId);
    for (const r of runs) removeRunFiles(s.path, r.id);
    return null;
  },
};
