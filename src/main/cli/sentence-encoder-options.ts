// The options by which `mekong eval retrieval` and `mekong mine` name a sentence encoder, and
// the vectors they give. --encoder KIND:DIR is a saved model of a family whose capabilities
// give sentence vectors (the registry's SIAMESE_HEAD lists the kinds); --pooling and --layer
// choose a Hugging Face encoder's sentence vector (models/siamese/sentence-encoders.ts);
// --head applies a saved siamese head on top (seed 004), whose folder names the encoder it was
// trained on, so --encoder may then be left out. The vectors are unit rows, so that a dot
// product is a cosine: the head's output, normalised unit/center/unit as it was trained
// (head.ts applyHead), or the encoder's own vectors scaled to unit length.
import { type Command, Option } from 'commander';
import { SIAMESE_HEAD, sentenceEncoderOf, sentenceEncoderSpecs } from '../aligners/registry.ts';
import { unitRows } from '../eval/csls.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { applyHead } from '../models/siamese/head.ts';
import type { SentencePooling, Side } from '../models/siamese/sentence-encoders.ts';
import { loadSiameseHead } from '../models/siamese/siamese-folder.ts';
import { UserError } from '../errors.ts';
import { numberOption } from './number-option.ts';
import { withProgressBar } from './progress-bar.ts';

export interface SentenceEncoderFlags {
  encoder?: string;
  pooling?: SentencePooling;
  layer?: string;
  head?: string;
}

/** Adds --encoder, --pooling, --layer and --head to a command. */
export function sentenceEncoderOptions(cmd: Command): Command {
  return cmd
    .option(
      '--encoder <kind:dir>',
      `the sentence encoder, a saved model of a family that gives sentence vectors: ${sentenceEncoderSpecs()} (hf: a Hugging Face encoder folder)`,
    )
    .addOption(
      new Option(
        '--pooling <how>',
        "hf: the sentence vector: the mean of the words' subwords at --layer (default), or the [CLS] state before any pooler",
      ).choices(['mean', 'cls']),
    )
    .option('--layer <n>', 'hf: the hidden state read (0 = embeddings; default: the last for cls, two thirds of the layers for mean)')
    .option('--head <dir>', 'a siamese head saved by `mekong siamese`, applied to the vectors (--encoder defaults to its encoder)');
}

/** An encoder ready to embed: unit vectors [sentences, dim] of one side. */
export interface UnitSentenceVectors {
  /** the encoder spec used (kind:DIR) */
  readonly spec: string;
  readonly dim: number;
  embed(side: Side, sentences: readonly string[][], ctx?: JobContext): Promise<Float32Array>;
  release(): Promise<void>;
}

/** The encoder named by the flags, with its head when one is given; a bad combination is a one-line error. */
async function openUnitSentenceVectors(o: SentenceEncoderFlags): Promise<UnitSentenceVectors> {
  const saved = o.head === undefined ? null : loadSiameseHead(o.head);
  const spec = o.encoder ?? saved?.encoder;
  if (spec === undefined)
    throw new UserError(`give the sentence encoder: --encoder ${sentenceEncoderSpecs()} (or a --head trained on one)`);
  if (saved && o.encoder !== undefined && o.encoder !== saved.encoder)
    process.stderr.write(`note: the head in ${o.head} was trained on ${saved.encoder}, applied here to ${o.encoder}\n`);
  const { family, dir } = sentenceEncoderOf(spec);
  const layer =
    o.layer === undefined ? undefined : numberOption('--layer', o.layer, (x) => Number.isInteger(x) && x >= 0, 'a layer number');
  const encoder = (await SIAMESE_HEAD.load()).openEncoder(family, dir, {
    pooling: o.pooling,
    layer,
    log: (line) => process.stderr.write(`${line}\n`),
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

/** Both sides' unit vectors by the encoder the flags name, with an "embedding" bar; the encoder is released after. */
export async function embedBothSides(
  o: SentenceEncoderFlags,
  src: readonly string[][],
  tgt: readonly string[][],
  signal: AbortSignal,
): Promise<{ x: Float32Array; y: Float32Array; dim: number; spec: string }> {
  const encoder = await openUnitSentenceVectors(o);
  try {
    return await withProgressBar(
      'embedding',
      async (bar) => ({ x: await encoder.embed(0, src, bar), y: await encoder.embed(1, tgt, bar), dim: encoder.dim, spec: encoder.spec }),
      signal,
    );
  } finally {
    await encoder.release();
  }
}
