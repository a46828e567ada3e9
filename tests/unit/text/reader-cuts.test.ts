// Cuts a Lao, Thai, Chinese or English reader would accept (issue 43 items 9, 10, 11): spelling
// variants read on a shadow with the text kept as written, abbreviations and ordinals whole,
// Chinese names and common words whole, dictionary headwords that merge but never split, and
// word lists that match whatever the case.
import { expect, test } from 'vitest';
import { loadLaoEnglishHeadwords } from '../../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment, type SegmentOptions } from '../../../src/main/text/segment.ts';
import { spellingShadow } from '../../../src/main/text/spelling-shadow.ts';
import { WordList } from '../../../src/main/text/word-list.ts';

const words = (text: string, lang: string, options: SegmentOptions = {}) => segment(normalizeText(text), lang, options).map((t) => t.text);
const dictionary = loadLaoEnglishHeadwords();

test('the spelling shadow folds ຫນ ຫມ ຫລ and maps every offset back', () => {
  expect(spellingShadow('ສະບາຍດີ')).toBeNull();
  expect(spellingShadow('ຫ')).toBeNull();
  const s = spellingShadow('ເຫນືອ ຫລາຍ ຫມາກ')!;
  expect(s.text).toBe('ເໜືອ ຫຼາຍ ໝາກ');
  // ເ ໜ ື ອ ␠ ຫ ຼ າ ຍ ␠ ໝ າ ກ (end)
  expect([...s.origin]).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15]);
});

test('Lao ຫນ/ຫມ spellings are cut as their ໜ/ໝ forms, and the text stays as written', async () => {
  const dict = await dictionary;
  for (const word of ['ຫນ້າ', 'ຫນຸ່ມ', 'ຫມາຍ', 'ຫມາກ', 'ຫນາວ', 'ເຫນືອ', 'ຫນ້ອຍ']) {
    const tokens = segment(`ມີ ${word} ແລ້ວ`, 'lo', { words: dict });
    expect(tokens.map((t) => t.text)).toEqual(['ມີ', word, 'ແລ້ວ']);
    expect(tokens[1]).toEqual({ text: word, start: 3, end: 3 + word.length });
  }
  // without any word list too (ICU alone knows ໜ້າ, not ຫນ້າ)
  expect(words('ຫນ້າທີ່', 'lo')).toEqual(words('ໜ້າທີ່', 'lo').map((w) => w.replace('ໜ', 'ຫນ')));
  expect(words('ຫນ້ອຍ', 'lo')).toEqual(['ຫນ້ອຍ']);
  // a listed word in either spelling meets the text in the other
  expect(words('ກິນຫມາກມ່ວງ', 'lo', { words: WordList.fromWords(['ໝາກມ່ວງ']) })).toEqual(['ກິນ', 'ຫມາກມ່ວງ']);
  expect(words('ກິນໝາກມ່ວງ', 'lo', { words: WordList.fromWords(['ຫມາກມ່ວງ']) })).toEqual(['ກິນ', 'ໝາກມ່ວງ']);
});

test('AM written as NIGGAHITA + AA (ທໍາມະຊາດ, ຄໍາພີ) stays one word with the dictionary', async () => {
  const dict = await dictionary;
  expect(words('ທໍາມະຊາດ', 'lo', { words: dict })).toEqual(['ທຳມະຊາດ']);
  expect(words('ຄໍາພີ', 'lo', { words: dict })).toEqual(['ຄຳພີ']);
  expect(words('ทํางาน', 'th')).toEqual(['ทำงาน']);
});

