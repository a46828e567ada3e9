// Integer-id parallel corpus for the statistical aligners: the vocabularies, the lexical
// pairs, and, in memory (Bitext, for the BiLSTM's agreement EM and the tests), both sides as
// flat Int32Arrays with per-pair offsets and the co-occurrence cells (one per source
// position × target position of every pair) pointing into the lexical pair table. The
// aligner engine keeps the same arrays on disk instead, block by block (corpus-file.ts).
//
// Index conventions: pair k has source tokens srcIds[srcOff[k] .. srcOff[k+1]) (length I)
// and target tokens tgtIds[tgtOff[k] .. tgtOff[k+1]) (length J). Its cells start at
// cellOff[k]; the cell of source position i and target position j is cellOff[k] + i*J + j
// and cellLo[cell] | cellHi[cell] << 16 is the id of the word pair (srcIds[.], tgtIds[.]) in
// pairSrc/pairTgt. cells.ts numbers the cells.
import { buildCells } from './cells.ts';
import { sharedInt32 } from './shared-arrays.ts';
import { sentences, type Sentences, type Side } from './sentences.ts';

/** What is per vocabulary: the words of both sides and the lexical pairs (source id, target id). */
export interface Vocabularies {
  srcVocab: string[];
  tgtVocab: string[];
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

/** n pairs' word ids and cells, offsets from the first of them (the conventions above). */
export interface CorpusArrays {
  n: number;
  srcOff: Int32Array;
  srcIds: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
  cellOff: Int32Array;
  cellLo: Uint16Array;
  cellHi: Uint8Array | Uint16Array;
}

/** A whole corpus in memory: its vocabularies and all its pairs as one block. */
export interface Bitext extends Vocabularies, CorpusArrays {}

/** Word ids of one side, in order of first occurrence. */
export class Vocabulary {
  readonly words: string[] = [];
  private readonly ids = new Map<string, number>();

  id(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.ids.set(w, id);
      this.words.push(w);
    }
    return id;
  }
}

function encodeSide(sents: Sentences, vocab: Vocabulary): { off: Int32Array; ids: Int32Array } {
  const off = sharedInt32(sents.length + 1);
  let total = 0;
  for (let k = 0; k < sents.length; k++) {
    total += sents.size(k);
    off[k + 1] = total;
  }
  const ids = sharedInt32(total);
  let p = 0;
  for (let k = 0; k < sents.length; k++) {
    for (const w of sents.tokens(k)) ids[p++] = vocab.id(w);
    if (p !== off[k + 1]) throw new Error(`buildBitext: sentence ${k} has ${p - off[k]} tokens, its size said ${off[k + 1] - off[k]}`);
  }
  return { off, ids };
}

/** Encodes tokenised sentence pairs in memory; sentence k of `src` and of `tgt` are the two sides of pair k. */
export function buildBitext(src: Side, tgt: Side): Bitext {
  if (src.length !== tgt.length) throw new Error(`buildBitext: ${src.length} ≠ ${tgt.length} pairs`);
  const sv = new Vocabulary(),
    tv = new Vocabulary();
  const s = encodeSide(sentences(src), sv);
  const t = encodeSide(sentences(tgt), tv);
  const base = { n: src.length, srcOff: s.off, srcIds: s.ids, tgtOff: t.off, tgtIds: t.ids, srcVocab: sv.words, tgtVocab: tv.words };
  return { ...base, ...buildCells(base) };
}
