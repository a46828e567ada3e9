// From subwords to our words: a word's vector pooled from its subwords' hidden states (first,
// mean or max, per feature), and, the other way, which word each subword belongs to
// (EncodedSentence.wordOf). A word cut off by the model's length limit has no subwords: it
// gets no vector (`has` 0) and so no link.
import type { EncoderOptions } from '../../../shared/aligner-options.ts';
import type { EncodedSentence } from './subword-tokenizer.ts';

export type WordPooling = EncoderOptions['pooling'];

export interface WordVectors {
  /** [words × dim], row k zero when `has[k]` is 0 */
  vectors: Float32Array;
  has: Uint8Array;
}

/** Word vectors of sentence `s` from its subwords' hidden states `h` ([ids.length × dim]). */
export function poolWords(h: Float32Array, s: EncodedSentence, dim: number, pooling: WordPooling): WordVectors {
  const W = s.start.length;
  const vectors = new Float32Array(W * dim);
  const has = new Uint8Array(W);
  for (let k = 0; k < W; k++) {
    const a = s.start[k],
      b = s.end[k];
    if (b <= a) continue;
    has[k] = 1;
    const row = vectors.subarray(k * dim, (k + 1) * dim);
    const last = pooling === 'first' ? a + 1 : b;
    row.set(h.subarray(a * dim, (a + 1) * dim));
    for (let t = a + 1; t < last; t++)
      for (let d = 0; d < dim; d++) {
        const v = h[t * dim + d];
        row[d] = pooling === 'max' ? Math.max(row[d], v) : row[d] + v;
      }
    if (pooling === 'mean') for (let d = 0; d < dim; d++) row[d] /= b - a;
  }
  return { vectors, has };
}

/**
 * Word k's subword positions in sentence `s` and the weight of each in its pooled vector
 * (mean: 1/n each; first: the first subword), for pooling inside a graph (fine-tuning);
 * empty when the word was cut off.
 */
export function wordPoolingWeights(s: EncodedSentence, k: number, pooling: 'first' | 'mean' = 'mean'): { at: number[]; weight: number[] } {
  const a = s.start[k],
    b = pooling === 'first' ? Math.min(s.end[k], s.start[k] + 1) : s.end[k];
  const at = Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
  return { at, weight: at.map(() => 1 / at.length) };
}

/** The rows of a sentence's words' subwords (template tokens left out), and each one's word. */
export function wordSubwords(h: Float32Array, s: EncodedSentence, dim: number): { rows: Float32Array; wordOf: Int32Array } {
  const keep: number[] = [];
  s.wordOf.forEach((w, t) => w >= 0 && keep.push(t));
  const rows = new Float32Array(keep.length * dim);
  keep.forEach((t, i) => rows.set(h.subarray(t * dim, (t + 1) * dim), i * dim));
  return { rows, wordOf: Int32Array.from(keep, (t) => s.wordOf[t]) };
}
