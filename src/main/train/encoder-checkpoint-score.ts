// How a fine-tuned encoder's checkpoint (a Hugging Face folder) is scored on held-out dev
// pairs, for the Models page's runs (encoder.worker.ts) and `mekong finetune --dev-src`:
// - AER / precision / recall of the family's extraction over the pairs with gold;
// - sentence retrieval P@1 both ways, Tatoeba's protocol (pair i of the two sides is the
//   answer, cosine of unit vectors), by the code of `mekong eval retrieval`: the encoder
//   family's sentence vectors (models/siamese/sentence-encoders.ts) at the pooling and
//   hidden state TR trains, made unit length, ranked by eval/retrieval.ts.
// The checkpoint's rank (FitScore.value, lower is better) is its AER or 1 − the mean P@1 of
// the two directions, as the run selects; both figures go to the curves when they exist.
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { AlignedPair, Link } from '../../shared/domain.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { scoreAer } from '../eval/aer.ts';
import { unitRows } from '../eval/csls.ts';
import { retrievalAccuracy } from '../eval/retrieval.ts';
import { type JobContext, withMessage } from '../jobs/job-context.ts';
import { openSentenceEncoder } from '../models/siamese/sentence-encoders.ts';
import { alignWithEncoder, type EncoderAlignOptions } from '../models/transformer/encoder-aligner.ts';
import { defaultAlignLayer, readEncoderConfig } from '../models/transformer/hf-config.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { FitScore } from './fit-loop.ts';
import type { SelectBy } from '../../shared/models-api.ts';

export type { SelectBy } from '../../shared/models-api.ts';

/** The held-out pairs a checkpoint is scored on. */
export interface DevPairs {
  src: string[][];
  tgt: string[][];
  /** gold links per pair, for AER (null: no AER) */
  gold: AlignedPair[] | null;
  /** the extraction that aligns them for AER */
  method: EncoderMethodName;
}

export interface CheckpointScoring {
  selectBy: SelectBy;
  /** the sentence vector retrieval reads: TR's pooling and hidden state (absent: the last) */
  sentence: 'cls' | 'mean';
  layer?: number;
  device?: DeviceSetting;
}

/** SimAlign's similarity unit, null-align share and distortion (left out: ENCODER_DEFAULTS). */
export type SimAlignSettings = Pick<EncoderAlignOptions, 'tokenType' | 'nullAlign' | 'distortion'>;

/** Links of the pairs aligned by the encoder in folder `dir`; its sessions are released before it returns. */
export async function alignWithFolder(
  dir: string,
  method: EncoderMethodName,
  src: string[][],
  tgt: string[][],
  o: { layer?: number; device?: DeviceSetting; label?: string } & SimAlignSettings,
  ctx: JobContext,
): Promise<{ links: Link[][]; layer: number; device: string | null }> {
  const encoder = HfEncoder.open(dir, { device: o.device });
  try {
    const layer = o.layer ?? defaultAlignLayer(encoder.config);
    const label = o.label ?? `aligning (${method}, hidden state ${layer})`;
    const links = await alignWithEncoder(encoder, method, src, tgt, {
      layer,
      tokenType: o.tokenType,
      nullAlign: o.nullAlign,
      distortion: o.distortion,
      ctx: withMessage(ctx, label),
    });
    return { links, layer, device: encoder.device };
  } finally {
    await encoder.release();
  }
}

/** P@1 from source to target and back, and their mean, of the encoder in `dir` on the pairs. */
export async function retrievalP1(
  dir: string,
  src: readonly string[][],
  tgt: readonly string[][],
  o: { sentence: 'cls' | 'mean'; layer?: number },
  ctx?: JobContext,
): Promise<{ srcTgt: number; tgtSrc: number; mean: number }> {
  const layer = o.layer ?? readEncoderConfig(dir).layers;
  const encoder = openSentenceEncoder('encoder', dir, { pooling: o.sentence, layer, log: () => {} });
  try {
    const x = unitRows(await encoder.embed(0, src, ctx), encoder.dim);
    const y = unitRows(await encoder.embed(1, tgt, ctx), encoder.dim);
    const r = await retrievalAccuracy(x, y, encoder.dim, [1], ctx);
    return { srcTgt: r.forward[1], tgtSrc: r.backward[1], mean: (r.forward[1] + r.backward[1]) / 2 };
  } finally {
    await encoder.release();
  }
}

/** The checkpoint in `dir` scored on `dev` (see the header), or null when there is nothing to score it on. */
export async function scoreEncoderCheckpoint(
  dir: string,
  dev: DevPairs,
  o: CheckpointScoring,
  epoch: number,
  ctx: JobContext,
): Promise<FitScore | null> {
  if (!dev.src.length) return null;
  const metrics: Record<string, number> = {};
  if (dev.gold?.length) {
    const label = `epoch ${epoch}: aligning ${dev.src.length} held-out pairs`;
    const { links } = await alignWithFolder(dir, dev.method, dev.src, dev.tgt, { device: o.device, label }, ctx);
    const s = scoreAer(
      dev.gold,
      links.map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
    );
    Object.assign(metrics, { aer: s.aer, precision: s.precision, recall: s.recall });
  }
  const p1 = await retrievalP1(dir, dev.src, dev.tgt, o, withMessage(ctx, `epoch ${epoch}: retrieval on ${dev.src.length} held-out pairs`));
  Object.assign(metrics, { retrieval_p1: p1.mean, retrieval_p1_src_tgt: p1.srcTgt, retrieval_p1_tgt_src: p1.tgtSrc });
  const value = o.selectBy === 'aer' && metrics.aer !== undefined ? metrics.aer : 1 - p1.mean;
  return { value, metrics };
}
