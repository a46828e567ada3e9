// Segmentation of long texts: ICU sees bounded pieces, cut at gaps or at a
// boundary found with lookahead, and the tokens equal those of one ICU pass over the whole
// text (maxPiece: Infinity), on the embassy sentences (with and without their spaces) cut
// into small pieces and on long documents; the time grows linearly with the length. Pieces
// only differ where one ICU segment is longer than a piece (a 46-letter English name in a
// Lao line without spaces, cut into 64-unit pieces).
import { beforeAll, expect, test } from 'vitest';
import { loadLaoEnglishHeadwords } from '../../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import type { WordList } from '../../../src/main/text/word-list.ts';
import { embassyCsv, embassyPairs } from './embassy.ts';

const WHOLE = { maxPiece: Infinity };
let dict: WordList;

beforeAll(async () => {
  dict = await loadLaoEnglishHeadwords();
});

const spans = (text: string, lang: string, opts = {}) => Array.from(segmentOffsets(text, lang, opts));

/** The embassy Lao sentences as one document: joined by `separator`, optionally with no spaces at all. */
function laoDocument(separator: string, dropSpaces = false): string {
  const doc = embassyPairs()
    .map(([lo]) => normalizeText(lo))
    .join(separator);
  return dropSpaces ? doc.replace(/\s+/g, '') : doc;
}

test.skipIf(!embassyCsv)('embassy sentences cut into pieces of 100 or 256 units give the tokens of one pass', () => {
  for (const [lo, th] of embassyPairs()) {
    for (const [text, lang] of [
      [normalizeText(lo), 'lo'],
      [normalizeText(th), 'th'],
    ]) {
      const whole = spans(text, lang, WHOLE);
      expect(spans(text, lang), text).toEqual(whole);
      for (const maxPiece of [100, 256]) expect(spans(text, lang, { maxPiece }), `${maxPiece}: ${text}`).toEqual(whole);
      if (lang === 'lo') expect(spans(text, lang, { words: dict, maxPiece: 100 })).toEqual(spans(text, lang, { words: dict, ...WHOLE }));
      const unspaced = text.replace(/\s+/g, '');
      expect(spans(unspaced, lang, { maxPiece: 100 }), unspaced).toEqual(spans(unspaced, lang, WHOLE));
    }
  }
});

test.skipIf(!embassyCsv)('long Lao documents (spaces, no separator, no spaces at all, U+200B) match one pass', () => {
  for (const doc of [laoDocument(' '), laoDocument(''), laoDocument('', true), laoDocument('\u200B', true)]) {
    const text = doc.slice(0, 12_000);
    const whole = spans(text, 'lo', WHOLE);
    expect(spans(text, 'lo', { maxPiece: 500 })).toEqual(whole);
    expect(spans(text, 'lo', { words: dict, maxPiece: 500 })).toEqual(spans(text, 'lo', { words: dict, ...WHOLE }));
  }
});

test('Chinese and Thai without spaces, and a mixed line in a space-delimited language, match one pass', () => {
  const zh = '我明天回來的時候會跟他們聯絡。私は学生です。'.repeat(200);
  expect(spans(zh, 'zh', { maxPiece: 50 })).toEqual(spans(zh, 'zh', WHOLE));
  const th = 'เมื่อวันที่26กุมภาพันธ์นายดำรงใคร่ครวญเอกอัครราชทูตณเวียงจันทน์'.repeat(100);
  expect(spans(th, 'th', { maxPiece: 100 })).toEqual(spans(th, 'th', WHOLE));
  const en = `Tom met ${'ເອກອັກຄະຣາຊະທູດໄທປະຈຳສປປລາວ'.repeat(100)} in Vientiane.`;
  expect(spans(en, 'en', { maxPiece: 100 })).toEqual(spans(en, 'en', WHOLE));
});

test('a single segment longer than a piece is cut where a character starts', () => {
  const text = 'a'.repeat(50) + 'e\u0301'.repeat(30);
  const got = spans(text, 'lo', { maxPiece: 60 });
  expect(got[0]).toBe(0);
  expect(got[got.length - 1]).toBe(text.length);
  for (let i = 1; i < got.length - 1; i += 2) expect(text[got[i]]).not.toBe('\u0301');
});

test.skipIf(!embassyCsv)(
  'one Lao line of 110k tokens segments in linear time',
  () => {
    const doc = laoDocument(' ');
    const cycle = (units: number) => {
      let text = doc;
      while (text.length < units) text += ` ${doc}`;
      return text.slice(0, units);
    };
    const best = (text: string) => {
      let s = Infinity;
      for (let k = 0; k < 3; k++) {
        const t0 = performance.now();
        segmentOffsets(text, 'lo');
        s = Math.min(s, performance.now() - t0);
      }
      return s;
    };
    const long = cycle(480_000); // ~110k tokens (4.6 units a token)
    expect(segmentOffsets(long, 'lo').length / 2).toBeGreaterThan(100_000);
    const [small, large] = [best(cycle(120_000)), best(long)];
    expect(large).toBeLessThan(10_000);
    expect(large / small).toBeLessThan(8); // linear: 4; quadratic: 16
  },
  60_000,
);
