// The aligner engine's corpus on disk, so that its memory depends on the vocabularies and
// the lexical pairs, not on the number of pairs: the pairs are read once, in order, and
// written in blocks of BLOCK_PAIRS pairs to two files in a temporary folder: `ids` (per block
// the source and target lengths, then the source and target word ids, Int32) and `cells`
// (per block the cells' lexical pair ids, index conventions in corpus.ts: their low 16 bits,
// then their high 8 or 16). Every EM iteration each training thread reads its slice's blocks
// back into buffers it reuses (BlockReader): the files stay in the OS page cache, which is not
// the process's memory.
// The cells are numbered as they stream past (cells.ts): the first pass writes each cell's
// provisional id (Int32) to a third file, which the second pass reads block by block, maps to
// the final ids and writes as `cells`, then removes; the numbering and so every sum of EM are
// the same as an in-memory Bitext's. On a large corpus the first pass and the final numbering
// each end with a garbage collection (collect-garbage.ts): the peak of `mekong align` was
// otherwise their dead arrays, by chance.
import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { collectGarbage } from './collect-garbage.ts';
import { CellNumbering, grown, THREE_BYTE_PAIRS, writeFinal } from './cells.ts';
import { Vocabulary, type Vocabularies } from './corpus.ts';
import type { Sentences } from './sentences.ts';
import { readAll, writeAll } from './typed-io.ts';
import type { Block, CorpusShape } from './view.ts';

/** Pairs per block: dup100k's blocks hold about 2.4M cells (7 MB as read back). */
export const BLOCK_PAIRS = 8192;

/**
 * Corpora from this many cells on have the numbering's dead arrays collected at its phase
 * ends (a collection took 7–8 ms at dup100k; below this, the arrays are a few megabytes).
 */
export const COLLECT_FROM_CELLS = 2_000_000;

/** Where one block's pairs are in the files. */
export interface BlockEntry {
  first: number;
  n: number;
  /** source and target tokens, cells */
  src: number;
  tgt: number;
  cells: number;
  /** byte offsets in `ids` and `cells` */
  idsAt: number;
  cellsAt: number;
}

/** What a training thread needs to read the corpus (structured-clone-safe: no vocabularies). */
export interface CorpusLayout extends CorpusShape {
  n: number;
  /** cells of all pairs */
  cells: number;
  /** cellHi is Uint16 (past 2^24 lexical pairs) */
  wide: boolean;
  idsFile: string;
  cellsFile: string;
  blocks: BlockEntry[];
}

export type CorpusFile = CorpusLayout & Vocabularies;

/**
 * Writes the pairs of `src` and `tgt` (sentence k of each is pair k) to `dir` (a folder the
 * caller removes); `wideFrom` (tests) is the lexical pair count past which the high bits widen.
 */
export function writeCorpusFile(
  src: Sentences,
  tgt: Sentences,
  dir: string,
  blockPairs = BLOCK_PAIRS,
  wideFrom = THREE_BYTE_PAIRS,
): CorpusFile {
  const n = src.length;
  const sv = new Vocabulary(),
    tv = new Vocabulary();
  const numbering = new CellNumbering();
  const idsFile = join(dir, 'ids'),
    provFile = join(dir, 'provisional'),
    cellsFile = join(dir, 'cells');
  const sLen = new Int32Array(blockPairs),
    tLen = new Int32Array(blockPairs),
    sOff = new Int32Array(blockPairs + 1),
    tOff = new Int32Array(blockPairs + 1);
  let sIds = new Int32Array(1 << 10),
    tIds = new Int32Array(1 << 10),
    prov = new Int32Array(1 << 12);
  const blocks: BlockEntry[] = [];
  let maxSrc = 0,
    maxTgt = 0,
    cells = 0;
  const ids = openSync(idsFile, 'w'),
    provFd = openSync(provFile, 'w+');
  try {
    let idsAt = 0,
      provAt = 0;
    for (let first = 0; first < n; first += blockPairs) {
      const m = Math.min(blockPairs, n - first);
      let S = 0,
        T = 0,
        C = 0;
      for (let x = 0; x < m; x++) {
        const sw = src.tokens(first + x),
          tw = tgt.tokens(first + x);
        const I = sw.length,
          J = tw.length;
        sIds = grown(sIds, S + I);
        tIds = grown(tIds, T + J);
        for (const w of sw) sIds[S++] = sv.id(w);
        for (const w of tw) tIds[T++] = tv.id(w);
        C += I * J;
        sLen[x] = I;
        tLen[x] = J;
        sOff[x + 1] = S;
        tOff[x + 1] = T;
        if (I > maxSrc) maxSrc = I;
        if (J > maxTgt) maxTgt = J;
      }
      prov = grown(prov, C);
      numbering.add({ n: m, srcOff: sOff, srcIds: sIds, tgtOff: tOff, tgtIds: tIds }, 0, m, prov);
      blocks.push({ first, n: m, src: S, tgt: T, cells: C, idsAt, cellsAt: provAt });
      idsAt += writeAll(ids, sLen, m) + writeAll(ids, tLen, m) + writeAll(ids, sIds, S) + writeAll(ids, tIds, T);
      provAt += writeAll(provFd, prov, C);
      cells += C;
    }
    // dead arrays left by a phase are collected before the next allocates (collect-garbage.ts)
    const large = cells >= COLLECT_FROM_CELLS;
    if (large) collectGarbage();
    const pairs = numbering.pairs;
    const { final, pairSrc, pairTgt } = numbering.finish();
    if (large) collectGarbage();
    const wide = pairs > wideFrom;
    const maxCells = blocks.reduce((a, b) => Math.max(a, b.cells), 0);
    const lo = new Uint16Array(maxCells),
      hi = wide ? new Uint16Array(maxCells) : new Uint8Array(maxCells);
    const cellsFd = openSync(cellsFile, 'w');
    try {
      let cellsAt = 0;
      for (const b of blocks) {
        readAll(provFd, prov, b.cells, b.cellsAt);
        writeFinal(prov, b.cells, final, lo, hi);
        b.cellsAt = cellsAt;
        cellsAt += writeAll(cellsFd, lo, b.cells) + writeAll(cellsFd, hi, b.cells);
      }
    } finally {
      closeSync(cellsFd);
    }
    const shape = { srcTypes: sv.words.length, tgtTypes: tv.words.length, maxSrc, maxTgt, pairSrc, pairTgt };
    return { ...shape, n, cells, wide, idsFile, cellsFile, blocks, srcVocab: sv.words, tgtVocab: tv.words };
  } finally {
    closeSync(ids);
    closeSync(provFd);
    rmSync(provFile, { force: true });
  }
}

