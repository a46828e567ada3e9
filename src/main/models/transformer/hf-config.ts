// config.json of a Hugging Face encoder folder (BertModel, XLMRobertaModel, LaBSE, which is
// a BertModel): the architecture fields our graph (encoder-graph.ts) rebuilds, checked here so
// an unsupported model is refused in one line naming the file and the field, before any
// weight is read. Supported: model_type bert / xlm-roberta / roberta (RoBERTa is XLM-R's
// architecture), absolute position embeddings, post-LayerNorm (every BertModel-family
// encoder), activation gelu (the exact erf form, as transformers' "gelu") or relu.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../errors.ts';
import { CONFIG_FILE, readFolderConfig } from '../../nn/model-folder.ts';

export type EncoderFamily = 'bert' | 'roberta';

export interface EncoderConfig {
  modelType: string;
  /** bert: positions 0…T−1; roberta (XLM-R): padding_idx+1…, padding at padding_idx, as transformers numbers them */
  family: EncoderFamily;
  vocabSize: number;
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  maxPositions: number;
  typeVocab: number;
  layerNormEps: number;
  padId: number;
  activation: 'gelu' | 'relu';
  /** training dropout rates: hidden_dropout_prob (embeddings, attention and feed-forward outputs) and attention_probs_dropout_prob (transformers' default 0.1 each) */
  hiddenDropout: number;
  attentionDropout: number;
}

const FAMILY: Readonly<Record<string, EncoderFamily>> = { bert: 'bert', 'xlm-roberta': 'roberta', roberta: 'roberta' };
const ACTIVATIONS = ['gelu', 'relu'] as const;

/** Reads and checks `dir`/config.json. */
export function readEncoderConfig(dir: string): EncoderConfig {
  const file = join(dir, CONFIG_FILE);
  if (!existsSync(file)) throw new UserError(`${file}: missing (an encoder folder needs config.json)`);
  return parseEncoderConfig(readFolderConfig(dir), file);
}

export function parseEncoderConfig(raw: Record<string, unknown>, file: string): EncoderConfig {
  const type = String(raw.model_type ?? '');
  const family = Object.hasOwn(FAMILY, type) ? FAMILY[type] : undefined;
  if (!family) throw new UserError(`${file}: model_type "${type}" is not supported (bert, xlm-roberta, roberta)`);
  const position = raw.position_embedding_type ?? 'absolute';
  if (position !== 'absolute')
    throw new UserError(`${file}: position_embedding_type "${String(position)}" is not supported (absolute only)`);
  if (raw.is_decoder === true || raw.add_cross_attention === true) throw new UserError(`${file}: decoders are not supported (is_decoder)`);
  const act = raw.hidden_act ?? 'gelu';
  if (!(ACTIVATIONS as readonly unknown[]).includes(act))
    throw new UserError(`${file}: hidden_act "${String(act)}" is not supported (${ACTIVATIONS.join(', ')})`);
  const int = (key: string, dflt?: number): number => {
    const v = raw[key] ?? dflt;
    if (!Number.isInteger(v) || (v as number) < 0)
      throw new UserError(`${file}: ${key} must be a whole number ≥ 0, got ${JSON.stringify(v)}`);
    return v as number;
  };
  const hidden = int('hidden_size');
  const heads = int('num_attention_heads');
  if (heads === 0 || hidden % heads !== 0)
    throw new UserError(`${file}: hidden_size ${hidden} is not a multiple of num_attention_heads ${heads}`);
  const eps = raw.layer_norm_eps ?? 1e-12;
  if (typeof eps !== 'number' || !(eps > 0)) throw new UserError(`${file}: layer_norm_eps must be a positive number`);
  const rate = (key: string): number => {
    const v = raw[key] ?? 0.1;
    if (typeof v !== 'number' || !(v >= 0 && v < 1))
      throw new UserError(`${file}: ${key} must be a number in [0, 1), got ${JSON.stringify(v)}`);
    return v;
  };
  return {
    modelType: type,
    family,
    vocabSize: int('vocab_size'),
    hidden,
    layers: int('num_hidden_layers'),
    heads,
    intermediate: int('intermediate_size'),
    maxPositions: int('max_position_embeddings', 512),
    typeVocab: int('type_vocab_size', 2),
    layerNormEps: eps,
    padId: int('pad_token_id', family === 'roberta' ? 1 : 0),
    activation: act as EncoderConfig['activation'],
    hiddenDropout: rate('hidden_dropout_prob'),
    attentionDropout: rate('attention_probs_dropout_prob'),
  };
}

/** The first position id of a sentence: 0 for BERT, padding_idx + 1 for (XLM-)RoBERTa. */
export function firstPosition(c: EncoderConfig): number {
  return c.family === 'roberta' ? c.padId + 1 : 0;
}

/** The most tokens (specials included) one sentence can have. */
export function maxTokens(c: EncoderConfig): number {
  return c.maxPositions - firstPosition(c);
}

/** The default layer to align with: 8 of 12 as SimAlign and awesome-align use, round(2/3·L) otherwise. */
export function defaultAlignLayer(c: EncoderConfig): number {
  return Math.round((2 / 3) * c.layers);
}
