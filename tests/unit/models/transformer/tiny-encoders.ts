// Tiny BERT- and XLM-R-shaped Hugging Face folders for the tests, built here: config.json, a
// tokenizer.json with a real vocabulary (the words and characters of the bundled Lao–Thai
// sample: WordPiece for BERT, Unigram with SentencePiece's ▁ for XLM-R), and random weights
// under transformers' names written with our own safetensors writer. Also the sample's first
// sentences as word lists (whitespace tokens), a parallel text to align.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { writeSafetensors } from '../../../../src/main/nn/safetensors.ts';
import { Rng } from '../../../../src/main/nn/init.ts';
import { Tensor } from '../../../../src/main/nn/tensor.ts';
import { encoderParamShapes } from '../../../../src/main/models/transformer/hf-weights.ts';
import { parseEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';

const SAMPLE = join(import.meta.dirname, '../../../../resources/sample/vientiane-thaiembassy-sent.csv');

/** The first n pairs of the sample, as whitespace-separated words (Lao, Thai). */
export function samplePairs(n: number): { src: string[][]; tgt: string[][] } {
  const rows = parse(readFileSync(SAMPLE, 'utf8'), { bom: true, from_line: 2 }) as string[][];
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  const pairs = rows.slice(0, n);
  return { src: pairs.map((r) => words(r[0])), tgt: pairs.map((r) => words(r[1])) };
}

/** The most frequent words of the first 100 pairs and every character they use. */
function vocabulary(words: number): { words: string[]; chars: string[] } {
  const { src, tgt } = samplePairs(100);
  const count = new Map<string, number>();
  for (const w of [...src, ...tgt].flat()) count.set(w, (count.get(w) ?? 0) + 1);
  const chars = [...new Set([...count.keys()].flatMap((w) => [...w]))].sort();
  const top = [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, words);
  return { words: top.map(([w]) => w), chars };
}

export interface TinyOptions {
  layers?: number;
  hidden?: number;
  heads?: number;
  intermediate?: number;
  /** checkpoint prefix (e.g. 'bert.' as in BertForMaskedLM) */
  prefix?: string;
  seed?: number;
  /** rows of the word embedding matrix (default: the tokenizer's vocabulary size) */
  vocabRows?: number;
  /** max_position_embeddings (default: 64 for BERT, 66 for XLM-R) */
  positions?: number;
  /** config.json's hidden_dropout_prob and attention_probs_dropout_prob (default: left out, transformers' 0.1) */
  dropout?: { hidden: number; attention: number };
}

const added = (tokens: string[]) =>
  tokens.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }));

function bertTokenizer(): { json: object; size: number } {
  const specials = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const v = vocabulary(150);
  const tokens = [...new Set([...specials, ...v.words, ...v.chars, ...v.chars.map((c) => `##${c}`)])];
  const vocab = Object.fromEntries(tokens.map((t, i) => [t, i]));
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    size: tokens.length,
    json: {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: added(specials),
      normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: false },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
        pair: [
          special('[CLS]'),
          { Sequence: { id: 'A', type_id: 0 } },
          special('[SEP]'),
          { Sequence: { id: 'B', type_id: 1 } },
          special('[SEP]'),
        ],
        special_tokens: {
          '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
          '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
        },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
    },
  };
}

function xlmrTokenizer(): { json: object; size: number } {
  const specials = ['<s>', '<pad>', '</s>', '<unk>'];
  const v = vocabulary(150);
  const pieces: [string, number][] = specials.map((t) => [t, 0]);
  const seen = new Set<string>(specials);
  const put = (p: string, score: number) => !seen.has(p) && (seen.add(p), pieces.push([p, score]));
  v.words.forEach((w, r) => put(`▁${w}`, -3 - r / 100));
  put('▁', -6);
  for (const c of v.chars) put(c, -8);
  for (const c of v.chars) put(`▁${c}`, -9);
  pieces.push(['<mask>', 0]);
  return {
    size: pieces.length,
    json: {
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: [...added(specials), { ...added(['<mask>'])[0], id: pieces.length - 1 }],
      normalizer: { type: 'NFC' },
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      post_processor: { type: 'RobertaProcessing', sep: ['</s>', 2], cls: ['<s>', 0], trim_offsets: true, add_prefix_space: true },
      decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      model: { type: 'Unigram', unk_id: 3, vocab: pieces, byte_fallback: false },
    },
  };
}

/** Random weights for `config` under transformers' names (optionally prefixed). */
export function randomWeights(config: Record<string, unknown>, seed: number, prefix = ''): Map<string, Tensor> {
  const c = parseEncoderConfig(config, 'config.json');
  const rng = new Rng(seed);
  const out = new Map<string, Tensor>();
  for (const [name, shape] of encoderParamShapes(c)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const norm = name.includes('LayerNorm');
    const scale = name.endsWith('bias') ? 0.1 : norm ? 0.1 : 0.25;
    const data = Float32Array.from({ length: n }, () => (norm && name.endsWith('weight') ? 1 : 0) + scale * rng.normal());
    out.set(prefix + name, new Tensor('float32', data, shape));
  }
  return out;
}

function writeFolder(dir: string, modelType: string, tokenizer: { json: object; size: number }, o: TinyOptions): Record<string, unknown> {
  mkdirSync(dir, { recursive: true });
  const config: Record<string, unknown> = {
    architectures: [modelType === 'bert' ? 'BertModel' : 'XLMRobertaModel'],
    model_type: modelType,
    vocab_size: o.vocabRows ?? tokenizer.size,
    hidden_size: o.hidden ?? 32,
    num_hidden_layers: o.layers ?? 2,
    num_attention_heads: o.heads ?? 4,
    intermediate_size: o.intermediate ?? 64,
    hidden_act: 'gelu',
    max_position_embeddings: o.positions ?? (modelType === 'bert' ? 64 : 66),
    type_vocab_size: modelType === 'bert' ? 2 : 1,
    layer_norm_eps: 1e-12,
    pad_token_id: modelType === 'bert' ? 0 : 1,
    position_embedding_type: 'absolute',
    ...(o.dropout ? { hidden_dropout_prob: o.dropout.hidden, attention_probs_dropout_prob: o.dropout.attention } : {}),
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizer.json));
  writeSafetensors(join(dir, 'model.safetensors'), randomWeights(config, o.seed ?? 7, o.prefix), { format: 'pt' });
  return config;
}

export function writeTinyBert(dir: string, o: TinyOptions = {}): Record<string, unknown> {
  return writeFolder(dir, 'bert', bertTokenizer(), o);
}

export function writeTinyXlmr(dir: string, o: TinyOptions = {}): Record<string, unknown> {
  return writeFolder(dir, 'xlm-roberta', xlmrTokenizer(), o);
}
