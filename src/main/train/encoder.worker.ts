// Worker thread of the jobs that run a pretrained or fine-tuned encoder (models/transformer/),
// whose ONNX sessions would block the server's thread: aligning pairs with an encoder folder
// (the Align job of the encoder methods, re-alignment with a fine-tuned checkpoint), and
// fine-tuning the project's encoder (finetune-job.ts), each checkpoint scored on the
// evaluation pairs (AER, precision, recall of the extraction the job names, over them). The job
// keeps the project: it sends plain data, and stores what this thread reports.
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { AlignedPair, Link } from '../../shared/domain.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { scoreAer } from '../eval/aer.ts';
import { withMessage } from '../jobs/job-context.ts';
import { serveWorker, type WorkerContext } from '../jobs/serve-worker.ts';
import { alignWithEncoder } from '../models/transformer/encoder-aligner.ts';
import { finetuneEncoder, type FinetuneOptions } from '../models/transformer/encoder-finetune.ts';
import { defaultAlignLayer } from '../models/transformer/hf-config.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { DeviceName } from '../nn/devices.ts';
import type { FitEvent, FitScore } from './fit-loop.ts';
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

/** Links of the pairs with the encoder in folder `t.dir`; the encoder's sessions are released before it returns. */
async function alignWithFolder(t: Omit<EncoderAlignTask, 'type'>, ctx: WorkerContext<EncoderReport>): Promise<EncoderAlignResult> {
  const encoder = HfEncoder.open(t.dir, { device: t.device });
  try {
    const layer = t.layer ?? defaultAlignLayer(encoder.config);
    const label = t.label ?? `aligning (${t.method}, hidden state ${layer})`;
    const links = await alignWithEncoder(encoder, t.method, t.src, t.tgt, {
      layer,
      ctx: withMessage(ctx, label),
    });
    return { links, layer, device: encoder.device };
  } finally {
    await encoder.release();
  }
}

/** AER / precision / recall of the checkpoint in `dir` on the evaluation pairs, or null without any. */
async function scoreCheckpoint(dir: string, t: FinetuneTask, epoch: number, ctx: WorkerContext<EncoderReport>): Promise<FitScore | null> {
  if (!t.eval.src.length) return null;
  const label = `epoch ${epoch}: scoring the checkpoint on ${t.eval.src.length} held-out pairs`;
  const { links } = await alignWithFolder(
    { dir, method: t.eval.method, device: t.options.device, src: t.eval.src, tgt: t.eval.tgt, label },
    ctx,
  );
  const s = scoreAer(
    t.eval.gold,
    links.map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
  );
  return { value: s.aer, metrics: { aer: s.aer, precision: s.precision, recall: s.recall } };
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
        score: (epoch) => scoreCheckpoint(dirOf(epoch), t, epoch, ctx),
      },
      onEvent: (e) => ctx.report(e),
    },
    ctx,
  );
  return { steps: result.steps, device: result.device, pairs: { gold: result.pairs.gold, model: result.pairs.model } };
}

serveWorker<EncoderTask, EncoderTaskResult, EncoderReport>((t, ctx) => (t.type === 'align' ? alignWithFolder(t, ctx) : finetune(t, ctx)));
