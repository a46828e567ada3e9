// segment(), pretokenized() and the language helpers on real sentences: Lao and Thai from
// the embassy corpus (CC0), the others quoted from Tatoeba (CC BY 2.0 FR).
import { describe, expect, test } from 'vitest';
import type { Token } from '../../../src/shared/domain.ts';
import { canonicalLang, detectLang } from '../../../src/main/text/lang.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { decodeTokens, encodeOffsets } from '../../../src/main/text/offsets.ts';
import { pretokenized, segment } from '../../../src/main/text/segment.ts';
import { WordList } from '../../../src/main/text/word-list.ts';
import { embassyCsv, embassyPairs } from './embassy.ts';
import { random, randomString } from './random.ts';

const words = (text: string, lang: string) => segment(normalizeText(text), lang).map((t) => t.text);

/** What is wrong with `tokens` of `text`: each must be its slice, in order, without whitespace or U+200B. */
function problems(text: string, tokens: Token[]): string[] {
  const out: string[] = [];
  let last = 0;
  for (const t of tokens) {
    if (text.slice(t.start, t.end) !== t.text) out.push(`${t.start}..${t.end} is not "${t.text}"`);
    if (t.start < last) out.push(`${t.start} before ${last}`);
    if (/[\s\u200B]/.test(t.text)) out.push(`"${t.text}" holds whitespace`);
    last = t.end;
  }
  if (tokens.map((t) => t.text).join('') !== text.replace(/[\s\u200B]/g, '')) out.push('tokens do not cover the text');
  return out;
}

const fixtures: [lang: string, text: string, tokens: string[]][] = [
  [
    'lo',
    'ຕໍ່ມາ, ເອກອັກຄະຣາຊະທູດ ໄດ້ເຂົ້າຂ່ຳນັບທ່ານ ວັນໄຊ ແພງຊຸມມາ ເຈົ້າແຂວງຫົວພັນ',
    ['ຕໍ່ມາ', ',', 'ເອກ', 'ອັກ', 'ຄະ', 'ຣາ', 'ຊະ', 'ທູດ', 'ໄດ້', 'ເຂົ້າ', 'ຂ່ຳ', 'ນັບ', 'ທ່ານ', 'ວັນ', 'ໄຊ', 'ແພງ', 'ຊຸມ', 'ມາ', 'ເຈົ້າແຂວງ', 'ຫົວພັນ'],
  ],
  ['lao', 'ໃນວັນທີ 26/02/2020 ມີ 2,500.75 ກີບ', ['ໃນ', 'ວັນທີ', '26/02/2020', 'ມີ', '2,500.75', 'ກີບ']],
  [
    'th',
    'เมื่อวันที่ 26 กุมภาพันธ์ - 1 มีนาคม 2563  นายดำรง ใคร่ครวญ เอกอัครราชทูต ณ เวียงจันทน์',
    ['เมื่อ', 'วัน', 'ที่', '26', 'กุมภาพันธ์', '-', '1', 'มีนาคม', '2563', 'นาย', 'ดำรง', 'ใคร่ครวญ', 'เอกอัครราชทูต', 'ณ', 'เวียงจันทน์'],
  ],
  ['tha', 'เหลือเวลาอีกกี่ชั่วโมง...', ['เหลือ', 'เวลา', 'อีก', 'กี่', 'ชั่วโมง', '...']],
  ['km', 'ថម គឺជា\u200Bអ្នក\u200Bគេង\u200Bស្កប់ស្កល់ ។', ['ថម', 'គឺជា', 'អ្នក', 'គេង', 'ស្កប់ស្កល់', '។']],
  ['vi', 'Hôm qua anh ấy đi ngủ hồi 11 giờ.', ['Hôm', 'qua', 'anh', 'ấy', 'đi', 'ngủ', 'hồi', '11', 'giờ', '.']],
  ['zh', '我明天回來的時候會跟他們聯絡。', ['我', '明天', '回來', '的', '時候', '會', '跟', '他們', '聯絡', '。']],
  ['ja', '私は学生です。', ['私', 'は', '学生', 'です', '。']],
  ['my', 'မြန်မာစာ ကို လေ့လာ ပါ', ['မြန်မာ', 'စာ', 'ကို', 'လေ့လာ', 'ပါ']],
  ['id', 'Apakah kamu tidak tahu kalau tidak sopan?', ['Apakah', 'kamu', 'tidak', 'tahu', 'kalau', 'tidak', 'sopan', '?']],
  ['ind', 'Anak-anak pergi ke Jl. Merdeka no. 5.', ['Anak-anak', 'pergi', 'ke', 'Jl.', 'Merdeka', 'no', '.', '5', '.']],
  [
    'ms',
    'Mary berpindah rumah untuk bersama dengan ibu bapanya.',
    ['Mary', 'berpindah', 'rumah', 'untuk', 'bersama', 'dengan', 'ibu', 'bapanya', '.'],
  ],
  ['en', 'Mr. White went to Canada.', ['Mr.', 'White', 'went', 'to', 'Canada', '.']],
  [
    'eng',
    "High-school students don't know it cost $2,500.75 on 26/02/2020 in the U.S.A. (approx.)...",
    [
      'High-school',
      'students',
      "don't",
      'know',
      'it',
      'cost',
      '$',
      '2,500.75',
      'on',
      '26/02/2020',
      'in',
      'the',
      'U.S.A.',
      '(',
      'approx.',
      ')',
      '...',
    ],
  ],
  [
    'en',
    'Write to a.b@example.org or see https://example.org/x?y=1.',
    ['Write', 'to', 'a.b@example.org', 'or', 'see', 'https://example.org/x?y=1', '.'],
  ],
  ['en', 'Tom met 王小明 in Vientiane.', ['Tom', 'met', '王小明', 'in', 'Vientiane', '.']],
  ['xyz', 'Ông ấy sống trong một ngôi làng nhỏ.', ['Ông', 'ấy', 'sống', 'trong', 'một', 'ngôi', 'làng', 'nhỏ', '.']],
  ['qqq', 'ฉันชอบกินข้าว', ['ฉัน', 'ชอบ', 'กิน', 'ข้าว']],
];

