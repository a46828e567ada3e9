// normalizeText: one row per rule of the header comment in src/main/text/normalize.ts,
// plus idempotence on every sentence of the embassy sample.
import { describe, expect, test } from 'vitest';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { embassyCsv, embassyPairs } from './embassy.ts';
import { random, randomString } from './random.ts';

const rules: [name: string, raw: string, want: string][] = [
  ['CRLF, CR, LINE SEPARATOR → LF', 'a\r\nb\rc\u2028d', 'a\nb\nc\nd'],
  ['BOM removed anywhere', '\uFEFFສະບາຍ\uFEFFດີ', 'ສະບາຍດີ'],
  ['soft hyphen removed', 'co\u00ADoperation', 'cooperation'],
  ['word joiner removed', 'ก\u2060ข', 'กข'],
  ['bidi marks and embeddings removed', '\u200Eabc\u202B\u05D0\u202C\u2067x\u2069\u200F', 'abc\u05D0x'],
  ['C0/C1 controls removed, TAB and LF kept', 'a\u0000b\u0007c\td\ne\u0085f\u007F', 'abc\td\nef'],
  ['NBSP, narrow NBSP, thin space → space', '2\u00A0500\u202Fkm\u2009x', '2 500 km x'],
  ['ZWJ/ZWNJ dropped next to Thai, Lao, Latin', 'ก\u200Dข ລ\u200Cາ a\u200Db', 'กข ລາ ab'],
  ['ZWJ dropped at the edges', '\u200Dabc\u200C', 'abc'],
  ['ZWNJ kept inside Persian words', 'می\u200Cخواهم', 'می\u200Cخواهم'],
  ['ZWJ kept in an emoji sequence', '👩\u200D💻', '👩\u200D💻'],
  ['ZWSP kept, runs collapsed', 'ສະບາຍ\u200B\u200B\u200Bດີ', 'ສະບາຍ\u200Bດີ'],
  ['NFC: e + combining acute → é', 'Vie\u0301t', 'Viét'],
  ['NFC: Vietnamese stacked diacritics', 'Vi\u00EA\u0323t', 'Vi\u1EC7t'],
  ['Thai NIKHAHIT + SARA AA → SARA AM', 'ประจ\u0E4D\u0E32', 'ประจำ'],
  ['Thai NIKHAHIT + tone + SARA AA → tone + SARA AM', 'ก\u0E4D\u0E48\u0E32', 'ก\u0E48\u0E33'],
  ['Thai tone + NIKHAHIT + SARA AA → tone + SARA AM', 'น\u0E49\u0E4D\u0E32', 'น้ำ'],
  ['Thai SARA AM + tone → tone + SARA AM', 'น\u0E33\u0E49', 'น้ำ'],
  ['Lao NIGGAHITA + AA → AM', 'ປະຈ\u0ECD\u0EB2', 'ປະຈຳ'],
  ['Lao NIGGAHITA + tone + AA → tone + AM', 'ຂ\u0ECD\u0EC8\u0EB2ນັບ', 'ຂ\u0EC8\u0EB3ນັບ'],
  ['Lao AM + tone → tone + AM', 'ນ\u0EB3\u0EC9', 'ນ້ຳ'],
  ['Thai tone before upper vowel reordered', 'ท\u0E35\u0E48', 'ที่'],
  ['Thai tone typed before upper vowel', 'ท\u0E48\u0E35', 'ที่'],
  ['Thai tone typed before lower vowel', 'ป\u0E48\u0E39', 'ปู่'],
  ['Thai duplicated tone mark', 'ไม\u0E49\u0E49', 'ไม้'],
  ['Lao tone typed before vowel', 'ທ\u0EC8\u0EB5', 'ທີ່'],
  ['Lao duplicated vowel sign', 'ກ\u0EB4\u0EB4ນ', 'ກິນ'],
  ['Lao tone before subscript LO', 'ຫ\u0EC9\u0EBCາ', 'ຫຼ້າ'],
  ['Thai SARA E twice → SARA AE', 'เเมว', 'แมว'],
  ['Lao E twice → EI', 'ເເຂວງ', 'ແຂວງ'],
  ['Thai ๆ and Lao ໆ kept', 'ต่างๆ ຕ່າງໆ', 'ต่างๆ ຕ່າງໆ'],
];

