// Integer-id parallel corpus for the statistical aligners: both sides as flat Int32Arrays
// with per-pair offsets, the vocabularies, and the co-occurrence cells (one per source
// position × target position of every pair) pointing into the lexical pair table.
//
// Index conventions: pair k has source tokens srcIds[srcOff[k] .. srcOff[k+1]) (length I)
// and target tokens tgtIds[tgtOff[k] .. tgtOff[k+1]) (length J). Its cells start at
// cellOff[k]; the cell of source position i and target position j is cellOff[k] + i*J + j
// and cellLo[cell] | cellHi[cell] << 16 is the id of the word pair (srcIds[.], tgtIds[.]) in
// pairSrc/pairTgt.
// All arrays live on SharedArrayBuffers so worker threads read them without copying; cells.ts
// builds the cells.
import { buildCells } from './cells.ts';
import { sharedInt32 } from './shared-arrays.ts';
import { sentences, type Sentences, type Side } from './sentences.ts';

export interface Bitext {
  n: number;
  srcOff: Int32Array;
  srcIds: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  srcVocab: string[];
  tgtVocab: string[];
  cellOff: Int32Array;
  cellLo: Uint16Array;
  cellHi: Uint8Array | Uint16Array;
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

/** The structured-clone-safe part of a Bitext (no vocabularies), sent to workers. */
export type BitextArrays = Omit<Bitext, 'srcVocab' | 'tgtVocab'>;

function encodeSide(sents: Sentences, vocab: Map<string, number>, words: string[]): { off: Int32Array; ids: Int32Array } {
  const off = sharedInt32(sents.length + 1);
  let total = 0;
  for (let k = 0; k < sents.length; k++) {
    total += sents.size(k);
    off[k + 1] = total;
  }
  const ids = sharedInt32(total);
  let p = 0;
  for (let k = 0; k < sents.length; k++) {
    for (const w of sents.tokens(k)) {
      let id = vocab.get(w);
      if (id === undefined) {
        id = words.length;
        vocab.set(w, id);
        words.push(w);
      }
      ids[p++] = id;
    }
    if (p !== off[k + 1]) throw new Error(`buildBitext: sentence ${k} has ${p - off[k]} tokens, its size said ${off[k + 1] - off[k]}`);
  }
  return { off, ids };
}

/** Encodes tokenised sentence pairs; sentence k of `src` and of `tgt` are the two sides of pair k. */
export function buildBitext(src: Side, tgt: Side): Bitext {
  if (src.length !== tgt.length) throw new Error(`buildBitext: ${src.length} ≠ ${tgt.length} pairs`);
  const srcVocab: string[] = [];
  const tgtVocab: string[] = [];
  const s = encodeSide(sentences(src), new Map(), srcVocab);
  const t = encodeSide(sentences(tgt), new Map(), tgtVocab);
  const base = { n: src.length, srcOff: s.off, srcIds: s.ids, tgtOff: t.off, tgtIds: t.ids, srcVocab, tgtVocab };
  return { ...base, ...buildCells(base, srcVocab.length, tgtVocab.length) };
}

export function bitextArrays(b: Bitext): BitextArrays {
  const { srcVocab: _s, tgtVocab: _t, ...arrays } = b;
  return arrays;
}
