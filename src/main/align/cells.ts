// The co-occurrence cells of a bitext and the lexical pair ids they point to (index
// conventions in corpus.ts), numbered as the pairs stream past, block by block, without a
// hash table. CellNumbering keeps the word pairs met so far as one row per source word (its
// target words and their provisional ids, in one pool array). A block's source tokens are
// grouped by word (a counting sort); for each word a, its row is spread over a stamp per
// target word (stamp[b] = this visit, idOf[b] = the pair's id), and its occurrences meet their
// sentences' target words: a stamped target gives its id, an unstamped one is a word pair new
// to the corpus. A corpus-order scan of the block's cells then gives the new pairs their
// provisional ids, the order in which a corpus-order scan of all cells first meets a pair, and
// counts each pair's cells. finish() turns provisional ids into the final ones, the most
// frequent first (a counting sort on capped counts, ties in first-meeting order): the hot loops
// then find most lexical entries in a small, cache-resident prefix, and the first-meeting
// order fixes the order of the M-step's sums. What it keeps grows with the word pairs (12
// bytes a pair with the rows' room to grow), not with the pairs of the corpus, and its arrays
// are few and large (glibc gives them back when freed, where many small ones stayed in the
// process); the file-backed corpus (corpus-file.ts) writes the provisional ids out and maps
// them block by block.
// A cell's final id takes three bytes, its low 16 bits in cellLo and its high 8 in cellHi:
// dup100k's 29.3M cells take 88 MB instead of 117 as Int32. A corpus whose cells meet more
// than 2^24 distinct word pairs (dup100k: 3.0M; a few million-pair corpora) gets 16 high
// bits instead, four bytes a cell.
import { sharedInt32, sharedUint16, sharedUint8 } from './shared-arrays.ts';

/** Number of distinct word pairs three-byte ids can name. */
export const THREE_BYTE_PAIRS = 1 << 24;

/** Counts above this all rank alike (the order of the frequent pairs hardly matters to the cache). */
const CAP = 4095;

export interface Cells {
  cellOff: Int32Array;
  /** low 16 bits of each cell's lexical pair id */
  cellLo: Uint16Array;
  /** high bits of each cell's lexical pair id: 8, or 16 past 2^24 word pairs */
  cellHi: Uint8Array | Uint16Array;
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

/** Word ids of pairs: pair k's source words are srcIds[srcOff[k] .. srcOff[k+1]), its target words likewise. */
export interface EncodedSides {
  n: number;
  srcOff: Int32Array;
  srcIds: Int32Array;
  tgtOff: Int32Array;
  tgtIds: Int32Array;
}

/** The final numbering: final[provisional id], and each final id's source and target word. */
export interface Numbering {
  final: Int32Array;
  pairSrc: Int32Array;
  pairTgt: Int32Array;
}

type Growable = Int32Array | Uint16Array;

/** `a`, or a copy of it with room for `need` elements (at least twice its length). */
export function grown<A extends Growable>(a: A, need: number): A {
  if (need <= a.length) return a;
  const more = new (a.constructor as new (n: number) => A)(Math.max(need, 2 * a.length));
  more.set(a);
  return more;
}

/** Provisional ids of the cells of blocks of pairs given in corpus order, then their final numbering. */
export class CellNumbering {
  /** row of source word a: entries rowAt[a] .. rowAt[a] + rowLen[a] of the pool (room for rowCap[a]); entry x is pool[2x] (target word), pool[2x + 1] (provisional id) */
  private pool = new Int32Array(1 << 12);
  private poolUsed = 0;
  private rowAt = new Int32Array(1 << 10);
  private rowLen = new Int32Array(1 << 10);
  private rowCap = new Int32Array(1 << 10);
  /** by target word: the word visit that last set idOf (visits count from 1) */
  private stamp = new Int32Array(1 << 10);
  private idOf = new Int32Array(1 << 10);
  private visit = 0;
  /** cells per provisional id, capped */
  private count = new Uint16Array(1 << 10);
  private n = 0;
  // scratch of one block: its source words (local index + 1 by word id), their occurrences grouped, its new pairs
  private slot = new Int32Array(1 << 10);
  private words = new Int32Array(1 << 10);
  private start = new Int32Array(1 << 10);
  private at = new Int32Array(1 << 10);
  private pairOf = new Int32Array(1 << 10);
  private cellAt = new Int32Array(1 << 10);
  private newSrc = new Int32Array(1 << 10);
  private newTgt = new Int32Array(1 << 10);
  private newId = new Int32Array(1 << 10);

