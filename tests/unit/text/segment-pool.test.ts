// SegmentPool against single-thread segment(): same tokens, in input order, with and
// without word lists, for the 265 embassy pairs and mixed languages.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadLaoEnglishHeadwords } from '../../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { SegmentPool, type SegmentItem } from '../../../src/main/text/segment-pool.ts';
import { pretokenizedOffsets, segment, segmentOffsets } from '../../../src/main/text/segment.ts';
import { WordList } from '../../../src/main/text/word-list.ts';
import { embassyCsv, embassyPairs } from './embassy.ts';

let dict: WordList;
let pool: SegmentPool;

beforeAll(async () => {
  dict = await loadLaoEnglishHeadwords();
  pool = new SegmentPool({ size: 2, wordLists: { lao: dict } });
});
afterAll(() => pool.close());

const items = (): SegmentItem[] =>
  embassyPairs().flatMap(([lo, th]) => [
    { text: normalizeText(lo), lang: 'lo' },
    { text: normalizeText(th), lang: 'th' },
  ]);

test.skipIf(!embassyCsv)('pool output equals single-thread output on the 265 embassy pairs', async () => {
  const all = items();
  expect(all).toHaveLength(530);
  const want = all.map((x) => segment(x.text, x.lang, { words: x.lang === 'lo' ? dict : undefined }));
  const got = await pool.segmentBatch(all);
  expect(got).toHaveLength(530);
  expect(JSON.stringify(got)).toBe(JSON.stringify(want)); // one string compare: fast on 90k tokens
  const offsets = await pool.segmentBatchOffsets(all.slice(0, 10));
  expect(offsets.map((o) => o.length)).toEqual(want.slice(0, 10).map((t) => 2 * t.length));
});

test.skipIf(!embassyCsv)('prepareBatch normalises and tokenizes raw text in the workers', async () => {
  const raw = embassyPairs().flatMap(([lo, th]) => [
    { text: lo, lang: 'lo' },
    { text: th, lang: 'th' },
  ]);
  const segmented = await pool.prepareBatch(raw, 'segment');
  const spaced = await pool.prepareBatch(raw, 'pretokenized');
  const clean = raw.map((x) => normalizeText(x.text));
  expect(segmented.map((p) => p.text)).toEqual(clean);
  expect(spaced.map((p) => p.text)).toEqual(clean);
  const flat = (arrays: Uint32Array[]) => arrays.map((a) => Array.from(a).join(',')).join(';');
  expect(flat(segmented.map((p) => p.offsets))).toBe(
    flat(clean.map((t, i) => segmentOffsets(t, raw[i].lang, { words: raw[i].lang === 'lo' ? dict : undefined }))),
  );
  expect(flat(spaced.map((p) => p.offsets))).toBe(flat(clean.map((t) => pretokenizedOffsets(t))));
  expect(segmented.filter((p, i) => p.text !== raw[i].text).length).toBeGreaterThan(0);
});

test('concurrent batches of mixed languages come back in order', async () => {
  const texts: SegmentItem[] = [
    { text: '我是學生。', lang: 'zh' },
    { text: 'Mr. White went to Canada.', lang: 'en' },
    { text: 'ថម គឺជា\u200Bអ្នក\u200Bគេង', lang: 'khm' },
    { text: '', lang: 'th' },
    { text: 'Hôm qua anh ấy đi ngủ hồi 11 giờ.', lang: 'xx' },
    { text: 'ເອກອັກຄະຣາຊະທູດໄທ', lang: 'lo' },
  ];
  const batches = Array.from({ length: 8 }, (_, k) => texts.slice(k % 6).concat(texts.slice(0, k % 6)));
  const results = await Promise.all(batches.map((b) => pool.segmentBatch(b)));
  results.forEach((r, k) =>
    expect(r).toEqual(
      batches[k].map((x) =>
        segment(x.text, x.lang, {
          words: x.lang === 'lo' ? dict : undefined,
        }),
      ),
    ),
  );
  expect(await pool.segmentBatch([])).toEqual([]);
});

test('setWordList reaches the workers; close() finishes outstanding work, then refuses', async () => {
  const own = new SegmentPool({ size: 1 });
  const zh = { text: '這是我的書。', lang: 'cmn' };
  expect((await own.segmentBatch([zh]))[0].map((t) => t.text)).toEqual(['這是', '我', '的', '書', '。']);
  own.setWordList('zh', WordList.fromWords(['這', '是']));
  const pending = own.segmentBatch([zh]);
  await own.close();
  expect((await pending)[0].map((t) => t.text)).toEqual(['這', '是', '我', '的', '書', '。']);
  await expect(own.segmentBatch([zh])).rejects.toThrow(/closed/);
});

test('a pool starts its second worker only for a batch large enough to share, with the word lists set meanwhile', async () => {
  const lazy = new SegmentPool({ size: 2 });
  try {
    await lazy.segmentBatch(Array.from({ length: 400 }, () => ({ text: 'ສະບາຍດີ', lang: 'lo' })));
    expect(lazy.started).toBe(1);
    const text = 'ສະຖານທູດໄທປະຈຳລາວ';
    const words = WordList.fromWords(['ສະຖານທູດໄທ']);
    expect(segment(text, 'lo').map((t) => t.text)).not.toContain('ສະຖານທູດໄທ');
    lazy.setWordList('lo', words);
    const got = await lazy.segmentBatch(Array.from({ length: 1200 }, () => ({ text, lang: 'lo' })));
    expect(lazy.started).toBe(2);
    const want = JSON.stringify(segment(text, 'lo', { words }));
    expect(want).toContain('ສະຖານທູດໄທ');
    expect(got.every((t) => JSON.stringify(t) === want)).toBe(true);
  } finally {
    await lazy.close();
  }
});
