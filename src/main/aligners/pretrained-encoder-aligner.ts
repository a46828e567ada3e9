// The encoder family's aligner for `mekong align`: a pretrained encoder's folder
// (models/transformer/): --encoder DIR, --layer L (transformers' hidden_states numbering;
// default 8 of 12 layers, round(2/3·L) otherwise), --threshold (awesome: the softmax
// threshold), --device, their limits and defaults the family's options schema's
// (encoderOptionsSchema); no training, and no lexicon (the registry refuses `lexicon`).
import { ENCODER_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { encoderOptionsSchema } from '../../shared/aligner-options.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { alignWithEncoder } from '../models/transformer/encoder-aligner.ts';
import { defaultAlignLayer } from '../models/transformer/hf-config.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { TextAlignerFactory } from './text-aligner.ts';

/** --layer: a whole number (checked against the model when it is open). */
function layerOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--layer must be a whole number ≥ 0 (0 = the embeddings' output), got "${v}"`);
  return n;
}

export const pretrainedEncoderAligner: TextAlignerFactory = (name) => {
  const method = name as EncoderMethodName;
  return {
    async align(src, tgt, o, display) {
      if (o.threshold !== undefined && method !== 'awesome') throw new UserError(`--threshold is read by awesome only, not ${method}`);
      if (!o.encoder)
        throw new UserError(
          `${method} needs --encoder DIR: a local Hugging Face folder (config.json, tokenizer.json, model.safetensors or model.onnx)`,
        );
      const threshold = o.threshold === undefined ? ENCODER_DEFAULTS.threshold : Number(o.threshold);
      if (!encoderOptionsSchema.shape.threshold.safeParse(threshold).success)
        throw new UserError(`--threshold must be a number in (0, 1), got "${o.threshold}"`);
      const asked = layerOption(o.layer);
      const encoder = HfEncoder.open(o.encoder, { device: o.device });
      const layer = asked ?? defaultAlignLayer(encoder.config);
      console.info(
        `encoder: ${o.encoder} (${encoder.config.modelType}, ${encoder.config.layers} layers, ${encoder.backend === 'onnx' ? 'model.onnx' : 'model.safetensors'}), hidden state ${layer}`,
      );
      try {
        return await display(`aligning (${method}, layer ${layer})`, (ctx) =>
          alignWithEncoder(encoder, method, src, tgt, { layer, threshold, ctx }),
        );
      } finally {
        await encoder.release();
      }
    },
  };
};
