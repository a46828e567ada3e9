// One direction of a Bitext, as the directional aligners see it. The "gen" side is the one
// whose words generate (conditioning side, length I, positions a), the "obs" side the one
// whose every word picks one gen position or null (length J, positions b).
//   fwd: gen = source, obs = target  — models p(target | source), like fast_align's default
//   rev: gen = target, obs = source
// The cell of (a, b) in pair k is cellOff[k] + a*sg + b*so, where for fwd sg = J, so = 1 and
// for rev sg = 1, so = I (the gen length = target length); i.e. always source-major
// (i*Jtgt + j), so both directions' per-cell arrays line up.
import type { BitextArrays } from './corpus.ts';

export type Direction = 'fwd' | 'rev';

export interface View {
  dir: Direction;
  n: number;
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

function maxLen(off: Int32Array): number {
  let m = 0;
  for (let k = 0; k + 1 < off.length; k++) m = Math.max(m, off[k + 1] - off[k]);
  return m;
}

function types(ids: Int32Array): number {
  let m = -1;
  for (let x = 0; x < ids.length; x++) if (ids[x] > m) m = ids[x];
  return m + 1;
}

export function makeView(b: BitextArrays, dir: Direction, srcTypes?: number, tgtTypes?: number): View {
  const fwd = dir === 'fwd';
  const genOff = fwd ? b.srcOff : b.tgtOff;
  const obsOff = fwd ? b.tgtOff : b.srcOff;
  const genIds = fwd ? b.srcIds : b.tgtIds;
  const obsIds = fwd ? b.tgtIds : b.srcIds;
  const st = srcTypes ?? types(b.srcIds);
  const tt = tgtTypes ?? types(b.tgtIds);
  return {
    dir,
    n: b.n,
    genOff,
    genIds,
    obsOff,
    obsIds,
    cellOff: b.cellOff,
    cellLo: b.cellLo,
    cellHi: b.cellHi,
    pairGen: fwd ? b.pairSrc : b.pairTgt,
    maxI: maxLen(genOff),
    maxJ: maxLen(obsOff),
    obsTypes: fwd ? tt : st,
    genTypes: fwd ? st : tt,
  };
}

/** First cell of pair k and the strides of gen and obs positions (gen length I, obs J). */
export function cellLayout(v: View, k: number, I: number, J: number): { base: number; sg: number; so: number } {
  return v.dir === 'fwd' ? { base: v.cellOff[k], sg: J, so: 1 } : { base: v.cellOff[k], sg: 1, so: I };
}