  get pairs(): number {
    return this.n;
  }

  /**
   * Writes the provisional ids of the cells of pairs k0 .. k1-1 of `b` to out[0 ..), pair by
   * pair, each source-major; returns the number of cells.
   */
  add(b: EncodedSides, k0: number, k1: number, out: Int32Array): number {
    const m = k1 - k0;
    const cellAt = (this.cellAt = grown(this.cellAt, m + 1));
    let maxTgt = -1;
    for (let x = 0; x < m; x++) {
      const k = k0 + x;
      cellAt[x + 1] = cellAt[x] + (b.srcOff[k + 1] - b.srcOff[k]) * (b.tgtOff[k + 1] - b.tgtOff[k]);
    }
    for (let t = b.tgtOff[k0]; t < b.tgtOff[k1]; t++) if (b.tgtIds[t] > maxTgt) maxTgt = b.tgtIds[t];
    if (maxTgt >= this.stamp.length) {
      this.stamp = grown(this.stamp, maxTgt + 1);
      this.idOf = grown(this.idOf, maxTgt + 1);
    }
    const words = this.group(b, k0, k1);
    const fresh = this.meet(b, k0, words, out);
    this.rank(out, cellAt[m], fresh);
    this.remember(fresh);
    return cellAt[m];
  }

  /** Groups the source tokens of pairs k0 .. k1-1 by word (each word's in corpus order); returns the number of words. */
  private group(b: EncodedSides, k0: number, k1: number): number {
    const { srcIds, srcOff } = b;
    const t0 = srcOff[k0],
      t1 = srcOff[k1];
    let slot = this.slot,
      words = this.words,
      start = this.start,
      nw = 0;
    for (let t = t0; t < t1; t++) {
      const a = srcIds[t];
      if (a >= slot.length) this.slot = slot = grown(slot, a + 1);
      if (slot[a] === 0) {
        this.words = words = grown(words, nw + 1);
        this.start = start = grown(start, nw + 2);
        words[nw++] = a;
        slot[a] = nw;
        start[nw] = 0;
      }
      start[slot[a]]++;
    }
    start[0] = 0;
    for (let l = 0; l < nw; l++) start[l + 1] += start[l];
    const at = (this.at = grown(this.at, t1 - t0)),
      pairOf = (this.pairOf = grown(this.pairOf, t1 - t0));
    // start[l] moves to the end of word l's occurrences as they are placed, then back
    for (let k = k0; k < k1; k++) {
      for (let t = srcOff[k]; t < srcOff[k + 1]; t++) {
        const o = start[slot[srcIds[t]] - 1]++;
        at[o] = t;
        pairOf[o] = k;
      }
    }
    for (let l = nw; l > 0; l--) start[l] = start[l - 1];
    start[0] = 0;
    for (let l = 0; l < nw; l++) slot[words[l]] = 0;
    return nw;
  }

