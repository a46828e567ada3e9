// Worker thread of the jobs that run a pretrained or fine-tuned encoder (models/transformer/),
// whose ONNX sessions would block the server's thread: aligning pairs with an encoder folder
// (the Align job of the encoder methods, re-alignment with a fine-tuned checkpoint), and
// fine-tuning the project's encoder (finetune-job.ts), each checkpoint scored on the
// evaluation pairs (AER, precision, recall of the extraction the job names, and sentence
// retrieval P@1 both ways: encoder-checkpoint-score.ts), ranked as the run selects. A
// fine-tuning reads its training set from the project file itself, so that the server's
// thread neither reads nor copies it; the job stores what this thread reports.
import { ENCODER_FINETUNE_DEFAULTS } from '../../shared/aligner-defaults.ts';
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { Link } from '../../shared/domain.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import { finetuneEncoder } from '../models/transformer/encoder-finetune.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { ProjectStore } from '../store/project-store.ts';
import type { RunStats } from '../store/training-runs.ts';
import { finetuneRunSetup, type FinetuneRunSetup } from './finetune-run-setup.ts';
import type { DeviceName } from '../nn/devices.ts';
import { alignWithFolder, scoreEncoderCheckpoint, type SimAlignSettings } from './encoder-checkpoint-score.ts';
import type { FitEvent } from './fit-loop.ts';
import { checkpointDir } from './run-files.ts';

export interface EncoderAlignTask {
  type: 'align';
  dir: string;
  method: EncoderMethodName;
  /** hidden state to align with; default the encoder's (defaultAlignLayer) */
  layer?: number;
  /** SimAlign's similarity unit, null-align share and distortion (defaults ENCODER_DEFAULTS) */
  simAlign?: SimAlignSettings;
  device?: DeviceSetting;
  src: string[][];
  tgt: string[][];
  /** the progress line's words for the work ("aligning (simalign, hidden state 8)" by default) */
  label?: string;
}

export interface EncoderAlignResult {
  links: Link[][];
  layer: number;
  device: string | null;
}

export interface FinetuneTask {
  type: 'finetune';
  /** the project file: this thread reads the training set from it (finetune-run-setup.ts) on a read-only connection of its own */
  projectPath: string;
  /** the run's options as the Train form sent them */
  options: TrainOptions;
  /** the encoder folder fine-tuned */
  encoder: string;
  /** the run's folder: checkpoint of epoch n in its epoch-<n>/ */
  runFolder: string;
  /** the extraction each checkpoint is scored with */
  method: EncoderMethodName;
}

export interface FinetuneTaskResult {
  steps: number;
  device: DeviceName;
  pairs: { gold: number; model: number };
}

export type EncoderTask = EncoderAlignTask | FinetuneTask;
export type EncoderTaskResult = EncoderAlignResult | FinetuneTaskResult;
/** A fine-tuning's events in order: first, once the training set is read, the options as the run uses them and the set's counts; then the fit loop's step and epoch events. */
export type EncoderReport = { type: 'setup'; options: TrainOptions; stats: RunStats } | FitEvent;

/** The run's setup, read from the project on a connection of this thread's own (reported before it trains). */
function setupOf(t: FinetuneTask, ctx: WorkerContext<EncoderReport>): FinetuneRunSetup {
  ctx.progress({ done: 0, total: 0, message: 'reading the pairs' });
  const store = ProjectStore.openReader(t.projectPath);
  try {
    const setup = finetuneRunSetup(store, t.options, t.encoder, t.runFolder, t.method);
    ctx.report({ type: 'setup', options: setup.options, stats: setup.stats });
    return setup;
  } finally {
    store.close();
  }
}

/** The align task: links of the pairs with the encoder folder it names. */
function alignTask(t: EncoderAlignTask, ctx: WorkerContext<EncoderReport>): Promise<EncoderAlignResult> {
  return alignWithFolder(t.dir, t.method, t.src, t.tgt, { layer: t.layer, ...t.simAlign, device: t.device, label: t.label }, ctx);
}

async function finetune(t: FinetuneTask, ctx: WorkerContext<EncoderReport>): Promise<FinetuneTaskResult> {
  const setup = setupOf(t, ctx);
  const options = setup.finetune;
  const epochs = options.epochs!;
  const dirOf = (epoch: number) => (epoch === epochs ? options.out : checkpointDir(t.runFolder, epoch));
  const result = await finetuneEncoder(
    {
      ...options,
      checkpoints: {
        every: setup.options.checkpointEvery,
        save: (epoch, m) => m.save(dirOf(epoch)),
        score: (epoch) =>
          scoreEncoderCheckpoint(
            dirOf(epoch),
            setup.eval,
            {
              selectBy: setup.selectBy,
              sentence: options.sentence ?? ENCODER_FINETUNE_DEFAULTS.sentence,
              layer: options.layer,
              device: options.device,
            },
            epoch,
            ctx,
          ),
      },
      onEvent: (e) => ctx.report(e),
    },
    ctx,
  );
  return { steps: result.steps, device: result.device, pairs: { gold: result.pairs.gold, model: result.pairs.model } };
}

serveWorker<EncoderTask, EncoderTaskResult, EncoderReport>((t, ctx) => (t.type === 'align' ? alignTask(t, ctx) : finetune(t, ctx)));
