// Word list files as users give them (`--word-list`), and words listed with a space:
// Vietnamese syllables merged into one token across the gap, never otherwise.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment } from '../../../src/main/text/segment.ts';
import { readWordListFile } from '../../../src/main/text/word-list-file.ts';
import { WordList } from '../../../src/main/text/word-list.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const words = (text: string, lang: string, list: string[]) =>
  segment(normalizeText(text), lang, { words: WordList.fromWords(list) }).map((t) => t.text);

test('a word list file: BOM, CRLF, comments, blank lines, inner spaces collapsed, duplicates once', () => {
  const path = file('vi.txt', '\uFEFF# Vietnamese\r\nsinh viên\r\n\r\n  Hôm   nay \n#no\nsinh viên\n');
  expect(readWordListFile(path)).toEqual(['sinh viên', 'Hôm nay']);
});

test('a bad line: one InputError naming file and line', () => {
  const cases: [string | Buffer, RegExp][] = [
    ['ok\nword\t12\n', /bad1\.txt:2: a tab/],
    [Buffer.concat([Buffer.from('ok\nfine\n'), Buffer.from([0x66, 0xff, 0x0a])]), /bad2\.txt:3: not UTF-8 text/],
    ['a\nb\nc\x07d\n', /bad3\.txt:3: a control character \(U\+0007\)/],
    [`${'x'.repeat(201)}\n`, /bad4\.txt:1: longer than 200 characters/],
  ];
  cases.forEach(([content, message], i) => {
    const path = file(`bad${i + 1}.txt`, content);
    expect(() => readWordListFile(path)).toThrow(message);
  });
});

test('Vietnamese: "sinh viên" and "Hôm nay" listed with a space become one token each', () => {
  const text = 'Hôm nay, sinh viên đi học. Sinh viên giỏi!';
  expect(words(text, 'vi', [])).toEqual(['Hôm', 'nay', ',', 'sinh', 'viên', 'đi', 'học', '.', 'Sinh', 'viên', 'giỏi', '!']);
  const merged = segment(normalizeText(text), 'vi', { words: WordList.fromWords(['sinh viên', 'Hôm nay']) });
  expect(merged.map((t) => t.text)).toEqual(['Hôm nay', ',', 'sinh viên', 'đi', 'học', '.', 'Sinh viên', 'giỏi', '!']);
  expect(merged[2]).toEqual({ text: 'sinh viên', start: 9, end: 18 });
  // Several spaces or a tab between the syllables: still one word, the token spans the gap.
  expect(words('sinh  \tviên', 'vi', ['sinh viên'])).toEqual(['sinh  \tviên']);
  // Longest match across gaps; a listed word never merges across punctuation.
  expect(words('đại học quốc gia', 'vi', ['đại học', 'đại học quốc gia'])).toEqual(['đại học quốc gia']);
  expect(words('sinh, viên', 'vi', ['sinh viên'])).toEqual(['sinh', ',', 'viên']);
});

test('a word without a space still never merges across one (Thai)', () => {
  expect(words('ประ จำ', 'th', ['ประจำ'])).toEqual(['ประ', 'จำ']);
  expect(words('ประ จำ', 'th', ['ประ จำ'])).toEqual(['ประ จำ']);
});