  /**
   * Every cell's provisional id, or for a word pair new to the corpus ~(its index among the
   * block's new pairs), word by word of the block; returns the number of new pairs.
   */
  private meet(b: EncodedSides, k0: number, nw: number, out: Int32Array): number {
    const { srcOff, tgtOff, tgtIds } = b;
    const { words, start, at, pairOf, cellAt, stamp, idOf, pool, rowAt, rowLen } = this;
    let fresh = 0,
      newSrc = this.newSrc,
      newTgt = this.newTgt;
    for (let l = 0; l < nw; l++) {
      const a = words[l];
      if (this.visit === 0x7fffffff) {
        stamp.fill(0);
        this.visit = 0;
      }
      const v = ++this.visit;
      if (a < rowLen.length) {
        for (let e = 2 * rowAt[a], end = e + 2 * rowLen[a]; e < end; e += 2) {
          stamp[pool[e]] = v;
          idOf[pool[e]] = pool[e + 1];
        }
      }
      for (let o = start[l]; o < start[l + 1]; o++) {
        const t = at[o],
          k = pairOf[o];
        const j0 = tgtOff[k],
          J = tgtOff[k + 1] - j0;
        const base = cellAt[k - k0] + (t - srcOff[k]) * J;
        for (let j = 0; j < J; j++) {
          const w = tgtIds[j0 + j];
          if (stamp[w] !== v) {
            stamp[w] = v;
            idOf[w] = ~fresh;
            if (fresh === newSrc.length) {
              this.newSrc = newSrc = grown(newSrc, fresh + 1);
              this.newTgt = newTgt = grown(newTgt, fresh + 1);
            }
            newSrc[fresh] = a;
            newTgt[fresh++] = w;
          }
          out[base + j] = idOf[w];
        }
      }
    }
    return fresh;
  }

  /** Gives the block's new pairs their ids in corpus order of their first cell, and counts every cell. */
  private rank(out: Int32Array, cells: number, fresh: number): void {
    const newId = (this.newId = grown(this.newId, fresh));
    newId.fill(-1, 0, fresh);
    const count = (this.count = grown(this.count, this.n + fresh));
    let n = this.n;
    for (let c = 0; c < cells; c++) {
      let p = out[c];
      if (p < 0) {
        p = newId[~p];
        if (p < 0) p = newId[~out[c]] = n++;
        out[c] = p;
      }
      if (count[p] < CAP) count[p]++;
    }
    this.n = n;
  }

  /** Adds the block's new pairs (grouped by source word) to their words' rows. */
  private remember(fresh: number): void {
    const { newSrc, newTgt, newId } = this;
    for (let q = 0; q < fresh;) {
      const a = newSrc[q];
      let r = q;
      while (r < fresh && newSrc[r] === a) r++;
      const x = this.room(a, r - q);
      for (let e = 2 * x; q < r; q++, e += 2) {
        this.pool[e] = newTgt[q];
        this.pool[e + 1] = newId[q];
      }
    }
  }

  /** Room in source word a's row for m more entries; returns the entry index of the first. */
  private room(a: number, m: number): number {
    if (a >= this.rowLen.length) {
      this.rowAt = grown(this.rowAt, a + 1);
      this.rowLen = grown(this.rowLen, a + 1);
      this.rowCap = grown(this.rowCap, a + 1);
    }
    const len = this.rowLen[a],
      need = len + m;
    if (need > this.rowCap[a]) {
      // the row moves to the pool's end with a quarter more room than it needs
      const cap = need + (need >> 2) + 1;
      if (2 * (this.poolUsed + cap) > this.pool.length) this.compact(cap);
      const from = 2 * this.rowAt[a];
      this.pool.copyWithin(2 * this.poolUsed, from, from + 2 * len);
      this.rowAt[a] = this.poolUsed;
      this.rowCap[a] = cap;
      this.poolUsed += cap;
    }
    this.rowLen[a] = need;
    return this.rowAt[a] + len;
  }

