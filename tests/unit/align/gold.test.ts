// Gold-aware re-alignment: gold links act as evidence (and, applied as corrections, stay in
// the output), rejected links are never proposed, a dictionary acts as a prior, and bad gold
// is a clear error.
import { join } from 'node:path';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { expect, test } from 'vitest';
import { readDictionary } from '../../../src/main/align/dictionary.ts';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { withCorrections } from '../../../src/main/align/corrections.ts';
import { UserError } from '../../../src/main/errors.ts';

const src = ['das haus', 'das buch', 'ein buch', 'ein haus', 'das ein buch'].map((s) => s.split(' '));
const tgt = ['the house', 'the book', 'a book', 'a house', 'the a book'].map((s) => s.split(' '));
const pairs = (ls: { s: number; t: number }[]) => ls.map((l) => `${l.s}-${l.t}`);

test('gold links are kept as corrections (score 1, their kind) even where the model disagrees', async () => {
  const gold = [[{ s: 0, t: 1, kind: 'possible' as const, score: null }]];
  const { links } = await alignCorpus(src, tgt, { method: 'hmm', sym: 'intersect' }, { gold });
  const corrected = withCorrections(links[0], gold[0], [{ s: 1, t: 1 }]);
  expect(corrected).toContainEqual({ s: 0, t: 1, kind: 'possible', score: 1 });
  expect(corrected.some((l) => l.s === 1 && l.t === 1)).toBe(false);
});

test('gold links are evidence: they move the lexicon for the other pairs', async () => {
  // Two pairs where word order gives no clue; gold on pair 0 says x↔q, so pair 1 follows.
  const s = [
    ['x', 'y'],
    ['y', 'x'],
    ['x', 'y'],
  ];
  const t = [
    ['p', 'q'],
    ['q', 'p'],
    ['p', 'q'],
  ];
  const gold = [
    [
      { s: 0, t: 1 },
      { s: 1, t: 0 },
    ],
  ];
  const { links } = await alignCorpus(s, t, { method: 'ibm1', sym: 'intersect' }, { gold });
  expect(pairs(links[1])).toEqual(['0-1', '1-0']);
  expect(pairs(links[2])).toEqual(['0-1', '1-0']);
});

test('rejected links are never proposed for that pair', async () => {
  const rejected = [[{ s: 1, t: 1 }]];
  for (const sym of ['union', 'gdfa', 'post']) {
    const { links } = await alignCorpus(src, tgt, { method: 'agree', sym }, { rejected });
    expect(pairs(links[0])).not.toContain('1-1');
    expect(pairs(links[3])).toContain('1-1'); // other pairs unaffected
  }
});

test('gold out of range is a clear user error', async () => {
  const gold = [[{ s: 0, t: 7 }]];
  await expect(alignCorpus(src, tgt, {}, { gold })).rejects.toThrow(UserError);
  await expect(alignCorpus(src, tgt, {}, { gold })).rejects.toThrow('gold link 0-7 of pair 1 is out of range (2 source, 2 target tokens)');
});

test('different sentence counts are a clear user error', async () => {
  await expect(alignCorpus(src, tgt.slice(1))).rejects.toThrow('source has 5 sentences but target has 4');
});

test('a dictionary prior decides an alignment the corpus alone cannot', async () => {
  const s = [['x', 'y']],
    t = [['p', 'q']];
  const dir = mkdtempSync(join(tmpdir(), 'mekong-dict-'));
  const file = join(dir, 'dict.csv');
  writeFileSync(file, 'ID,Src,Gloss\n1,x,q\n2,y,p\n');
  const dictionary = readDictionary(file);
  expect(dictionary).toEqual([
    { src: 'x', tgt: 'q', weight: 1 },
    { src: 'y', tgt: 'p', weight: 1 },
  ]);
  const { links } = await alignCorpus(s, t, { method: 'ibm1', sym: 'intersect', dictionary });
  expect(pairs(links[0])).toEqual(['0-1', '1-0']);
});

test('the MOPT Lao–English dictionary reads as a prior (skipped without ../shared/data)', async (ctx) => {
  const file = join(import.meta.dirname, '../../../../shared/data/lao-en-dict-mopt/lao-eng-dictionary.csv');
  let entries;
  try {
    entries = readDictionary(file, { lowercase: true });
  } catch {
    return ctx.skip();
  }
  expect(entries.length).toBeGreaterThan(40_000);
  expect(entries).toContainEqual({ src: 'ກະການ', tgt: 'guest', weight: 1 });
});

test('without corrections, sorted links come back as they are; others are merged and sorted', () => {
  const l = (s: number, t: number, score: number) => ({ s, t, kind: 'sure' as const, score });
  const sorted = [l(0, 1, 0.5), l(1, 0, 0.7), l(1, 2, 0.9)];
  expect(withCorrections(sorted, undefined, [])).toBe(sorted);
  expect(withCorrections([l(1, 2, 0.9), l(0, 1, 0.5)], [], undefined)).toEqual([l(0, 1, 0.5), l(1, 2, 0.9)]);
  // one link a cell: a repeated cell is merged, not kept twice
  expect(withCorrections([l(0, 1, 0.5), l(0, 1, 0.8)], undefined, undefined)).toHaveLength(1);
  expect(withCorrections(new Set(sorted), undefined, undefined)).toEqual(sorted);
});
