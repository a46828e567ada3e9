// Vectors from a trained Bi-Sent2Vec model, in the one space both languages share: a word's
// vector is its row of V; a sentence's is the mean of V over the n-grams the model knows
// (words, bigrams, the words' character n-grams, also those of words it does not know; seed
// 002's additive composition), or each n-gram weighted by its inverse document frequency
// log(N / df) in the training corpus when config.tfidf is on
// (seed 002's tf-idf sentence embeddings; each occurrence counts, so the term frequency is
// implicit).
// Rows come out L2-normalised, so dot products are cosines (eval/csls.ts, eval/margin.ts).
// A sentence with no known n-gram gets the zero vector: cosine 0 with everything.
import type { Side } from './ngram-vocab.ts';
import { encodeSentence } from './ngram-vocab.ts';
import type { Bisent2vecModel } from './cbow-train.ts';

function normaliseRows(x: Float32Array, dim: number): Float32Array {
  for (let o = 0; o < x.length; o += dim) {
    let s = 0;
    for (let t = 0; t < dim; t++) s += x[o + t] * x[o + t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < dim; t++) x[o + t] *= inv;
  }
  return x;
}

/** Unit sentence vectors [sentences, dim] of one side's tokenised sentences. */
export function sentenceVectors(model: Bisent2vecModel, side: Side, sentences: readonly string[][]): Float32Array {
  const { dim } = model.config;
  const { V, index } = model;
  const N = index.vocab.sentences;
  const weight = (row: number) => (model.config.tfidf ? Math.log(N / Math.max(1, index.vocab.df[row])) : 1);
  const out = new Float32Array(sentences.length * dim);
  sentences.forEach((tokens, i) => {
    const e = encodeSentence(index, side, tokens);
    const at = i * dim;
    for (const rows of [e.words, e.bigrams, e.chars])
      for (const r of rows) {
        if (r < 0) continue;
        const w = weight(r);
        for (let t = 0; t < dim; t++) out[at + t] += w * V[r * dim + t];
      }
  });
  return normaliseRows(out, dim);
}

/** Unit word vectors [words, dim] of one side, in the vocabulary's order (vocab.words[side]). */
export function wordVectors(model: Bisent2vecModel, side: Side): Float32Array {
  const { dim } = model.config;
  const from = model.index.offsets.words[side];
  const n = model.index.vocab.words[side].length;
  return normaliseRows(model.V.slice(from * dim, (from + n) * dim), dim);
}
