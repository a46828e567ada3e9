// One direction of a corpus, as the directional aligners see it. The "gen" side is the one
// whose words generate (conditioning side, length I, positions a), the "obs" side the one
// whose every word picks one gen position or null (length J, positions b).
//   fwd: gen = source, obs = target  — models p(target | source), like fast_align's default
//   rev: gen = target, obs = source
// A view holds what is per vocabulary (the lexical pairs' gen words, the numbers of types,
// the longest sentences) and shows one block of pairs at a time (corpus-file.ts reads the
// blocks; an in-memory Bitext is one block): pair k of the corpus is the block's pair
// k - first. The cell of (a, b) in pair k is cellOff[k - first] + a*sg + b*so, where for fwd
// sg = J, so = 1 and for rev sg = 1, so = I (the gen length = target length); i.e. always
// source-major (i*Jtgt + j), so both directions' per-cell arrays line up.

import type { CorpusArrays } from './corpus.ts';

export type Direction = 'fwd' | 'rev';

/** Pairs first .. first+n-1 of a corpus (index conventions in corpus.ts, offsets from the block's start). */
export interface Block extends CorpusArrays {
  first: number;
}

/** What a corpus's views share whatever block they show. */
export interface CorpusShape {
  srcTypes: number;
  tgtTypes: number;
  /** longest source / target sentence */
  maxSrc: number;
  maxTgt: number;
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

export interface View {
  dir: Direction;
  /** corpus index of the shown block's first pair */
  first: number;
  genOff: Int32Array;
  genIds: Int32Array;
  obsOff: Int32Array;
  obsIds: Int32Array;
  cellOff: Int32Array;
  /** lexical pair id of a cell: cellLo[x] | cellHi[x] << 16 (cells.ts) */
  cellLo: Uint16Array;
  cellHi: Uint8Array | Uint16Array;
  /** gen word of each lexical pair id (normalisation group of t(obs | gen)) */
  pairGen: Int32Array;
  /** largest gen / obs sentence length */
  maxI: number;
  maxJ: number;
  /** number of obs word types (size of the null table) */
  obsTypes: number;
  genTypes: number;
}

const NONE = new Int32Array(1);

/** Direction `dir` of a corpus, showing no block yet. */
export function makeView(shape: CorpusShape, dir: Direction): View {
  const fwd = dir === 'fwd';
  return {
    dir,
    first: 0,
    genOff: NONE,
    genIds: NONE,
    obsOff: NONE,
    obsIds: NONE,
    cellOff: NONE,
    cellLo: new Uint16Array(0),
    cellHi: new Uint8Array(0),
    pairGen: fwd ? shape.pairSrc : shape.pairTgt,
    maxI: fwd ? shape.maxSrc : shape.maxTgt,
    maxJ: fwd ? shape.maxTgt : shape.maxSrc,
    obsTypes: fwd ? shape.tgtTypes : shape.srcTypes,
    genTypes: fwd ? shape.srcTypes : shape.tgtTypes,
  };
}

/** Points the view at block `b`. */
export function showBlock(v: View, b: Block): void {
  const fwd = v.dir === 'fwd';
  v.first = b.first;
  v.genOff = fwd ? b.srcOff : b.tgtOff;
  v.genIds = fwd ? b.srcIds : b.tgtIds;
  v.obsOff = fwd ? b.tgtOff : b.srcOff;
  v.obsIds = fwd ? b.tgtIds : b.srcIds;
  v.cellOff = b.cellOff;
  v.cellLo = b.cellLo;
  v.cellHi = b.cellHi;
}

/** First cell of corpus pair k (in the shown block) and the strides of gen and obs positions (gen length I, obs J). */
export function cellLayout(v: View, k: number, I: number, J: number): { base: number; sg: number; so: number } {
  const base = v.cellOff[k - v.first];
  return v.dir === 'fwd' ? { base, sg: J, so: 1 } : { base, sg: 1, so: I };
}
