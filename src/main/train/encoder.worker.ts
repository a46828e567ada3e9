// Worker thread of the jobs that run a pretrained or fine-tuned encoder (models/transformer/),
// whose ONNX sessions would block the server's thread: aligning pairs with an encoder folder
// (the Align job of the encoder methods, re-alignment with a fine-tuned checkpoint), and
// fine-tuning the project's encoder (finetune-job.ts), each checkpoint scored on the
// evaluation pairs (AER, precision, recall of the extraction the job names, and sentence
// retrieval P@1 both ways: encoder-checkpoint-score.ts), ranked as the run selects. The job
// keeps the project: it sends plain data, and stores what this thread reports.
import { ENCODER_FINETUNE_DEFAULTS } from '../../shared/aligner-defaults.ts';
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { AlignedPair, Link } from '../../shared/domain.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import { finetuneEncoder, type FinetuneOptions } from '../models/transformer/encoder-finetune.ts';
import type { DeviceName } from '../nn/devices.ts';
import { alignWithFolder, type SelectBy, scoreEncoderCheckpoint } from './encoder-checkpoint-score.ts';
import type { FitEvent } from './fit-loop.ts';
import { checkpointDir } from './run-files.ts';

export interface EncoderAlignTask {
  type: 'align';
  dir: string;
  method: EncoderMethodName;
  /** hidden state to align with; default the encoder's (defaultAlignLayer) */
  layer?: number;
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
  /** finetuneEncoder's options, without the callbacks and checkpoints this thread supplies */
  options: Omit<FinetuneOptions, 'checkpoints' | 'onEvent'>;
  /** the run's folder: checkpoint of epoch n in its epoch-<n>/ (the last one is `options.out`) */
  runFolder: string;
  checkpointEvery: number;
  /** pairs each checkpoint is scored on, their gold, and the extraction that aligns them */
  eval: { src: string[][]; tgt: string[][]; gold: AlignedPair[]; method: EncoderMethodName };
  /** what ranks the checkpoints (default AER) */
  selectBy?: SelectBy;
}

export interface FinetuneTaskResult {
  steps: number;
  device: DeviceName;
  pairs: { gold: number; model: number };
}

export type EncoderTask = EncoderAlignTask | FinetuneTask;
export type EncoderTaskResult = EncoderAlignResult | FinetuneTaskResult;
/** A fine-tuning's step and epoch events (the fit loop's), in order. */
export type EncoderReport = FitEvent;

/** The align task: links of the pairs with the encoder folder it names. */
function alignTask(t: EncoderAlignTask, ctx: WorkerContext<EncoderReport>): Promise<EncoderAlignResult> {
  return alignWithFolder(t.dir, t.method, t.src, t.tgt, { layer: t.layer, device: t.device, label: t.label }, ctx);
}

async function finetune(t: FinetuneTask, ctx: WorkerContext<EncoderReport>): Promise<FinetuneTaskResult> {
  const epochs = t.options.epochs!;
  const dirOf = (epoch: number) => (epoch === epochs ? t.options.out : checkpointDir(t.runFolder, epoch));
  const result = await finetuneEncoder(
    {
      ...t.options,
      checkpoints: {
        every: t.checkpointEvery,
        save: (epoch, m) => m.save(dirOf(epoch)),
        score: (epoch) =>
          scoreEncoderCheckpoint(
            dirOf(epoch),
            t.eval,
            {
              selectBy: t.selectBy ?? 'aer',
              sentence: t.options.sentence ?? ENCODER_FINETUNE_DEFAULTS.sentence,
              layer: t.options.layer,
              device: t.options.device,
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
