// The n-gram vocabulary of a Bi-Sent2Vec model (seed 002): the words of each language seen at
// least `minCount` times, at most `maxVocab` of them per language (the most frequent; seed
// 002's vocabulary cap, which sent2vec applies to its one dictionary of both languages' words);
// with bigrams on, the adjacent word pairs seen that often; with
// character n-grams on (charN > 0), the charN-grams of those words written <word> (fastText's
// subword units), so that a word unseen in training still brings its pieces. Each entry has
// its corpus count and its document frequency (sentences containing it, for tf-idf).
// Row ids, shared by both embedding tables so that the two languages live in one space:
//   [source words | target words | source bigrams | target bigrams | source chars | target chars]
// The output table U has the word rows only (the CBOW targets are words); the input table V
// has them all (a context is a sentence's words, bigrams and character n-grams). Bigrams and
// character n-grams are kept exactly rather than hashed into buckets as in sent2vec: on
// corpora of 10⁴–10⁵ pairs their number is small, the saved model stays small, and no two
// share a vector.

export type Side = 0 | 1;

export interface NgramVocab {
  /** words[side] in id order; a word's row is offsets.words[side] + its index */
  words: [string[], string[]];
  /** bigrams[side] as "w1 w2", in id order; rows from offsets.bigrams[side] */
  bigrams: [string[], string[]];
  /** character n-grams[side] (of "<word>"), in id order; rows from offsets.chars[side] */
  chars: [string[], string[]];
  /** length of the character n-grams, 0 = none */
  charN: number;
  /** count of each row's n-gram in the training corpus (all rows) */
  counts: Float64Array;
  /** sentences containing each row's n-gram (all rows) */
  df: Float64Array;
  /** sentences of each side the counts come from */
  sentences: number;
}

type Pair<T> = [T, T];
type Kind = 'words' | 'bigrams' | 'chars';
const KINDS: readonly Kind[] = ['words', 'bigrams', 'chars'];

export interface VocabIndex {
  vocab: NgramVocab;
  row: Record<Kind, Pair<Map<string, number>>>;
  /** first row of each kind and side */
  offsets: Record<Kind, Pair<number>>;
  /** rows of U (words of both sides) and of V (all n-grams) */
  wordRows: number;
  rows: number;
}

const bigramKey = (a: string, b: string) => `${a} ${b}`;

/** The character n-grams of a word, as fastText cuts them: from "<word>", n characters each. */
export function charNgrams(word: string, n: number): string[] {
  if (n <= 0) return [];
  const padded = `<${word}>`;
  const out: string[] = [];
  for (let i = 0; i + n <= padded.length; i++) out.push(padded.slice(i, i + n));
  return out;
}

interface Stat {
  count: number;
  df: number;
  last: number;
}

/** Counts the n-grams of both sides of a parallel corpus and keeps those seen `minCount` times (the words: the `maxVocab` most frequent of each side, the first seen first among equal counts). */
export function buildVocab(
  sides: Pair<readonly string[][]>,
  minCount: number,
  bigrams: boolean,
  charN = 0,
  maxVocab = Infinity,
): NgramVocab {
  const kept: Record<Kind, Pair<[string, Stat][]>> = { words: [[], []], bigrams: [[], []], chars: [[], []] };
  for (const side of [0, 1] as const) {
    const maps: Record<Kind, Map<string, Stat>> = { words: new Map(), bigrams: new Map(), chars: new Map() };
    const add = (m: Map<string, Stat>, key: string, s: number) => {
      const e = m.get(key) ?? m.set(key, { count: 0, df: 0, last: -1 }).get(key)!;
      e.count++;
      if (e.last !== s) (e.df++, (e.last = s));
    };
    sides[side].forEach((sentence, s) => {
      for (let p = 0; p < sentence.length; p++) {
        add(maps.words, sentence[p], s);
        if (bigrams && p > 0) add(maps.bigrams, bigramKey(sentence[p - 1], sentence[p]), s);
      }
    });
    // Most frequent first: ids then follow frequency, which keeps the output readable.
    const frequent = (m: Map<string, Stat>) => [...m].filter(([, e]) => e.count >= minCount).sort((x, y) => y[1].count - x[1].count);
    kept.words[side] = frequent(maps.words).slice(0, maxVocab);
    kept.bigrams[side] = frequent(maps.bigrams);
    // Character n-grams of the kept words, counted as often as their words occur.
    if (charN > 0) {
      const wordIds = new Set(kept.words[side].map(([w]) => w));
      sides[side].forEach((sentence, s) => {
        for (const w of sentence) if (wordIds.has(w)) for (const g of charNgrams(w, charN)) add(maps.chars, g, s);
      });
      kept.chars[side] = [...maps.chars].sort((x, y) => y[1].count - x[1].count);
    }
  }
  const all = KINDS.flatMap((k) => [...kept[k][0], ...kept[k][1]]).map(([, e]) => e);
  const keys = (k: Kind): Pair<string[]> => [kept[k][0].map(([w]) => w), kept[k][1].map(([w]) => w)];
  return {
    words: keys('words'),
    bigrams: keys('bigrams'),
    chars: keys('chars'),
    charN,
    counts: Float64Array.from(all, (e) => e.count),
    df: Float64Array.from(all, (e) => e.df),
    sentences: sides[0].length,
  };
}

export function indexVocab(vocab: NgramVocab): VocabIndex {
  const offsets = {} as Record<Kind, Pair<number>>;
  const row = {} as Record<Kind, Pair<Map<string, number>>>;
  let next = 0;
  for (const k of KINDS) {
    const [a, b] = vocab[k];
    offsets[k] = [next, next + a.length];
    row[k] = [new Map(a.map((g, i) => [g, next + i])), new Map(b.map((g, i) => [g, next + a.length + i]))];
    next += a.length + b.length;
  }
  return { vocab, row, offsets, wordRows: offsets.bigrams[0], rows: next };
}

/**
 * A sentence as rows: `words[p]` the row of token p (−1 when out of the vocabulary),
 * `bigrams[p]` the row of tokens (p, p+1) (−1 when not kept), length max(0, n − 1), and the
 * known character n-grams of token p at chars[charStart[p] … charStart[p + 1]).
 */
export interface EncodedSentence {
  words: Int32Array;
  bigrams: Int32Array;
  chars: Int32Array;
  charStart: Int32Array;
}

export function encodeSentence(index: VocabIndex, side: Side, tokens: readonly string[]): EncodedSentence {
  const words = Int32Array.from(tokens, (w) => index.row.words[side].get(w) ?? -1);
  const bigrams = new Int32Array(Math.max(0, tokens.length - 1));
  for (let p = 0; p + 1 < tokens.length; p++) bigrams[p] = index.row.bigrams[side].get(bigramKey(tokens[p], tokens[p + 1])) ?? -1;
  const chars: number[] = [];
  const charStart = new Int32Array(tokens.length + 1);
  tokens.forEach((w, p) => {
    for (const g of charNgrams(w, index.vocab.charN)) {
      const r = index.row.chars[side].get(g);
      if (r !== undefined) chars.push(r);
    }
    charStart[p + 1] = chars.length;
  });
  return { words, bigrams, chars: Int32Array.from(chars), charStart };
}
