// The Models page's fine-tuning run (issue 17: seed 000's TR / AWP / WTR and seed 001's RTL
// on the project's pretrained encoder, models/transformer/encoder-finetune.ts). The training
// set is the BiLSTM runs' (project-data.ts, not lowercased: encoders keep case): gold links of
// train-split pairs (and the pseudo alignment's and attached dictionaries' links where asked)
// supervise their pairs, rejected links are negatives, pairs without any learn from the
// encoder's own links of probability ≥ 0.9; dev/test pairs with gold are the evaluation
// set. The training runs in a worker thread (encoder.worker.ts: its ONNX sessions would
// block the server), which reads the training set itself (finetune-run-setup.ts); this job
// records what the worker reports: the run's options and counts, each step's loss, each
// epoch's mean loss, and each checkpoint — the fine-tuned encoder as a Hugging Face folder in
// the run's epoch-N folder, scored on the evaluation set (AER, precision, recall of
// awesome-align's extraction over it) as the BiLSTM's checkpoints are, so the Models page
// draws the same curves, and by sentence retrieval P@1; the run's best checkpoint is ranked
// by its `selectBy` (store/training-runs.ts bestCheckpoint). The papers' settings (length
// cap, step cap, gradient accumulation) pass through finetuneSettings as `mekong finetune`'s
// do; re-aligning with a checkpoint aligns the project with that folder (realign-job.ts), by
// the method the family's registry entry names (shared/methods.ts alignsWith). Both are the
// family's run jobs (aligners/registry.ts).
import { FAMILIES } from '../../shared/methods.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { type CheckpointInput, projectEncoderDir, type RunJobs } from '../aligners/app-jobs.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { type RunStats, setRunSetup } from '../store/training-runs.ts';
import type { EncoderAlignResult, EncoderReport, EncoderTask, FinetuneTaskResult } from './encoder.worker.ts';
import type { NeuralAlignResult } from './neural-protocol.ts';
import { bestDevScore, recordedRun, recordFitEvent } from './recorded-run.ts';
import { runDir } from './run-files.ts';

const ENCODER_WORKER = new URL('./encoder.worker.ts', import.meta.url);

/** The extraction a fine-tuned checkpoint aligns with. */
const ALIGNER = FAMILIES.finetune.alignsWith!;

/** Runs the job for a run created by createModelRun; returns a one-line summary. */
async function finetuneRun(store: ProjectStore, runId: number, options: TrainOptions, ctx: JobContext): Promise<string> {
  return recordedRun(store, runId, ctx.signal, async (metrics) => {
    const encoder = projectEncoderDir(store);
    let o = options;
    let stats: RunStats | undefined;
    const onReport = (e: EncoderReport) => {
      if (e.type !== 'setup') return recordFitEvent(store, runId, metrics, e);
      ({ options: o, stats } = e);
      setRunSetup(store, runId, o, stats);
    };
    const task: EncoderTask = {
      type: 'finetune',
      projectPath: store.path,
      options,
      encoder,
      runFolder: runDir(store.path, runId),
      method: ALIGNER,
    };
    const result = await runInWorker<EncoderTask, FinetuneTaskResult, EncoderReport>(ENCODER_WORKER, task, ctx, { onReport });
    stats = { ...stats!, device: { requested: o.device, used: result.device } };
    setRunSetup(store, runId, o, stats);
    return `fine-tuned ${encoder} (run ${runId}): ${o.epochs} epochs, ${result.steps} steps on ${result.device}; ${result.pairs.gold} pairs with gold or pseudo links, ${result.pairs.model} with the encoder's own links${bestDevScore(store, runId)}`;
  });
}

/** A fine-tuned checkpoint's links (the family's extraction over its folder), in a worker thread. */
async function alignFinetunedCheckpoint({ modelDir, corpus, options }: CheckpointInput, ctx: JobContext): Promise<NeuralAlignResult> {
  const task: EncoderTask = {
    type: 'align',
    dir: modelDir,
    method: ALIGNER,
    device: options.device,
    src: corpus.src,
    tgt: corpus.tgt,
    label: 'aligning',
  };
  const r = await runInWorker<EncoderTask, EncoderAlignResult>(ENCODER_WORKER, task, ctx);
  return { links: r.links, decidedBy: `${ALIGNER} layer ${r.layer}` };
}

export const finetuneRunJobs: RunJobs = { train: finetuneRun, alignCheckpoint: alignFinetunedCheckpoint };