  /** A new pool holding the rows packed (the room left behind by rows that moved is dropped), with room for half as much again and `more`. */
  private compact(more: number): void {
    const { rowAt, rowLen, rowCap } = this;
    let live = 0;
    for (let a = 0; a < rowLen.length; a++) live += rowCap[a];
    const pool = new Int32Array(2 * Math.ceil(1.5 * (live + more)));
    let used = 0;
    for (let a = 0; a < rowLen.length; a++) {
      if (rowCap[a] === 0) continue;
      pool.set(this.pool.subarray(2 * rowAt[a], 2 * (rowAt[a] + rowLen[a])), 2 * used);
      rowAt[a] = used;
      used += rowCap[a];
    }
    this.pool = pool;
    this.poolUsed = used;
  }

  /** The final ids, most frequent first, ties in first-meeting order; the rows are emptied. */
  finish(): Numbering {
    const n = this.n,
      count = this.count;
    const start = new Int32Array(CAP + 2);
    for (let p = 0; p < n; p++) start[CAP - count[p] + 1]++;
    for (let c = 1; c <= CAP + 1; c++) start[c] += start[c - 1];
    const final = new Int32Array(n);
    for (let p = 0; p < n; p++) final[p] = start[CAP - count[p]]++;
    const pairSrc = sharedInt32(n),
      pairTgt = sharedInt32(n);
    const { pool, rowAt, rowLen } = this;
    for (let a = 0; a < rowLen.length; a++) {
      for (let e = 2 * rowAt[a], end = e + 2 * rowLen[a]; e < end; e += 2) {
        const p = final[pool[e + 1]];
        pairSrc[p] = a;
        pairTgt[p] = pool[e];
      }
    }
    this.pool = this.rowAt = this.rowLen = this.rowCap = new Int32Array(0);
    this.count = new Uint16Array(0);
    return { final, pairSrc, pairTgt };
  }
}

/** Final ids of provisional ids prov[0 .. n) into lo/hi from `at`. */
export function writeFinal(prov: Int32Array, n: number, final: Int32Array, lo: Uint16Array, hi: Uint8Array | Uint16Array, at = 0): void {
  for (let c = 0; c < n; c++) {
    const p = final[prov[c]];
    lo[at + c] = p;
    hi[at + c] = p >>> 16;
  }
}

/** Pairs numbered at a time by buildCells (the provisional ids of one such block are Int32). */
const IN_MEMORY_BLOCK = 16384;

/** The cells of `b` in memory; `wideFrom` (tests) is the pair count past which the high bits widen. */
export function buildCells(b: EncodedSides, wideFrom = THREE_BYTE_PAIRS): Cells {
  const cellOff = sharedInt32(b.n + 1);
  for (let k = 0; k < b.n; k++) cellOff[k + 1] = cellOff[k] + (b.srcOff[k + 1] - b.srcOff[k]) * (b.tgtOff[k + 1] - b.tgtOff[k]);
  const lo = sharedUint16(cellOff[b.n]);
  let hi: Uint8Array | Uint16Array = sharedUint8(cellOff[b.n]);
  const numbering = new CellNumbering();
  let prov = new Int32Array(1 << 12);
  for (let k0 = 0; k0 < b.n; k0 += IN_MEMORY_BLOCK) {
    const k1 = Math.min(b.n, k0 + IN_MEMORY_BLOCK);
    prov = grown(prov, cellOff[k1] - cellOff[k0]);
    const cells = numbering.add(b, k0, k1, prov);
    if (numbering.pairs > wideFrom && hi instanceof Uint8Array) {
      const wide = sharedUint16(hi.length);
      wide.set(hi);
      hi = wide;
    }
    for (let c = 0, x = cellOff[k0]; c < cells; c++, x++) {
      lo[x] = prov[c];
      hi[x] = prov[c] >>> 16;
    }
  }
  const { final, pairSrc, pairTgt } = numbering.finish();
  for (let x = 0; x < lo.length; x++) {
    const p = final[lo[x] | (hi[x] << 16)];
    lo[x] = p;
    hi[x] = p >>> 16;
  }
  return { cellOff, cellLo: lo, cellHi: hi, pairSrc, pairTgt };
}