test('dictionary headwords merge but never split a word ICU keeps whole', async () => {
  const dict = await dictionary;
  for (const word of ['ສຳນັກງານ', 'ກຳປູເຈຍ', 'ປະຫວັດສາດ', 'ທຳມະຊາດ']) expect(words(word, 'lo', { words: dict })).toEqual([word]);
  // a linguist's words still split (they are 'split' words)
  const theirs = WordList.fromWords(['ສຳນັກ', 'ງານ']);
  expect(words('ສຳນັກງານ', 'lo', { words: theirs })).toEqual(['ສຳນັກ', 'ງານ']);
  // fromData (how a pool worker rebuilds a list) keeps which words split
  const mixed = WordList.fromWords(['ງານ']);
  mixed.add('ສຳນັກ', 'merge-only');
  const copy = WordList.fromData(mixed.data());
  expect(copy.data()).toEqual({ words: ['ງານ'], mergeOnly: ['ສຳນັກ'] });
  expect(words('ສຳນັກງານ', 'lo', { words: copy })).toEqual(['ສຳນັກງານ']);
});

test('Thai and Lao abbreviations keep their full stops', () => {
  expect(words('วันที่ 1 ก.พ. 2563', 'th')).toEqual(['วัน', 'ที่', '1', 'ก.พ.', '2563']);
  expect(words('มี.ค. 2563', 'th')).toEqual(['มี.ค.', '2563']);
  expect(words('ประจำ สปป. ลาว', 'th')).toEqual(['ประจำ', 'สปป.', 'ลาว']);
  expect(words('ใน สปป.ลาว', 'th')).toEqual(['ใน', 'สปป.', 'ลาว']);
  expect(words('ສ.ປ.ປ. ລາວ', 'lo')).toEqual(['ສ.ປ.ປ.', 'ລາວ']);
  expect(words('ທ່ານ ປອ. ສົມ', 'lo')).toEqual(['ທ່ານ', 'ປອ.', 'ສົມ']);
  // a sentence's last full stop stays a token of its own
  expect(words('ມີຄົນ.', 'lo')).toEqual(['ມີ', 'ຄົນ', '.']);
  expect(words('ຢູ່ ສປປ.ລາວ.', 'lo')).toEqual(['ຢູ່', 'ສປປ.', 'ລາວ', '.']);
  expect(words('ฉันมีรถ.', 'th')).toEqual(['ฉัน', 'มี', 'รถ', '.']);
});

test('English ordinals and numbers with units are one token', () => {
  expect(words('the 18th of May, 1st, 2nd, 3rd, 21st and 5km', 'en')).toEqual([
    'the',
    '18th',
    'of',
    'May',
    ',',
    '1st',
    ',',
    '2nd',
    ',',
    '3rd',
    ',',
    '21st',
    'and',
    '5km',
  ]);
  expect(words('2,500.75 on 26/02/2020 at 10:30, 50%', 'en')).toEqual(['2,500.75', 'on', '26/02/2020', 'at', '10:30', ',', '50', '%']);
});

test('Chinese names and common words stay whole; function words come apart', () => {
  for (const word of ['拉曼', '马利亚', '阿尔玛', '年轻人', '传教士', '见证人', '两个']) expect(words(word, 'zh')).toEqual([word]);
  expect(words('你在哪里？', 'zh')).toEqual(['你', '在', '哪里', '？']);
  expect(words('今天是星期一', 'zh')).toEqual(['今天', '是', '星期一']);
  // digits, Latin and punctuation between Han runs as before
  expect(words('5月22日，APEC会议在北京举行。', 'zh')).toEqual(['5', '月', '22', '日', '，', 'APEC', '会议', '在', '北京', '举行', '。']);
  const text = '他是𠀀见证人';
  expect(
    segment(text, 'zh')
      .map((t) => text.slice(t.start, t.end))
      .join(''),
  ).toBe(text);
});

test('word lists match whatever the case, and the text keeps its own', () => {
  const list = WordList.fromWords(['hôm nay', 'ĐẠI HỌC']);
  expect(list.words()).toEqual(['hôm nay', 'ĐẠI HỌC']);
  expect(words('Hôm nay tôi học đại học. HÔM NAY!', 'vi', { words: list })).toEqual([
    'Hôm nay',
    'tôi',
    'học',
    'đại học',
    '.',
    'HÔM NAY',
    '!',
  ]);
  expect(list.has('Hôm Nay') && list.has('đại học')).toBe(true);
});
