// The options by which `mekong eval retrieval`, `mekong mine` and `mekong siamese` name a
// sentence encoder, and the vectors they give. --encoder KIND:DIR is a saved model of a family
// whose capabilities give sentence vectors (the registry's SIAMESE_HEAD lists the kinds);
// --pooling and --layer choose a Hugging Face encoder's sentence vector
// (models/siamese/sentence-encoders.ts); --head applies a saved siamese head on top (seed 004),
// whose folder names the encoder, pooling and layer it was trained on, so they may then be left
// out (models/siamese/headed-encoder.ts, which the app's Mine job uses too).
import { type Command, Option } from 'commander';
import { sentenceEncoderSpecs } from '../aligners/registry.ts';
import { openUnitSentenceVectors } from '../models/siamese/headed-encoder.ts';
import type { SentencePooling } from '../models/siamese/sentence-encoders.ts';
import { numberOption } from './number-option.ts';
import { withProgressBar } from './progress-bar.ts';

export interface SentenceEncoderFlags {
  encoder?: string;
  pooling?: SentencePooling;
  layer?: string;
  head?: string;
}

/**
 * Adds --encoder, --pooling, --layer and (unless `head` is false) --head to a command;
 * `meanLayer` says the default layer of mean pooling in the help.
 */
export function sentenceEncoderOptions(cmd: Command, o: { head?: boolean; meanLayer?: string } = {}): Command {
  cmd
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
    .option(
      '--layer <n>',
      `hf: the hidden state read (0 = embeddings; default: the last for cls, ${o.meanLayer ?? 'two thirds of the layers'} for mean${o.head === false ? '' : ", or the head's"})`,
    );
  return o.head === false
    ? cmd
    : cmd.option(
        '--head <dir>',
        'a siamese head saved by `mekong siamese`, applied to the vectors (--encoder, --pooling and --layer default to those it was trained on)',
      );
}

/** --layer as a number (undefined when not given); anything but a layer number is a one-line error. */
export const layerOption = (layer: string | undefined): number | undefined =>
  layer === undefined ? undefined : numberOption('--layer', layer, (x) => Number.isInteger(x) && x >= 0, 'a layer number');

/** Both sides' unit vectors by the encoder the flags name, with an "embedding" bar; the encoder is released after. */
export async function embedBothSides(
  o: SentenceEncoderFlags,
  src: readonly string[][],
  tgt: readonly string[][],
  signal: AbortSignal,
): Promise<{ x: Float32Array; y: Float32Array; dim: number; spec: string }> {
  const encoder = await openUnitSentenceVectors({ ...o, layer: layerOption(o.layer) }, (line) => process.stderr.write(`${line}\n`));
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