/** Reads blocks of a corpus file into buffers it reuses: a block's arrays hold until the next read. Each read opens and closes the files: a thread terminated between iterations (a cancel) leaves no descriptor open on them. */
export class BlockReader {
  private readonly block: Block;

  constructor(private readonly c: CorpusLayout) {
    const max = (f: (b: BlockEntry) => number) => c.blocks.reduce((a, b) => Math.max(a, f(b)), 0);
    const pairs = max((b) => b.n),
      cells = max((b) => b.cells);
    this.block = {
      first: 0,
      n: 0,
      srcOff: new Int32Array(pairs + 1),
      srcIds: new Int32Array(max((b) => b.src)),
      tgtOff: new Int32Array(pairs + 1),
      tgtIds: new Int32Array(max((b) => b.tgt)),
      cellOff: new Int32Array(pairs + 1),
      cellLo: new Uint16Array(cells),
      cellHi: c.wide ? new Uint16Array(cells) : new Uint8Array(cells),
    };
  }

  /** Block i of the corpus. */
  read(i: number): Block {
    const e = this.c.blocks[i],
      b = this.block,
      m = e.n;
    b.first = e.first;
    b.n = m;
    const ids = openSync(this.c.idsFile, 'r');
    try {
      let at = readAll(ids, b.srcOff.subarray(1), m, e.idsAt);
      at = readAll(ids, b.tgtOff.subarray(1), m, at);
      at = readAll(ids, b.srcIds, e.src, at);
      readAll(ids, b.tgtIds, e.tgt, at);
    } finally {
      closeSync(ids);
    }
    for (let x = 0; x < m; x++) {
      const I = b.srcOff[x + 1],
        J = b.tgtOff[x + 1];
      b.srcOff[x + 1] = b.srcOff[x] + I;
      b.tgtOff[x + 1] = b.tgtOff[x] + J;
      b.cellOff[x + 1] = b.cellOff[x] + I * J;
    }
    const cells = openSync(this.c.cellsFile, 'r');
    try {
      readAll(cells, b.cellHi, e.cells, readAll(cells, b.cellLo, e.cells, e.cellsAt));
    } finally {
      closeSync(cells);
    }
    return b;
  }

  /** Index of the block holding pair k. */
  blockOf(k: number): number {
    return Math.min(Math.floor(k / (this.c.blocks[0]?.n || 1)), this.c.blocks.length - 1);
  }
}

/** Boundaries of `parts` slices with about equal numbers of cells (the E-step's work): slice i is pairs bounds[i] .. bounds[i+1]-1. */
export function sliceBounds(c: CorpusLayout, parts: number): number[] {
  const bounds = [0];
  const reader = new BlockReader(c);
  let i = 1,
    before = 0;
  for (let x = 0; x < c.blocks.length && i < parts; x++) {
    const e = c.blocks[x];
    if (before + e.cells >= (c.cells * i) / parts) {
      const b = reader.read(x);
      for (let y = 0; y <= e.n && i < parts;) {
        if (before + b.cellOff[y] >= (c.cells * i) / parts) {
          bounds.push(e.first + y);
          i++;
        } else y++;
      }
    }
    before += e.cells;
  }
  while (bounds.length < parts) bounds.push(c.n);
  bounds.push(c.n);
  return bounds;
}
