// The encoder family's aligner for `mekong align`: a pretrained encoder's folder
// (models/transformer/): --encoder DIR, --layer L (transformers' hidden_states numbering;
// default 8 of 12 layers, round(2/3·L) otherwise), --threshold (awesome: the softmax
// threshold, default 0.001), --device; no training, and no lexicon (the registry refuses `lexicon`).
import type { EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { alignWithEncoder, AWESOME_THRESHOLD } from '../models/transformer/encoder-aligner.ts';
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
      const threshold = o.threshold === undefined ? AWESOME_THRESHOLD : Number(o.threshold);
      if (!(threshold > 0 && threshold < 1)) throw new UserError(`--threshold must be a number in (0, 1), got "${o.threshold}"`);
      const asked = layerOption(o.layer);
      const encoder = HfEncoder.open(o.encoder, { device: o.device });
      const layer = asked ?? defaultAlignLayer(encoder.config);
      console.info(
        `encoder: ${o.encoder} (${encoder.config.modelType}, ${encoder.config.layers} layers, ${encoder.backend === 'onnx' ? 'model.onnx' : 'model.safetensors'}), hidden state ${layer}`,
      );
      const bar = display(`aligning (${method}, layer ${layer})`);
      try {
        return await alignWithEncoder(encoder, method, src, tgt, { layer, threshold, onProgress: (d, n) => bar.progress(d, n) });
      } finally {
        bar.stop();
        await encoder.release();
      }
    },
  };
};
