// Word lists and "segmentation that learns": the ICU mistakes docs/ARCHITECTURE.md names, fixed by
// merging or splitting with a list; the Lao–English dictionary's headwords on real Lao.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { laoEnglishDictionaryPath, loadLaoEnglishHeadwords } from '../../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment, type SegmentOptions } from '../../../src/main/text/segment.ts';
import { applyWordList } from '../../../src/main/text/word-merge.ts';
import { WordList } from '../../../src/main/text/word-list.ts';

const words = (text: string, lang: string, options: SegmentOptions = {}) => segment(normalizeText(text), lang, options).map((t) => t.text);

test('a trie over UTF-16: add, has, size, words, normalised entries', () => {
  const list = WordList.fromWords(['ประจำ', 'ประ', 'ประจำ', '', ' two \t words ', '我']);
  expect(list.size).toBe(4);
  expect(list.words()).toEqual(['ประจำ', 'ประ', 'two words', '我']);
  expect(list.has('ประจำ') && list.has('ประ') && list.has('我') && list.has('two  words')).toBe(true);
  expect(list.has('ประจ') || list.has('จำ') || list.has('two')).toBe(false);
  expect(list.add('ปร\u0E30จ\u0E4D\u0E32สปป')).toBe(true); // decomposed AM is stored composed
  expect(list.has('ประจำสปป')).toBe(true);
  expect(list.add('ประจำสปป')).toBe(false);
});

test('parse and load read a plain list (one word a line, # comments)', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'mekong-words-')), 'lexicon.txt');
  writeFileSync(path, '# project lexicon\nເອກອັກຄະຣາຊະທູດ\n\n  ປະຈຳ  \r\n');
  return WordList.load(path).then((list) => {
    expect(list.words()).toEqual(['ເອກອັກຄະຣາຊະທູດ', 'ປະຈຳ']);
  });
});

test('Lao ເອກອັກຄະຣາຊະທູດ: six ICU syllables merged into one word', () => {
  const text = 'ເອກອັກຄະຣາຊະທູດໄທ ປະຈຳ ສປປ ລາວ';
  expect(words(text, 'lo')).toEqual(['ເອກ', 'ອັກ', 'ຄະ', 'ຣາ', 'ຊະ', 'ທູດ', 'ໄທ', 'ປະຈຳ', 'ສປປ', 'ລາວ']);
  const lexicon = WordList.fromWords(['ເອກອັກຄະຣາຊະທູດ']);
  expect(segment(text, 'lo', { words: lexicon })).toEqual([
    { text: 'ເອກອັກຄະຣາຊະທູດ', start: 0, end: 15 },
    { text: 'ໄທ', start: 15, end: 17 },
    { text: 'ປະຈຳ', start: 18, end: 22 },
    { text: 'ສປປ', start: 23, end: 26 },
    { text: 'ລາວ', start: 27, end: 30 },
  ]);
});

test('Thai ประจำ: ICU splits ประ|จำ before สปป, the list merges it, longest match wins', () => {
  expect(words('ประจำสปป ลาว', 'th')).toEqual(['ประ', 'จำ', 'สปป', 'ลาว']);
  expect(words('ประจำสปป ลาว', 'th', { words: WordList.fromWords(['ประจำ']) })).toEqual(['ประจำ', 'สปป', 'ลาว']);
  const both = WordList.fromWords(['ประจำ', 'ประจำสปป']);
  expect(words('ประจำสปป ลาว', 'th', { words: both })).toEqual(['ประจำสปป', 'ลาว']);
});

test('merges never cross whitespace', () => {
  expect(words('ประ จำ', 'th', { words: WordList.fromWords(['ประจำ']) })).toEqual(['ประ', 'จำ']);
});

test('Chinese 這是: one token split into listed words', () => {
  expect(words('這是我的書。', 'zh')).toEqual(['這是', '我', '的', '書', '。']);
  expect(words('這是我的書。', 'cmn', { words: WordList.fromWords(['這', '是']) })).toEqual(['這', '是', '我', '的', '書', '。']);
  // a token that is itself listed stays whole
  expect(words('這是我的書。', 'zh', { words: WordList.fromWords(['這', '是', '這是']) })).toEqual(['這是', '我', '的', '書', '。']);
});

test('splits take the fewest listed words and respect character boundaries', () => {
  const split = (text: string, list: string[], minPart: number) => applyWordList(text, [0, text.length], WordList.fromWords(list), minPart);
  expect(split('生态学家', ['生', '态', '学', '家', '生态', '学家'], 1)).toEqual([0, 2, 2, 4]);
  expect(split('ກິນ', ['ກິ', 'ນ'], 2)).toEqual([0, 3]); // no one-letter part outside CJK
  expect(split('ກິນ', ['ກ', 'ິນ'], 1)).toEqual([0, 3]); // no cut before a combining mark
  expect(split('กาเมา', ['กาเ', 'มา'], 2)).toEqual([0, 5]); // no cut after a leading vowel
  expect(split('กาเมา', ['กา', 'เมา'], 2)).toEqual([0, 2, 2, 5]);
  expect(split('a😀b', ['a\uD83D', '\uDE00b'], 1)).toEqual([0, 4]); // no cut inside a surrogate pair
});

test('the Lao–English dictionary: 35k headwords that fix real embassy sentences', async () => {
  const dict = await loadLaoEnglishHeadwords(laoEnglishDictionaryPath());
  expect(dict.size).toBeGreaterThan(34_000);
  expect(dict.has('ອັກຄະຣາຊະທູດ') && dict.has('ມະນຸດ') && dict.has('ສັກກາຍະ')).toBe(true);
  // Headwords of several words stay out: they would merge Lao phrases across their spaces.
  expect(dict.words().filter((w) => w.includes(' '))).toEqual([]);
  expect(words('ທຸກໆ ເວລາ', 'lo', { words: dict })).toEqual(['ທຸກໆ', 'ເວລາ']);
  const text = 'ການພັດທະນາຊັບພະຍາກອນມະນຸດ ແລະ ສັກກາຍະພາບ';
  expect(words(text, 'lo')).toEqual(['ການ', 'ພັດທະນາ', 'ຊັບພະຍາກອນມະນຸດ', 'ແລະ', 'ສັກ', 'ກາຍະ', 'ພາບ']);
  // ICU's compound ຊັບພະຍາກອນມະນຸດ (human resources) stays: headwords merge, never split
  expect(words(text, 'lo', { words: dict })).toEqual(['ການ', 'ພັດທະນາ', 'ຊັບພະຍາກອນມະນຸດ', 'ແລະ', 'ສັກກາຍະ', 'ພາບ']);
  const ambassador = 'ຕໍ່ມາ, ເອກອັກຄະຣາຊະທູດ ໄດ້ເຂົ້າຂ່ຳນັບທ່ານ';
  expect(words(ambassador, 'lo', { words: dict }).slice(0, 4)).toEqual(['ຕໍ່ມາ', ',', 'ເອກ', 'ອັກຄະຣາຊະທູດ']);
  // a linguist's merge joins the list, and the next sentence is segmented the better for it
  dict.add('ເອກອັກຄະຣາຊະທູດ');
  expect(words(ambassador, 'lo', { words: dict }).slice(0, 3)).toEqual(['ຕໍ່ມາ', ',', 'ເອກອັກຄະຣາຊະທູດ']);
});
