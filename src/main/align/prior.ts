// Lexical prior pseudo-counts π(s, t) per lexical pair of a corpus (see lexicon.ts), added
// to the expected counts of both directions in every M-step. Sources: a bilingual
// dictionary (each entry adds weight·w_entry, matched in either orientation, since a
// dictionary may list the pair's sides the other way round), and identity: a source and a
// target word with the same NFKC form (numbers, names, punctuation, shared loanwords;
// CJK full stops, commas and quotes count as their Latin forms).
// Few pairs have one, so the prior is kept sparse: dup100k's identity prior has 6.8k of its
// 3.0M pairs, where a Float32 per pair took 12 MB. Sums are rounded to float32 as they grow.
import type { Vocabularies } from './corpus.ts';
import type { DictEntry } from './dictionary.ts';
import { PairTable } from './pair-table.ts';

/** Pseudo-count sums by lexical pair id, while they are gathered. */
export type PriorCounts = Map<number, number>;

/** The pairs with a pseudo-count, ids ascending, and their pseudo-counts. */
export interface Prior {
  ids: Int32Array;
  w: Float32Array;
}

function add(prior: PriorCounts, p: number, x: number): void {
  prior.set(p, Math.fround((prior.get(p) ?? 0) + x));
}

export function sparsePrior(prior: PriorCounts): Prior {
  const ids = Int32Array.from(prior.keys()).sort();
  return { ids, w: Float32Array.from(ids, (p) => prior.get(p)!) };
}

function pairIndex(b: Vocabularies): PairTable {
  const t = new PairTable();
  for (let p = 0; p < b.pairSrc.length; p++) t.intern(b.pairSrc[p], b.pairTgt[p]);
  return t;
}

/** Dictionary pseudo-counts, or null when no entry meets a co-occurring pair. */
export function dictionaryPrior(b: Vocabularies, entries: readonly DictEntry[], weight = 2): PriorCounts | null {
  if (entries.length === 0) return null;
  const src = new Map(b.srcVocab.map((w, i) => [w, i]));
  const tgt = new Map(b.tgtVocab.map((w, i) => [w, i]));
  const index = pairIndex(b);
  const prior: PriorCounts = new Map();
  const meet = (s: number | undefined, t: number | undefined, w: number) => {
    const p = s === undefined || t === undefined ? -1 : index.get(s, t);
    if (p >= 0) add(prior, p, weight * w);
  };
  for (const e of entries) {
    meet(src.get(e.src), tgt.get(e.tgt), e.weight);
    meet(src.get(e.tgt), tgt.get(e.src), e.weight);
  }
  return prior.size > 0 ? prior : null;
}

/** CJK punctuation that NFKC leaves alone, folded to its Latin counterpart. */
const PUNCT_FOLD: Record<string, string> = {
  '。': '.',
  '、': ',',
  '“': '"',
  '”': '"',
  '「': '"',
  '」': '"',
  '『': '"',
  '』': '"',
  '‘': "'",
  '’': "'",
  '·': '-',
  '・': '-',
};

/** Adds `weight` to every pair whose two words have the same NFKC form; returns `prior`. */
export function identityPrior(b: Vocabularies, prior: PriorCounts, weight: number): PriorCounts {
  const key = (w: string) => PUNCT_FOLD[w] ?? w.normalize('NFKC');
  const src = b.srcVocab.map(key),
    tgt = b.tgtVocab.map(key);
  for (let p = 0; p < b.pairSrc.length; p++) if (src[b.pairSrc[p]] === tgt[b.pairTgt[p]]) add(prior, p, weight);
  return prior;
}