describe('normalizeText rules', () => {
  test.each(rules)('%s', (_name, raw, want) => {
    expect(normalizeText(raw)).toBe(want);
    expect(normalizeText(want)).toBe(want);
  });
});

test('leaves clean text alone', () => {
  const s = 'Em vẫn muốn ở bên anh. 我该去睡觉了。 ເມື່ອວັນທີ 26 ກຸມພາ';
  expect(normalizeText(s)).toBe(s);
});

test.skipIf(!embassyCsv)('is idempotent on the embassy sample and composes its decomposed AM', () => {
  const pairs = embassyPairs();
  expect(pairs).toHaveLength(265);
  let changed = 0;
  for (const [lo, th] of pairs) {
    for (const raw of [lo, th]) {
      const once = normalizeText(raw);
      expect(normalizeText(once)).toBe(once);
      expect(once).not.toMatch(/[\u0E4D\u0ECD][\u0E48-\u0E4B\u0EC8-\u0ECB]?[\u0E32\u0EB2]|\uFEFF|\u00A0/);
      if (once !== raw) changed++;
    }
  }
  expect(changed).toBeGreaterThan(0);
});

const COMMON = [' ', '\u200B', '\u200D', '\u00A0', '\uFEFF', '\u00AD', '\r', 'e', '\u0301', 'a'];
const ALPHABETS = [
  ['ก', 'า', 'ำ', 'ั', 'ิ', 'ี', 'ุ', 'ู', 'ฺ', 'เ', '่', '้', '์', 'ํ', 'ๆ', ...COMMON],
  ['ກ', 'າ', 'ຳ', 'ິ', 'ຸ', 'ຼ', 'ເ', '່', '້', 'ໍ', 'ໆ', ...COMMON],
];

/** What must never be left in normalised text (written independently of normalize.ts). */
const LEFTOVERS: [string, RegExp][] = [
  ['decomposed AM', /[\u0E4D\u0ECD][\u0E48-\u0E4B\u0EC8-\u0ECB]?[\u0E32\u0EB2]/],
  ['tone after AM', /[\u0E33\u0EB3][\u0E48-\u0E4B\u0EC8-\u0ECB]/],
  ['repeated mark', /([\u0E31\u0E34-\u0E3A\u0E47-\u0E4E\u0EB1\u0EB4-\u0EBC\u0EC8-\u0ECD])\1/],
  ['Thai tone before vowel', /[\u0E48-\u0E4C][\u0E31\u0E34-\u0E3A\u0E47\u0E4D]/],
  ['Lao tone before vowel', /[\u0EC8-\u0ECC][\u0EB1\u0EB4-\u0EBC\u0ECD]/],
  ['Lao vowel before subscript LO', /[\u0EB1\u0EB4-\u0EB9\u0EBB\u0ECD]\u0EBC/],
  ['doubled E', /\u0E40\u0E40|\u0EC0\u0EC0/],
  ['invisible or odd space', /[\uFEFF\u00AD\u00A0\r]|\u200B\u200B/],
];

test('random Thai or Lao strings with invisibles: idempotent, NFC, nothing left to fix', () => {
  const next = random(20260222);
  for (let n = 0; n < 5000; n++) {
    const raw = randomString(next, ALPHABETS[n % 2], 12);
    const once = normalizeText(raw);
    const codes = [...raw].map((c) => c.codePointAt(0)!.toString(16)).join(' ');
    expect(normalizeText(once), codes).toBe(once);
    expect(once.normalize('NFC'), codes).toBe(once);
    for (const [name, re] of LEFTOVERS) expect(re.test(once), `${name} in ${codes}`).toBe(false);
  }
});
