// The cells of a real bitext (Multi30k en–fr, 2,000 pairs: past 2^16 distinct word pairs, so
// the pair ids use their high byte): each cell's three-byte id names the word pair of its
// source and target positions, and every id is below the number of word pairs; built to
// widen its high bits early (as past 2^24 word pairs), every id is the same; the ids are the
// numbering EM's sums depend on (most cells first, ties in the order a corpus-order scan first
// meets a pair), in memory and block by block alike, also on a corpus whose later blocks meet
// only pairs seen before (the cycled corpora of the align bench).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { buildCells } from '../../../src/main/align/cells.ts';
import { BlockReader, writeCorpusFile } from '../../../src/main/align/corpus-file.ts';
import { buildBitext } from '../../../src/main/align/corpus.ts';
import { sentences } from '../../../src/main/align/sentences.ts';
import { m30kPairs } from '../models/siamese/bench-pairs.ts';

/** The numbering written out plainly: word pair keys by id, from a corpus-order scan with a Map. */
function referenceOrder(src: string[][], tgt: string[][]): string[] {
  const seen = new Map<string, { first: number; cells: number }>();
  src.forEach((s, k) =>
    s.forEach((a) =>
      tgt[k].forEach((b) => {
        const key = `${a} ${b}`;
        const e = seen.get(key) ?? { first: seen.size, cells: 0 };
        e.cells++;
        seen.set(key, e);
      }),
    ),
  );
  const capped = (c: number) => Math.min(c, 4095);
  return [...seen].sort(([, x], [, y]) => capped(y.cells) - capped(x.cells) || x.first - y.first).map(([key]) => key);
}

test("a cell's three-byte pair id names the word pair at its positions", () => {
  const { src, tgt } = m30kPairs(2000);
  const b = buildBitext(src, tgt);
  expect(b.pairSrc.length).toBeGreaterThan(1 << 16);
  let cells = 0;
  for (let k = 0; k < b.n; k++) {
    const I = b.srcOff[k + 1] - b.srcOff[k],
      J = b.tgtOff[k + 1] - b.tgtOff[k];
    for (let i = 0; i < I; i++) {
      for (let j = 0; j < J; j++) {
        const x = b.cellOff[k] + i * J + j;
        const p = b.cellLo[x] | (b.cellHi[x] << 16);
        if (p >= b.pairSrc.length || b.pairSrc[p] !== b.srcIds[b.srcOff[k] + i] || b.pairTgt[p] !== b.tgtIds[b.tgtOff[k] + j])
          throw new Error(`pair ${k} cell (${i}, ${j}): id ${p} names another word pair`);
        cells++;
      }
    }
  }
  expect(cells).toBe(b.cellOff[b.n]);
});

test('past the three-byte limit the high bits widen to 16 and every id stays the same', () => {
  const { src, tgt } = m30kPairs(300);
  const b = buildBitext(src, tgt);
  const wide = buildCells(b, 1000);
  expect(b.cellHi).toBeInstanceOf(Uint8Array);
  expect(wide.cellHi).toBeInstanceOf(Uint16Array);
  expect(b.pairSrc.length).toBeGreaterThan(1000);
  for (let x = 0; x < b.cellOff[b.n]; x++) {
    if ((wide.cellLo[x] | (wide.cellHi[x] << 16)) !== (b.cellLo[x] | (b.cellHi[x] << 16))) throw new Error(`cell ${x}: ids differ`);
  }
  expect(Array.from(wide.pairSrc)).toEqual(Array.from(b.pairSrc));
});

test('ids are numbered most cells first, ties in first-meeting order, in memory and block by block', () => {
  const { src: s0, tgt: t0 } = m30kPairs(700);
  // the second half repeats the first: its blocks meet only pairs seen before
  const src = [...s0, ...s0.slice(0, 350)],
    tgt = [...t0, ...t0.slice(0, 350)];
  const expected = referenceOrder(src, tgt);
  const b = buildBitext(src, tgt);
  const keys = (pairSrc: Int32Array, pairTgt: Int32Array, sv: string[], tv: string[]) =>
    Array.from(pairSrc, (a, p) => `${sv[a]} ${tv[pairTgt[p]]}`);
  expect(keys(b.pairSrc, b.pairTgt, b.srcVocab, b.tgtVocab)).toEqual(expected);
  for (const blockPairs of [50, 333]) {
    const dir = mkdtempSync(join(tmpdir(), 'mekong-cells-'));
    const c = writeCorpusFile(sentences(src), sentences(tgt), dir, blockPairs);
    expect(keys(c.pairSrc, c.pairTgt, c.srcVocab, c.tgtVocab)).toEqual(expected);
    const reader = new BlockReader(c);
    for (let i = 0; i < c.blocks.length; i++) {
      const block = reader.read(i);
      for (let x = 0; x < block.cellOff[block.n]; x++) {
        const y = b.cellOff[block.first] + x;
        if ((block.cellLo[x] | (block.cellHi[x] << 16)) !== (b.cellLo[y] | (b.cellHi[y] << 16))) throw new Error(`cell ${y} differs`);
      }
    }
    rmSync(dir, { recursive: true });
  }
});