describe('segment: concrete boundaries', () => {
  test.each(fixtures)('%s: %s', (lang, text, want) => {
    expect(words(text, lang)).toEqual(want);
    expect(problems(normalizeText(text), segment(normalizeText(text), lang))).toEqual([]);
  });
});

test('offsets are UTF-16 offsets into the text', () => {
  const text = 'ສະບາຍດີ 😀 ok';
  expect(segment(text, 'lo')).toEqual([
    { text: 'ສະບາຍດີ', start: 0, end: 7 },
    { text: '😀', start: 8, end: 10 },
    { text: 'ok', start: 11, end: 13 },
  ]);
  expect(segment('a, b', 'en')).toEqual([
    { text: 'a', start: 0, end: 1 },
    { text: ',', start: 1, end: 2 },
    { text: 'b', start: 3, end: 4 },
  ]);
});

test('U+200B is a word boundary and never inside a token', () => {
  const text = normalizeText('ສະບາຍ\u200Bດີ กิน\u200Bข้าว Hello\u200Bworld');
  expect(segment(text, 'lo').map((t) => t.text)).toEqual(['ສະບາຍ', 'ດີ', 'กิน', 'ข้าว', 'Hello', 'world']);
  expect(segment(text, 'en').map((t) => t.text)).toEqual(['ສະບາຍ', 'ດີ', 'กิน', 'ข้าว', 'Hello', 'world']);
  expect(pretokenized(text).map((t) => t.text)).toEqual(['ສະບາຍ', 'ດີ', 'กิน', 'ข้าว', 'Hello', 'world']);
});

test('empty and blank text give no tokens', () => {
  for (const lang of ['lo', 'th', 'zh', 'en', 'und']) {
    expect(segment('', lang)).toEqual([]);
    expect(segment(' \t\u200B ', lang)).toEqual([]);
  }
  expect(pretokenized('   ')).toEqual([]);
});

