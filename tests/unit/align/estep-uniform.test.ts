// The first E-step of a plan that starts with IBM1 counts in closed form (estep.ts
// countUniform): under the uniform tables newLexTables makes, its counts must be bit for bit
// those of the full E-step (emissions, IBM1's posteriors, quantisation), in both countings,
// over several blocks of real sentence pairs with repeated words and an empty side.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { BlockReader, writeCorpusFile } from '../../../src/main/align/corpus-file.ts';
import { PairEStep } from '../../../src/main/align/estep.ts';
import { createModel } from '../../../src/main/align/models/model-kinds.ts';
import { sentences } from '../../../src/main/align/sentences.ts';
import { newLexCounts, newLexTables, type LexCounts } from '../../../src/main/align/translation-table.ts';
import { makeView, showBlock } from '../../../src/main/align/view.ts';
import { m30kPairs } from '../models/siamese/bench-pairs.ts';

let dir: string;
beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'mekong-estep-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (a: Float32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

test.each(['agreement', 'own'] as const)('closed-form uniform counts equal the full E-step bit for bit (%s)', (counting) => {
  const { src, tgt } = m30kPairs(300);
  src[11] = [];
  tgt[12] = [];
  const c = writeCorpusFile(sentences(src), sentences(tgt), dir, 64);
  const views = { fwd: makeView(c, 'fwd'), rev: makeView(c, 'rev') };
  const tables = newLexTables(views.fwd, views.rev);
  const agreement = counting === 'agreement';
  const full = newLexCounts(views.fwd, views.rev, agreement),
    closed = newLexCounts(views.fwd, views.rev, agreement);
  const estep = (counts: LexCounts) => new PairEStep({ views, tables, counts, constraints: new Map() });
  const [a, b] = [estep(full), estep(closed)];
  const models = { fwd: createModel('ibm1'), rev: createModel('ibm1') };
  const reader = new BlockReader(c);
  for (let i = 0; i < c.blocks.length; i++) {
    const block = reader.read(i);
    showBlock(views.fwd, block);
    showBlock(views.rev, block);
    for (let k = block.first; k < block.first + block.n; k++) {
      a.run(k, models, true, counting);
      b.countUniform(k, counting);
    }
  }
  expect(c.blocks.length).toBeGreaterThan(3);
  for (const key of ['c', 'cNull'] as const) {
    for (const d of ['fwd', 'rev'] as const) {
      expect(full[key][d].some((x) => x > 0)).toBe(true);
      expect(bytes(closed[key][d]).equals(bytes(full[key][d]))).toBe(true);
    }
  }
  // repeated words: some word pair meets several cells of one pair, so its count sums many equal additions
  expect(src.some((s) => new Set(s).size < s.length)).toBe(true);
});
