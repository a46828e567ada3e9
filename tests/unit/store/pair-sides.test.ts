// A project's pairs as the Align job reads them (store/pair-corpus.ts loadPairSides): each
// side's texts and token offsets in one growing array, a pair's tokens made when asked — the
// same tokens, pair for pair, as the stored pairs hold, lowercased when asked; and the token
// lists the training jobs read (loadCorpus) made from them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { loadCorpus, loadPairSides } from '../../../src/main/store/pair-corpus.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

test('each side gives back every pair’s tokens, through the growth of its arrays', async () => {
  // 700 pairs of 0–40 tokens a side, Lao and English with capitals: past the first capacity
  // of both the pairs' starts (256) and the offsets (2,048 tokens)
  const lao = ['ສະບາຍດີ', 'ປະເທດ', 'ລາວ', 'ໄທ', 'ສະຖານທູດ'];
  const en = ['Hello', 'COUNTRY', 'lao', 'Thai', 'Embassy', 'İstanbul'];
  const lines = Array.from({ length: 700 }, (_, k) => {
    const a = Array.from({ length: 1 + (k % 41) }, (_, i) => lao[(k + i) % lao.length]);
    const b = Array.from({ length: 1 + ((k * 7) % 37) }, (_, i) => en[(k * 3 + i) % en.length]);
    return [a, b];
  });
  const file = join(dir, 'p.tsv');
  writeFileSync(file, lines.map(([a, b]) => `${a.join(' ')}\t${b.join(' ')}`).join('\n') + '\n');
  const store = ProjectStore.create(join(dir, 'p.mekong'), { name: 'p', srcLang: 'lo', tgtLang: 'en' });
  await runImport(store, { file, format: 'tsv', tokenization: 'pretokenized', anyScript: true });

  const sides = loadPairSides(store, false);
  expect(sides.ids).toHaveLength(700);
  expect(sides.src.length).toBe(700);
  lines.forEach(([a, b], k) => {
    expect(sides.src.size(k)).toBe(a.length);
    expect(sides.src.tokens(k)).toEqual(a);
    expect(sides.tgt.size(k)).toBe(b.length);
    expect(sides.tgt.tokens(k)).toEqual(b);
  });
  const lower = loadPairSides(store, true);
  lines.forEach(([, b], k) => expect(lower.tgt.tokens(k)).toEqual(b.map((w) => w.toLowerCase())));
  const arrays = loadCorpus(store, true);
  expect(arrays.ids).toEqual(sides.ids);
  expect(arrays.tgt).toEqual(lines.map(([, b]) => b.map((w) => w.toLowerCase())));
  expect(arrays.src).toEqual(lines.map(([a]) => a));
  store.close();
});
