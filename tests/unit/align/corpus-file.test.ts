// The aligner's corpus on disk (corpus-file.ts): blocks read back hold the same word ids and
// cell ids as the in-memory bitext, slices cut where the in-memory offsets cut them, a file
// read in windows gives every line as a whole read does, and the engine's temporary folder
// is gone after a run, a streamed read and a cancel.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { buildBitext } from '../../../src/main/align/corpus.ts';
import { BlockReader, sliceBounds, writeCorpusFile } from '../../../src/main/align/corpus-file.ts';
import { alignCorpus, alignCorpusStreamed } from '../../../src/main/align/engine.ts';
import { sentences } from '../../../src/main/align/sentences.ts';
import { readLines, readParallel, tokenize } from '../../../src/main/align/text-io.ts';
import { CancelledError } from '../../../src/main/errors.ts';
import { m30kPairs } from '../models/siamese/bench-pairs.ts';

let tmp: string;
const oldTmp = process.env.TMPDIR;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'mekong-test-'));
  process.env.TMPDIR = tmp;
});
afterEach(() => {
  if (oldTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = oldTmp;
});

test('blocks read back hold the in-memory bitext, widened ids included; slices cut at the same pairs', () => {
  const { src, tgt } = m30kPairs(300);
  src[7] = [];
  const b = buildBitext(src, tgt);
  for (const wideFrom of [1 << 24, 1000]) {
    const c = writeCorpusFile(sentences(src), sentences(tgt), mkdtempSync(join(tmp, 'c-')), 37, wideFrom);
    expect(c.blocks.length).toBe(Math.ceil(300 / 37));
    expect(c.wide).toBe(wideFrom === 1000);
    expect(Array.from(c.pairSrc)).toEqual(Array.from(b.pairSrc));
    expect(Array.from(c.pairTgt)).toEqual(Array.from(b.pairTgt));
    const reader = new BlockReader(c);
    for (let i = 0; i < c.blocks.length; i++) {
      const block = reader.read(i);
      for (let x = 0; x < block.n; x++) {
        const k = block.first + x;
        const ids = (a: Int32Array, off: Int32Array, from: number, to: number) => Array.from(a.subarray(off[from], off[to]));
        expect(ids(block.srcIds, block.srcOff, x, x + 1)).toEqual(ids(b.srcIds, b.srcOff, k, k + 1));
        expect(ids(block.tgtIds, block.tgtOff, x, x + 1)).toEqual(ids(b.tgtIds, b.tgtOff, k, k + 1));
        for (let y = 0; y < b.cellOff[k + 1] - b.cellOff[k]; y++) {
          const mine = block.cellLo[block.cellOff[x] + y] | (block.cellHi[block.cellOff[x] + y] << 16);
          if (mine !== (b.cellLo[b.cellOff[k] + y] | (b.cellHi[b.cellOff[k] + y] << 16))) throw new Error(`pair ${k} cell ${y} differs`);
        }
      }
    }
    for (const parts of [2, 3, 5]) {
      const expected = [0];
      for (let i = 1, k = 0; i < parts; i++) {
        while (k < b.n && b.cellOff[k] < (b.cellOff[b.n] * i) / parts) k++;
        expected.push(k);
      }
      expected.push(b.n);
      expect(sliceBounds(c, parts)).toEqual(expected);
    }
  }
});

test('a file read in windows gives every line as the whole file does, lines across window edges included', () => {
  const line = (k: number) => `w${k} ${'x'.repeat(k % 997)} ü${k}${k % 5 === 0 ? '\r' : ''}`;
  const lines = Array.from({ length: 6000 }, (_, k) => (k % 1000 === 3 ? '' : line(k)));
  const [a, b] = [join(tmp, 'a'), join(tmp, 'b')];
  writeFileSync(a, lines.join('\n'));
  writeFileSync(b, lines.join('\n') + '\n');
  const whole = readLines(a);
  expect(whole.length).toBe(6000);
  const { src, tgt } = readParallel(a, b);
  for (const k of [5999, 0, ...Array.from({ length: 6000 }, (_, k) => k)]) {
    expect(src.tokens(k)).toEqual(tokenize(whole[k]));
    expect(tgt.size(k)).toBe(tokenize(whole[k]).length);
  }
});

test("the engine's temporary folder is gone after a run, after a streamed read and after a cancel", async () => {
  const { src, tgt } = m30kPairs(400);
  const folders = () => readdirSync(tmp).filter((d) => d.startsWith('mekong-align-'));
  let during: string[] = [];
  await alignCorpus(
    src,
    tgt,
    { method: 'ibm1', workers: true },
    { onPhase: (p) => p === 'bitext' && (during = readdirSync(join(tmp, folders()[0]))) },
  );
  expect(during).toEqual(expect.arrayContaining(['ids', 'cells']));
  expect(folders()).toEqual([]);
  const streamed = await alignCorpusStreamed(src, tgt, { method: 'ibm1', workers: true });
  expect(folders().length).toBe(1);
  expect([...streamed.links].length).toBe(400);
  expect(folders()).toEqual([]);
  const abort = new AbortController();
  const ctx = { progress: () => abort.abort(), signal: abort.signal };
  await expect(alignCorpus(src, tgt, { method: 'agree', workers: true }, { ctx })).rejects.toBeInstanceOf(CancelledError);
  expect(folders()).toEqual([]);
});
