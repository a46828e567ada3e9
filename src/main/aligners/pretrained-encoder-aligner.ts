// The encoder family's aligner for `mekong align`: a pretrained encoder's folder
// (models/transformer/): --encoder DIR, --layer L (transformers' hidden_states numbering;
// default 8 of 12 layers, round(2/3·L) otherwise), --threshold (awesome: the softmax
// threshold), SimAlign's --token-type bpe|word, --null-align p and --distortion k, --device,
// their limits and defaults the family's options schema's (encoderOptionsSchema); no
// training, and no lexicon (the registry refuses `lexicon`).
import { ENCODER_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { encoderOptionsSchema, TOKEN_TYPES } from '../../shared/aligner-options.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { alignWithEncoder } from '../models/transformer/encoder-aligner.ts';
import { defaultAlignLayer } from '../models/transformer/hf-config.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { AlignerOptions, TextAlignerFactory } from './text-aligner.ts';

/** --layer: a whole number (checked against the model when it is open). */
function layerOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--layer must be a whole number ≥ 0 (0 = the embeddings' output), got "${v}"`);
  return n;
}

/** SimAlign's options: each refused for the other methods, checked against the schema's limits. */
function simAlignOptions(method: EncoderMethodName, o: AlignerOptions) {
  const flags = { tokenType: '--token-type', nullAlign: '--null-align', distortion: '--distortion' } as const;
  const given = (Object.keys(flags) as (keyof typeof flags)[]).find((k) => o[k] !== undefined);
  if (given && !method.startsWith('simalign-'))
    throw new UserError(
      `${flags[given]} is read by the SimAlign methods only (simalign-argmax, simalign-itermax, simalign-match), not ${method}`,
    );
  const tokenType = o.tokenType ?? ENCODER_DEFAULTS.tokenType;
  if (!(TOKEN_TYPES as readonly string[]).includes(tokenType))
    throw new UserError(`--token-type must be ${TOKEN_TYPES.join(' or ')}, got "${o.tokenType}"`);
  const share = (flag: string, v: string | undefined, fallback: number, what: string) => {
    const n = v === undefined ? fallback : Number(v);
    if (v !== undefined && (v.trim() === '' || !(n >= 0 && n <= 1))) throw new UserError(`${flag} must be ${what}, got "${v}"`);
    return n;
  };
  return {
    tokenType: tokenType as (typeof TOKEN_TYPES)[number],
    nullAlign: share('--null-align', o.nullAlign, ENCODER_DEFAULTS.nullAlign, 'a share in [0, 1] (1: no link removed)'),
    distortion: share('--distortion', o.distortion, ENCODER_DEFAULTS.distortion, 'a number in [0, 1] (0: none)'),
  };
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
      const simAlign = simAlignOptions(method, o);
      const asked = layerOption(o.layer);
      const encoder = HfEncoder.open(o.encoder, { device: o.device });
      const layer = asked ?? defaultAlignLayer(encoder.config);
      console.info(
        `encoder: ${o.encoder} (${encoder.config.modelType}, ${encoder.config.layers} layers, ${encoder.backend === 'onnx' ? 'model.onnx' : 'model.safetensors'}), hidden state ${layer}`,
      );
      try {
        return await display(`aligning (${method}, layer ${layer})`, (ctx) =>
          alignWithEncoder(encoder, method, src, tgt, { layer, threshold, ...simAlign, ctx }),
        );
      } finally {
        await encoder.release();
      }
    },
  };
};
