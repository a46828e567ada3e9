// The n-gram vocabulary of a Bi-Sent2Vec model (seed 002): the words of each language seen at
// least `minCount` times and, with bigrams on, the adjacent word pairs seen that often, each
// with its corpus count and its document frequency (sentences containing it, for tf-idf).
// Row ids, shared by both embedding tables so that the two languages live in one space:
//   [source words | target words | source bigrams | target bigrams]
// The output table U has the word rows only (the CBOW targets are words); the input table V
// has them all (a context is a sentence's words and bigrams). Bigrams are kept exactly rather
// than hashed into buckets as in sent2vec: on corpora of 10⁴–10⁵ pairs their number is small,
// the saved model stays small, and no two bigrams share a vector.

export type Side = 0 | 1;

export interface NgramVocab {
  /** words[side] in id order; a word's row is offsets.words[side] + its index */
  words: [string[], string[]];
  /** bigrams[side] as "w1 w2", in id order; rows from offsets.bigrams[side] */
  bigrams: [string[], string[]];
  /** count of each row's n-gram in the training corpus (all rows) */
  counts: Float64Array;
  /** sentences containing each row's n-gram (all rows) */
  df: Float64Array;
  /** sentences of each side the counts come from */
  sentences: number;
}

export interface VocabIndex {
  vocab: NgramVocab;
  wordRow: [Map<string, number>, Map<string, number>];
  bigramRow: [Map<string, number>, Map<string, number>];
  /** first row of each kind and side */
  offsets: { words: [number, number]; bigrams: [number, number] };
  /** rows of U (words of both sides) and of V (all n-grams) */
  wordRows: number;
  rows: number;
}

const bigramKey = (a: string, b: string) => `${a} ${b}`;

/** Counts the n-grams of both sides of a parallel corpus and keeps those seen `minCount` times. */
export function buildVocab(sides: [readonly string[][], readonly string[][]], minCount: number, bigrams: boolean): NgramVocab {
  const words: [string[], string[]] = [[], []];
  const grams: [string[], string[]] = [[], []];
  const wordStats: { count: number; df: number }[][] = [[], []];
  const gramStats: { count: number; df: number }[][] = [[], []];
  for (const side of [0, 1] as const) {
    const w = new Map<string, { count: number; df: number; last: number }>();
    const b = new Map<string, { count: number; df: number; last: number }>();
    const add = (m: typeof w, key: string, s: number) => {
      const e = m.get(key) ?? m.set(key, { count: 0, df: 0, last: -1 }).get(key)!;
      e.count++;
      if (e.last !== s) (e.df++, (e.last = s));
    };
    sides[side].forEach((sentence, s) => {
      for (let p = 0; p < sentence.length; p++) {
        add(w, sentence[p], s);
        if (bigrams && p > 0) add(b, bigramKey(sentence[p - 1], sentence[p]), s);
      }
    });
    // Most frequent first: ids then follow frequency, which keeps the output readable.
    for (const [m, out, stats] of [
      [w, words, wordStats],
      [b, grams, gramStats],
    ] as const) {
      const kept = [...m].filter(([, e]) => e.count >= minCount).sort((x, y) => y[1].count - x[1].count);
      out[side] = kept.map(([k]) => k);
      stats[side] = kept.map(([, e]) => ({ count: e.count, df: e.df }));
    }
  }
  const all = [...wordStats[0], ...wordStats[1], ...gramStats[0], ...gramStats[1]];
  return {
    words,
    bigrams: grams,
    counts: Float64Array.from(all, (e) => e.count),
    df: Float64Array.from(all, (e) => e.df),
    sentences: sides[0].length,
  };
}

export function indexVocab(vocab: NgramVocab): VocabIndex {
  const [ws, wt] = vocab.words;
  const [bs, bt] = vocab.bigrams;
  const offsets = {
    words: [0, ws.length] as [number, number],
    bigrams: [ws.length + wt.length, ws.length + wt.length + bs.length] as [number, number],
  };
  const rowsOf = (list: string[], from: number) => new Map(list.map((k, i) => [k, from + i]));
  return {
    vocab,
    wordRow: [rowsOf(ws, 0), rowsOf(wt, offsets.words[1])],
    bigramRow: [rowsOf(bs, offsets.bigrams[0]), rowsOf(bt, offsets.bigrams[1])],
    offsets,
    wordRows: ws.length + wt.length,
    rows: ws.length + wt.length + bs.length + bt.length,
  };
}

/**
 * A sentence as rows: `words[p]` the row of token p (−1 when out of the vocabulary) and
 * `bigrams[p]` the row of tokens (p, p+1) (−1 when not kept), length max(0, n − 1).
 */
export interface EncodedSentence {
  words: Int32Array;
  bigrams: Int32Array;
}

export function encodeSentence(index: VocabIndex, side: Side, tokens: readonly string[]): EncodedSentence {
  const words = Int32Array.from(tokens, (w) => index.wordRow[side].get(w) ?? -1);
  const bigrams = new Int32Array(Math.max(0, tokens.length - 1));
  for (let p = 0; p + 1 < tokens.length; p++) bigrams[p] = index.bigramRow[side].get(bigramKey(tokens[p], tokens[p + 1])) ?? -1;
  return { words, bigrams };
}
