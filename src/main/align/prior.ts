// Lexical prior pseudo-counts π(s, t) per lexical pair of a Bitext (see lexicon.ts), added
// to the expected counts of both directions in every M-step. Sources: a bilingual
// dictionary (each entry adds weight·w_entry, matched in either orientation, since a
// dictionary may list the pair's sides the other way round), and identity: a source and a
// target word with the same NFKC form (numbers, names, punctuation, shared loanwords;
// CJK full stops, commas and quotes count as their Latin forms).
import type { Bitext } from './corpus.ts';
import type { DictEntry } from './dictionary.ts';
import { PairTable } from './pair-table.ts';
import { sharedFloat32 } from './shared-arrays.ts';

function pairIndex(b: Bitext): PairTable {
  const t = new PairTable();
  for (let p = 0; p < b.pairSrc.length; p++) t.intern(b.pairSrc[p], b.pairTgt[p]);
  return t;
}

/** Dictionary pseudo-counts, or null when no entry meets a co-occurring pair. */
export function dictionaryPrior(b: Bitext, entries: readonly DictEntry[], weight = 2): Float32Array | null {
  if (entries.length === 0) return null;
  const src = new Map(b.srcVocab.map((w, i) => [w, i]));
  const tgt = new Map(b.tgtVocab.map((w, i) => [w, i]));
  const index = pairIndex(b);
  const prior = sharedFloat32(b.pairSrc.length);
  let hits = 0;
  const add = (s: number | undefined, t: number | undefined, w: number) => {
    if (s === undefined || t === undefined) return;
    const p = index.get(s, t);
    if (p < 0) return;
    prior[p] += weight * w;
    hits++;
  };
  for (const e of entries) {
    add(src.get(e.src), tgt.get(e.tgt), e.weight);
    add(src.get(e.tgt), tgt.get(e.src), e.weight);
  }
  return hits > 0 ? prior : null;
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
export function identityPrior(b: Bitext, prior: Float32Array, weight: number): Float32Array {
  const key = (w: string) => PUNCT_FOLD[w] ?? w.normalize('NFKC');
  const src = b.srcVocab.map(key),
    tgt = b.tgtVocab.map(key);
  for (let p = 0; p < b.pairSrc.length; p++) if (src[b.pairSrc[p]] === tgt[b.pairTgt[p]]) prior[p] += weight;
  return prior;
}