test.skipIf(!embassyCsv)('all 265 embassy pairs segment into well-formed tokens', () => {
  for (const [lo, th] of embassyPairs()) {
    const [l, t] = [normalizeText(lo), normalizeText(th)];
    expect(problems(l, segment(l, 'lo'))).toEqual([]);
    expect(problems(t, segment(t, 'th'))).toEqual([]);
  }
});

test('random mixed-script strings: well-formed tokens in every language, with and without a word list', () => {
  const alphabet = [
    'ປະ',
    'ຈຳ',
    'ເອກ',
    'ประ',
    'จำ',
    '我',
    '是',
    'ab',
    'Mr',
    '12',
    ',',
    '.',
    '/',
    "'",
    '-',
    '...',
    '@',
    '😀',
    ' ',
    '\u200B',
    '\t',
    'ẹ',
    'ភ្នំ',
    'ໆ',
    'ๆ',
    '\u0E48',
    '\u0EC9',
    '\u0301',
  ];
  const words = WordList.fromWords(['ປະຈຳ', 'ประจำ', '我', '是', 'ab12', 'ຈຳເອກ']);
  const next = random(7);
  for (let n = 0; n < 3000; n++) {
    const text = normalizeText(randomString(next, alphabet, 10));
    for (const lang of ['lo', 'th', 'zh', 'en', 'vi', 'und']) {
      expect(problems(text, segment(text, lang)), `${lang}: ${text}`).toEqual([]);
      expect(problems(text, segment(text, lang, { words })), `${lang} + words: ${text}`).toEqual([]);
    }
    expect(problems(text, pretokenized(text))).toEqual([]);
  }
});

test('pretokenized splits on runs of whitespace only', () => {
  expect(pretokenized('  ເອກອັກຄະຣາຊະທູດ\t ໄທ,  ok\n')).toEqual([
    { text: 'ເອກອັກຄະຣາຊະທູດ', start: 2, end: 17 },
    { text: 'ໄທ,', start: 19, end: 22 },
    { text: 'ok', start: 24, end: 26 },
  ]);
});

test('encodeOffsets / decodeTokens round-trip and reject bad spans', () => {
  const text = normalizeText('เมื่อวันที่ 26 กุมภาพันธ์');
  const tokens = segment(text, 'th');
  const offsets = encodeOffsets(tokens);
  expect(Array.from(offsets)).toEqual([0, 5, 5, 8, 8, 11, 12, 14, 15, 25]);
  expect(decodeTokens(text, offsets)).toEqual(tokens);
  expect(() => decodeTokens(text, [0])).toThrow(/odd length/);
  expect(() => decodeTokens(text, [3, 3])).toThrow(/bad span/);
  expect(() => decodeTokens(text, [0, 99])).toThrow(/bad span/);
});

describe('language codes', () => {
  test.each([
    ['lo', 'lo'],
    ['lao', 'lo'],
    ['th', 'th'],
    ['tha', 'th'],
    ['th_TH', 'th'],
    ['vie', 'vi'],
    ['cmn', 'zh'],
    ['zho', 'zh'],
    ['zh-Hant', 'zh'],
    ['eng', 'en'],
    ['ind', 'id'],
    ['khm', 'km'],
    ['mya', 'my'],
    ['jpn', 'ja'],
    ['zsm', 'ms'],
    ['FR', 'fr'],
    ['xyz', null],
    ['', null],
  ])('canonicalLang(%s) = %s', (code, want) => expect(canonicalLang(code)).toBe(want));

  test.each([
    ['ເມື່ອວັນທີ 26 ກຸມພາ', 'lo'],
    ['เมื่อวันที่ 26 กุมภาพันธ์', 'th'],
    ['ខ្ញុំ​ក៏​រីករាយ', 'km'],
    ['မြန်မာစာ', 'my'],
    ['我要走了。', 'zh'],
    ['私は学生です。', 'ja'],
    ['Em vẫn muốn ở bên anh.', 'vi'],
    ['Saya sayang awak.', 'und'],
    ['Ça a été déjà vu à côté.', 'und'],
    ['123 !?', 'und'],
    ['', 'und'],
  ])('detectLang(%s) = %s', (text, want) => expect(detectLang(text)).toBe(want));
});
