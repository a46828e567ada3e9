// encoder-finetune's settings from its options (finetuneOptionsSchema,
// shared/aligner-options.ts), the one place both `mekong finetune` and the Models page's
// fine-tuning runs turn them into finetuneEncoder's options (models/transformer/encoder-finetune.ts);
// an option left out takes the schema's default there.
import { type EncoderFinetuneOptions, finetuneOptionsSchema } from '../../shared/aligner-options.ts';
import type { FinetuneOptions } from '../models/transformer/encoder-finetune.ts';

type Settings = Pick<FinetuneOptions, keyof EncoderFinetuneOptions & keyof FinetuneOptions>;

/** The schema's options among `o`, as finetuneEncoder reads them. */
export function finetuneSettings(o: Partial<EncoderFinetuneOptions>): Settings {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(finetuneOptionsSchema.shape) as (keyof EncoderFinetuneOptions)[])
    if (o[key] !== undefined) out[key] = o[key];
  return out as Settings;
}
