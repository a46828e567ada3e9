// Subword tokenisation of our words with an encoder folder's own tokenizer.json, and the maps
// between our words and the subwords both ways.
// Library: @huggingface/tokenizers (tokenizers.js, Apache-2.0), a pure-JS reading of the
// tokenizer.json format with no dependencies (~8 kB gzip): WordPiece (BERT, LaBSE), Unigram
// (XLM-R's SentencePiece), BPE, their normalisers, pre-tokenisers and post-processors. It is the
// tokenizer transformers.js itself uses; @huggingface/transformers would bring the same code
// plus onnxruntime-web, sharp and a model hub client we must not call.
// As SimAlign and awesome-align do, each of our words is tokenised alone (so a subword never
// straddles two of our words, whatever segmentation made them), and the sentence is wrapped in
// the tokenizer's template for one sequence ([CLS] … [SEP], <s> … </s>), found by encoding a
// probe word with and without special tokens. A sentence longer than the model's positions is
// cut: the words past the cut get no subwords (and so no links).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { UserError } from '../../errors.ts';

export const TOKENIZER_FILE = 'tokenizer.json';

/** One sentence as the encoder reads it. */
export interface EncodedSentence {
  /** subword ids, template included */
  ids: number[];
  /** per word k, its subwords are ids[start[k] … end[k]) (start = end: none) */
  start: Int32Array;
  end: Int32Array;
  /** per subword position, its word (−1 for the template's special tokens) */
  wordOf: Int32Array;
  /** whether words were left out to keep within the cap */
  cut?: boolean;
}

function readJson(file: string, optional: boolean): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      if (optional) return null;
      throw new UserError(`${file}: missing (an encoder folder needs its tokenizer.json)`);
    }
    throw err;
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new UserError(`${file}: not JSON (${(err as Error).message.split('\n')[0]})`);
  }
}

export class SubwordTokenizer {
  private readonly tok: Tokenizer;
  private readonly cache = new Map<string, readonly number[]>();
  /** the template's special tokens before and after a sentence's subwords */
  readonly prefix: readonly number[];
  readonly suffix: readonly number[];
  /** the id of the unknown token, used for a word the tokenizer turns into nothing (null: none) */
  readonly unkId: number | null;
  /** the id of the mask token ([MASK] for BERT, <mask> for XLM-R; null: none), for fine-tuning's masked objectives */
  readonly maskId: number | null;
  readonly file: string;

  constructor(dir: string) {
    this.file = join(dir, TOKENIZER_FILE);
    const json = readJson(this.file, false)!;
    const config = readJson(join(dir, 'tokenizer_config.json'), true) ?? {};
    try {
      this.tok = new Tokenizer(json, config);
    } catch (err) {
      throw new UserError(`${this.file}: not a tokenizer this version reads (${(err as Error).message.split('\n')[0]})`);
    }
    [this.prefix, this.suffix] = this.template();
    const model = (json.model ?? {}) as { unk_token?: string; unk_id?: number };
    const unk = typeof model.unk_id === 'number' ? model.unk_id : model.unk_token ? this.tok.token_to_id(model.unk_token) : undefined;
    this.unkId = unk ?? null;
    this.maskId = this.tok.token_to_id('[MASK]') ?? this.tok.token_to_id('<mask>') ?? null;
  }

  private template(): [number[], number[]] {
    for (const probe of ['a', 'x', '1', '.']) {
      const bare = this.tok.encode(probe, { add_special_tokens: false }).ids;
      if (!bare.length) continue;
      const full = this.tok.encode(probe, { add_special_tokens: true }).ids;
      for (let at = 0; at + bare.length <= full.length; at++) {
        if (bare.every((id, k) => full[at + k] === id)) return [full.slice(0, at), full.slice(at + bare.length)];
      }
    }
    throw new UserError(`${this.file}: cannot find where a sentence goes in the tokenizer's template`);
  }

  /** The largest token id the tokenizer can produce (its vocabulary and added tokens). */
  maxId(): number {
    let max = -1;
    for (const id of this.tok.get_vocab(true).values()) if (id > max) max = id;
    return max;
  }

  /** A word's subword ids (cached). */
  pieces(word: string): readonly number[] {
    let p = this.cache.get(word);
    if (!p) {
      p = this.tok.encode(word, { add_special_tokens: false }).ids;
      if (!p.length && this.unkId !== null && word.trim()) p = [this.unkId];
      this.cache.set(word, p);
    }
    return p;
  }

  /** The subword form of its words, at most `maxTokens` ids with the template. */
  encodeWords(words: readonly string[], maxTokens: number): EncodedSentence {
    const room = Math.max(0, maxTokens - this.prefix.length - this.suffix.length);
    const ids = [...this.prefix];
    const start = new Int32Array(words.length);
    const end = new Int32Array(words.length);
    const wordOf: number[] = this.prefix.map(() => -1);
    let cut = false;
    words.forEach((w, k) => {
      const p = this.pieces(w);
      start[k] = ids.length;
      cut ||= ids.length - this.prefix.length + p.length > room;
      if (!cut) {
        for (const id of p) {
          ids.push(id);
          wordOf.push(k);
        }
      }
      end[k] = ids.length;
    });
    for (const id of this.suffix) {
      ids.push(id);
      wordOf.push(-1);
    }
    return { ids, start, end, wordOf: Int32Array.from(wordOf), cut };
  }
}
