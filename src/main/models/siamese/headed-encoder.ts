// A sentence encoder with, optionally, a saved siamese head on top: the one way the CLI
// (`eval retrieval`, `mine`: cli/sentence-encoder-options.ts) and the app's Mine job
// (train/curation.worker.ts) turn sentences into the vectors they compare. The encoder is
// `kind:DIR` (sentence-encoders.ts); a head folder (siamese-folder.ts) names the encoder it
// was trained on, so the encoder may be left out, and for a Hugging Face encoder the pooling
// and layer it was trained on, which are then the defaults. The vectors are unit rows, so that
// a dot product is a cosine: the head's output, normalised unit/center/unit as it was trained
// (head.ts applyHead), or the encoder's own vectors scaled to unit length.
import { SIAMESE_HEAD, sentenceEncoderOf, sentenceEncoderSpecs } from '../../aligners/registry.ts';
import { UserError } from '../../errors.ts';
import { unitRows } from '../../eval/csls.ts';
import type { JobContext } from '../../jobs/job-context.ts';
import { applyHead } from './head.ts';
import type { SentencePooling, Side } from './sentence-encoders.ts';
import { loadSiameseHead } from './siamese-folder.ts';

export interface SentenceVectorChoice {
  /** kind:DIR; default: the head's encoder */
  encoder?: string;
  /** a Hugging Face encoder's pooling and layer; default: the head's, else the encoder's defaults */
  pooling?: SentencePooling;
  layer?: number;
  /** a saved siamese head folder */
  head?: string;
}

/** An encoder ready to embed: unit vectors [sentences, dim] of one side. */
export interface UnitSentenceVectors {
  /** the encoder spec used (kind:DIR) */
  readonly spec: string;
  readonly dim: number;
  embed(side: Side, sentences: readonly string[][], ctx?: JobContext): Promise<Float32Array>;
  release(): Promise<void>;
}

/** The encoder chosen, with its head when one is given; a bad combination is a one-line error, a mismatch with the head a note to `log`. */
export async function openUnitSentenceVectors(o: SentenceVectorChoice, log: (line: string) => void): Promise<UnitSentenceVectors> {
  const saved = o.head === undefined ? null : loadSiameseHead(o.head);
  const spec = o.encoder ?? saved?.encoder;
  if (spec === undefined)
    throw new UserError(`give the sentence encoder: --encoder ${sentenceEncoderSpecs()} (or a --head trained on one)`);
  if (saved && o.encoder !== undefined && o.encoder !== saved.encoder)
    log(`note: the head in ${o.head} was trained on ${saved.encoder}, applied here to ${o.encoder}`);
  const trained = saved?.vectors;
  if (trained && o.pooling !== undefined && o.pooling !== trained.pooling)
    log(`note: the head in ${o.head} was trained on --pooling ${trained.pooling}, applied here to --pooling ${o.pooling}`);
  if (trained && o.layer !== undefined && o.layer !== trained.layer)
    log(`note: the head in ${o.head} was trained on --layer ${trained.layer}, applied here to --layer ${o.layer}`);
  const { family, dir } = sentenceEncoderOf(spec);
  const encoder = (await SIAMESE_HEAD.load()).openEncoder(family, dir, {
    pooling: o.pooling ?? trained?.pooling,
    layer: o.layer ?? trained?.layer,
    log,
  });
  if (saved && saved.head.dim !== encoder.dim) {
    await encoder.release();
    throw new UserError(`${o.head}: the head takes ${saved.head.dim}-dimensional vectors but ${spec} gives ${encoder.dim}`);
  }
  return {
    spec,
    dim: encoder.dim,
    async embed(side, sentences, ctx) {
      const v = await encoder.embed(side, sentences, ctx);
      return saved ? applyHead(saved.head, v) : unitRows(v, encoder.dim);
    },
    release: () => encoder.release(),
  };
}
