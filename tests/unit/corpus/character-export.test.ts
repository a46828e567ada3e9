// Exporting word-level gold by character (the LDC convention for Chinese): the Chinese
// side one token per Han character in the links file's text, in Pharaoh and in JSONL
// (tokens with their offsets), links and "not translated" marks carried to the characters;
// a project without Chinese is refused.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runExport } from '../../../src/main/corpus/export-pipeline.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { setGold } from '../../../src/main/review/editor.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

test('word gold exported by character: Pharaoh, the tokenised sides and JSONL', async () => {
  const store = ProjectStore.create(join(dir, 'zh.mekong'), { name: 'zh', srcLang: 'zh', tgtLang: 'en' });
  const corpus = join(dir, 'c.tsv');
  writeFileSync(corpus, '科学家 在 5月 猜想\tscientists conjectured in may\n');
  await runImport(store, { file: corpus, format: 'tsv', tokenization: 'pretokenized' });
  const pair = store.listPairs({}, 0, 1).pairs[0];
  const link = (s: number, t: number) => ({ s, t, kind: 'sure' as const, score: null });
  setGold(store, 'anna', pair.id, [link(0, 0), link(2, 3), link(3, 1)], [{ side: 'src', index: 1 }]);

  const out = join(dir, 'gold.pharaoh');
  const message = await runExport(store, { file: out, format: 'pharaoh', byCharacter: true });
  expect(message).toMatch(/^exported 1 pair to .*gold\.pharaoh/);
  // 科 学 家 | 在 | 5 月 | 猜 想
  expect(readFileSync(out, 'utf8')).toBe('0-0 1-0 2-0 4-3 5-3 6-1 7-1\n');
  expect(readFileSync(join(dir, 'gold.zh'), 'utf8')).toBe('科 学 家 在 5 月 猜 想\n');
  expect(readFileSync(join(dir, 'gold.en'), 'utf8')).toBe('scientists conjectured in may\n');

  const jsonl = join(dir, 'gold.jsonl');
  await runExport(store, { file: jsonl, format: 'jsonl', byCharacter: true });
  const record = JSON.parse(readFileSync(jsonl, 'utf8'));
  expect(record.src.text).toBe('科学家 在 5月 猜想');
  expect(record.src.tokens).toEqual([
    [0, 1],
    [1, 2],
    [2, 3],
    [4, 5],
    [6, 7],
    [7, 8],
    [9, 10],
    [10, 11],
  ]);
  expect(record.alignments[0].links.map(([s, t]: number[]) => `${s}-${t}`).join(' ')).toBe('0-0 1-0 2-0 4-3 5-3 6-1 7-1');
  expect(record.alignments[0].untranslated).toEqual({ src: [3], tgt: [] });

  // Without the option the export stays word-level.
  await runExport(store, { file: out, format: 'pharaoh' });
  expect(readFileSync(out, 'utf8')).toBe('0-0 2-3 3-1\n');
  store.close();

  const lo = ProjectStore.create(join(dir, 'lo.mekong'), { name: 'lo', srcLang: 'lo', tgtLang: 'th' });
  await expect(runExport(lo, { file: join(dir, 'x.pharaoh'), format: 'pharaoh', byCharacter: true })).rejects.toThrow(
    '--by-character is for Chinese, and this project is lo–th',
  );
  lo.close();
});
