// The co-occurrence cells of a bitext and the lexical pair ids they point to (index
// conventions in corpus.ts), built without a hash table: the occurrences of each source
// word a, in corpus order, meet their sentences' target words, and a stamp per target word
// (stamp[b] = a) tells a new pair (a, b) from one seen before: no tables are left to the
// garbage collector, and it takes less time and memory than the hash table it replaced
// (docs/experiments.md).
// Pair ids, as the lexical tables index them: in the order a corpus-order scan of the cells
// first meets each pair (this order fixes the order of the M-step's sums), then the most
// frequent first (a counting sort on capped counts, ties in that order): the hot loops then
// find most lexical entries in a small, cache-resident prefix.
// A cell's pair id takes three bytes, its low 16 bits in cellLo and its high 8 in cellHi:
// dup100k's 29.3M cells take 88 MB instead of 117 as Int32 (docs/experiments.md has the
// peak RSS it saves). A corpus whose cells meet more than
// 2^24 distinct word pairs (dup100k: 3.0M; a few million-pair corpora) gets 16 high bits
// instead, four bytes a cell as before: cellHi widens when the count reaches 2^24.
import { sharedInt32, sharedUint16, sharedUint8 } from './shared-arrays.ts';

/** Number of distinct word pairs three-byte ids can name. */
const THREE_BYTE_PAIRS = 1 << 24;

export interface Cells {
  cellOff: Int32Array;
  /** low 16 bits of each cell's lexical pair id */
  cellLo: Uint16Array;
  /** high bits of each cell's lexical pair id: 8, or 16 past 2^24 word pairs */
  cellHi: Uint8Array | Uint16Array;
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

export interface EncodedSides {
  n: number;
  srcOff: Int32Array;
  srcIds: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
}

function cellOffsets(b: EncodedSides): Int32Array {
  const cellOff = sharedInt32(b.n + 1);
  let total = 0;
  for (let k = 0; k < b.n; k++) {
    total += (b.srcOff[k + 1] - b.srcOff[k]) * (b.tgtOff[k + 1] - b.tgtOff[k]);
    cellOff[k + 1] = total;
  }
  return cellOff;
}

/**
 * Source tokens grouped by word, each group in corpus order (a counting sort): word a's
 * occurrences are at[start[a] .. start[a+1]), token positions in srcIds, with their pairs in pairOf.
 */
function occurrences(b: EncodedSides, types: number): { start: Int32Array; at: Int32Array; pairOf: Int32Array } {
  const ids = b.srcIds;
  const start = new Int32Array(types + 1);
  for (let i = 0; i < ids.length; i++) start[ids[i] + 1]++;
  for (let a = 0; a < types; a++) start[a + 1] += start[a];
  const next = start.slice(0, types),
    at = new Int32Array(ids.length),
    pairOf = new Int32Array(ids.length);
  for (let k = 0; k < b.n; k++) {
    for (let i = b.srcOff[k]; i < b.srcOff[k + 1]; i++) {
      const o = next[ids[i]]++;
      at[o] = i;
      pairOf[o] = k;
    }
  }
  return { start, at, pairOf };
}

/**
 * Fills the cells with provisional pair ids (numbered source word by source word); returns
 * their number and the high bits' array, widened to 16 bits once `wideFrom` ids are taken.
 */
function provisionalIds(
  b: EncodedSides,
  cellOff: Int32Array,
  lo: Uint16Array,
  srcTypes: number,
  tgtTypes: number,
  wideFrom: number,
): { n: number; hi: Uint8Array | Uint16Array } {
  let hi: Uint8Array | Uint16Array = sharedUint8(lo.length);
  const { start, at, pairOf } = occurrences(b, srcTypes);
  const stamp = new Int32Array(tgtTypes).fill(-1),
    id = new Int32Array(tgtTypes);
  let n = 0;
  for (let a = 0; a < srcTypes; a++) {
    for (let o = start[a]; o < start[a + 1]; o++) {
      const i = at[o],
        k = pairOf[o];
      const t0 = b.tgtOff[k],
        J = b.tgtOff[k + 1] - t0;
      const c = cellOff[k] + (i - b.srcOff[k]) * J;
      for (let j = 0; j < J; j++) {
        const w = b.tgtIds[t0 + j];
        if (stamp[w] !== a) {
          if (n === wideFrom && hi instanceof Uint8Array) {
            const wide = sharedUint16(lo.length);
            wide.set(hi);
            hi = wide;
          }
          stamp[w] = a;
          id[w] = n++;
        }
        lo[c + j] = id[w];
        hi[c + j] = id[w] >>> 16;
      }
    }
  }
  return { n, hi };
}

/** Turns capped counts by pair into new ids, most frequent first, ties in pair order (in place). */
function byFrequency(count: Int32Array): void {
  const CAP = 4095;
  const start = new Int32Array(CAP + 2);
  for (let p = 0; p < count.length; p++) start[CAP - Math.min(CAP, count[p]) + 1]++;
  for (let c = 1; c <= CAP + 1; c++) start[c] += start[c - 1];
  for (let p = 0; p < count.length; p++) count[p] = start[CAP - Math.min(CAP, count[p])]++;
}

/** The cells of `b`; `wideFrom` (tests) is the pair count at which the high bits widen. */
export function buildCells(b: EncodedSides, srcTypes: number, tgtTypes: number, wideFrom = THREE_BYTE_PAIRS): Cells {
  const cellOff = cellOffsets(b);
  const lo = sharedUint16(cellOff[b.n]);
  const { n: nPairs, hi } = provisionalIds(b, cellOff, lo, srcTypes, tgtTypes, wideFrom);
  // rank: provisional id → order of first meeting; final: counts by rank, then new ids
  const rank = new Int32Array(nPairs).fill(-1),
    final = new Int32Array(nPairs);
  let r = 0;
  for (let c = 0; c < lo.length; c++) {
    const p = lo[c] | (hi[c] << 16);
    if (rank[p] < 0) rank[p] = r++;
    final[rank[p]]++;
  }
  byFrequency(final);
  for (let p = 0; p < nPairs; p++) rank[p] = final[rank[p]];
  const pairSrc = sharedInt32(nPairs),
    pairTgt = sharedInt32(nPairs);
  let c = 0;
  for (let k = 0; k < b.n; k++) {
    for (let i = b.srcOff[k]; i < b.srcOff[k + 1]; i++) {
      for (let j = b.tgtOff[k]; j < b.tgtOff[k + 1]; j++, c++) {
        const p = rank[lo[c] | (hi[c] << 16)];
        lo[c] = p;
        hi[c] = p >>> 16;
        pairSrc[p] = b.srcIds[i];
        pairTgt[p] = b.tgtIds[j];
      }
    }
  }
  return { cellOff, cellLo: lo, cellHi: hi, pairSrc, pairTgt };
}
