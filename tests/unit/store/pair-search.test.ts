// Searching pairs as a linguist types: case- and accent-insensitive, NFD or NFC alike, across
// the corpus's token boundaries, Lao and Thai marks kept distinct; "#N" goes to pair N.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { searchFold } from '../../../src/shared/search-fold.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-search-');

test('folding: case, Latin diacritics, normal forms and spaces; Thai and Lao marks stay', () => {
  expect(searchFold('Việt Nam')).toBe('vietnam');
  expect(searchFold('Vi\u1EC7t'.normalize('NFD'))).toBe(searchFold('Việt'));
  expect(searchFold('Đà Nẵng')).toBe('danang');
  expect(searchFold('เชียง ขวาง')).toBe('เชียงขวาง');
  expect(searchFold('ที่')).not.toBe(searchFold('ที'));
  expect(searchFold('ປະຈຳ')).not.toBe(searchFold('ປະຈ'));
});

test('the pair list finds what a linguist types, and #N opens pair N', () => {
  const { store, ids } = project(dir, [
    ['Việt Nam', 'ເຫວຍດນາມ'],
    ['ແຂວງ ຊຽງຂວາງ', 'จังหวัด เชียงขวาง'],
    ['ທີ່', 'ที่'],
    ['other', 'อื่น'],
  ]);
  const find = (text: string) => store.listPairs({ text }, 0, 10).pairs.map((p) => p.id);
  expect(find('viet')).toEqual([ids[0]]);
  expect(find('VIỆT'.normalize('NFD'))).toEqual([ids[0]]);
  expect(find('เชียง ขวาง')).toEqual([ids[1]]);
  expect(find('ຊຽງ ຂວາງ')).toEqual([ids[1]]);
  expect(find('ที')).toEqual([ids[2]]); // a prefix of ที่ in the text still matches as a substring
  expect(find('ที่')).toEqual([ids[2]]);
  expect(find(`#${ids[3]}`)).toEqual([ids[3]]);
  expect(find('#99999')).toEqual([]);
  expect(store.listPairs({ text: 'zzz' }, 0, 10).total).toBe(0);
  store.close();
  const again = ProjectStore.open(store.path);
  expect(again.listPairs({ text: 'viet' }, 0, 10).pairs).toHaveLength(1);
  again.close();
});
