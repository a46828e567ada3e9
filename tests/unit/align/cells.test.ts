// The cells of a real bitext (Multi30k en–fr, 2,000 pairs: past 2^16 distinct word pairs, so
// the pair ids use their high byte): each cell's three-byte id names the word pair of its
// source and target positions, and every id is below the number of word pairs; built to
// widen its high bits early (as past 2^24 word pairs), every id is the same.
import { expect, test } from 'vitest';
import { buildCells } from '../../../src/main/align/cells.ts';
import { buildBitext } from '../../../src/main/align/corpus.ts';
import { m30kPairs } from '../models/siamese/bench-pairs.ts';

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
  const wide = buildCells(b, b.srcVocab.length, b.tgtVocab.length, 1000);
  expect(b.cellHi).toBeInstanceOf(Uint8Array);
  expect(wide.cellHi).toBeInstanceOf(Uint16Array);
  expect(b.pairSrc.length).toBeGreaterThan(1000);
  for (let x = 0; x < b.cellOff[b.n]; x++) {
    if ((wide.cellLo[x] | (wide.cellHi[x] << 16)) !== (b.cellLo[x] | (b.cellHi[x] << 16))) throw new Error(`cell ${x}: ids differ`);
  }
  expect(Array.from(wide.pairSrc)).toEqual(Array.from(b.pairSrc));
});
