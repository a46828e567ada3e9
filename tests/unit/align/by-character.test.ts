// Aligning Chinese by character: character links mapped back to words, dictionary entries
// split into characters, gold constraints carried to every character pair, and the app's Align job with byCharacter on a real zh–en project (the first pairs
// of the zh-en gold set when ../shared/data is there, else a built corpus).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignCorpusByCharacter, charEntries, wordLinks } from '../../../src/main/align/by-character.ts';
import { alignProject } from '../../../src/main/align/project-align.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

test('character links map to one link per word pair with the best score', () => {
  const links = [
    { s: 0, t: 0, kind: 'sure' as const, score: 0.4 },
    { s: 2, t: 0, kind: 'sure' as const, score: 0.9 },
    { s: 3, t: 1, kind: 'possible' as const, score: 0.5 },
  ];
  expect(wordLinks(links, [0, 0, 0, 1], [0, 1])).toEqual([
    { s: 0, t: 0, kind: 'sure', score: 0.9 },
    { s: 1, t: 1, kind: 'sure', score: 0.5 },
  ]);
});

test('dictionary entries split into characters share their word weight', () => {
  expect(
    charEntries([
      { src: '银行', tgt: 'bank', weight: 1 },
      { src: '吃', tgt: 'eat', weight: 0.5 },
      { src: 'x', tgt: 'y', weight: 1 },
    ]),
  ).toEqual([
    { src: '银', tgt: 'bank', weight: 0.5 },
    { src: '行', tgt: 'bank', weight: 0.5 },
    { src: '吃', tgt: 'eat', weight: 0.5 },
    { src: 'x', tgt: 'y', weight: 1 },
  ]);
});

test('word-level gold holds at character level; an out-of-range gold link is a clear error', async () => {
  const src = [['银行', '家'], ['银行'], ['家']];
  const tgt = [['bank', 'home'], ['bank'], ['home']];
  const gold = [[{ s: 0, t: 1 }], undefined, undefined];
  const { links } = await alignCorpusByCharacter(src, tgt, 'src', { method: 'ibm1', sym: 'union' }, { gold });
  expect(links[0]).toContainEqual(expect.objectContaining({ s: 0, t: 1 }));
  for (const [k, ls] of links.entries()) for (const l of ls) expect(l.s).toBeLessThan(src[k].length);
  await expect(alignCorpusByCharacter(src, tgt, 'src', {}, { gold: [[{ s: 5, t: 0 }]] })).rejects.toThrow(
    'gold link 5-0 of pair 1 is out of range (2 source, 2 target tokens)',
  );
});

test('the Align job aligns a zh–en project by character and stores word links; other languages are refused', async () => {
  const gold = join(import.meta.dirname, '../../../../shared/data/std-gold-align/test.ch-en');
  const lines = existsSync(gold)
    ? readFileSync(gold, 'utf8').split('\n').slice(0, 40)
    : ['银行 家 ||| the banker', '银行 ||| the bank', '家 ||| home'];
  const corpus = join(dir, 'zh-en.tsv');
  writeFileSync(
    corpus,
    lines
      .filter((l) => l.includes('|||'))
      .map((l) => l.split(' ||| ').join('\t'))
      .join('\n') + '\n',
  );
  const store = ProjectStore.create(join(dir, 'zh.mekong'), { name: 'zh', srcLang: 'zh', tgtLang: 'en' });
  await runImport(store, { file: corpus, format: 'tsv', tokenization: 'pretokenized' });
  const message = await alignProject(store, { method: 'ibm1', sym: 'gdfa', byCharacter: true });
  // A Chinese project aligns with the shipped CC-CEDICT dictionaries, and the summary names them.
  expect(message).toMatch(
    /^aligned \d+ pairs with ibm1 \+ gdfa by character, dictionaries "Chinese–English, simplified \(CC-CEDICT[^"]*", "Chinese–English, traditional \(CC-CEDICT[^"]*": \d+ links$/,
  );
  const model = store.info().alignments.find((a) => a.origin === 'model')!;
  expect(model.name).toMatch(/^ibm1 \+ gdfa by character/);
  expect(model.links).toBeGreaterThan(0);
  for (const p of store.listPairs({}, 0, 100).pairs) {
    const links = store.getPair(p.id).alignments.find((a) => a.alignmentId === model.id)?.links ?? [];
    for (const l of links) expect(l.s).toBeLessThan(p.srcTokens.length);
  }
  const other = ProjectStore.create(join(dir, 'lo.mekong'), { name: 'lo', srcLang: 'lo', tgtLang: 'th' });
  const ctx = { ...createContext('browser', 'ann', dir), store: other };
  expect(await dispatch(ctx, 'align.start', { method: 'ibm1', byCharacter: true })).toMatchObject({
    ok: false,
    error: { kind: 'input', error: 'aligning by character is for Chinese, and this project is lo–th' },
  });
  store.close();
  other.close();
});
