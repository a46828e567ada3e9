// Words learned from the corpus (issue 43 item 10): a name or loan that recurs as the same run
// of syllables comes out whole once learned; a run that occurs once, or frequent words that
// meet each other in a small share of their occurrences, are left alone; boundaries map back
// to the text as written (the ຫນ spelling shadow included); learning is deterministic.
import { expect, test } from 'vitest';
import { CorpusWords, formatLearnedWords, learnsWords, mergeLearned } from '../../../src/main/text/corpus-words.ts';
import { loadLaoEnglishHeadwords } from '../../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment, segmentOffsets } from '../../../src/main/text/segment.ts';
import { WordList } from '../../../src/main/text/word-list.ts';
import { readWordListFile } from '../../../src/main/text/word-list-file.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

/** Learns from `corpus` with `known` as the first cut's list; returns the list grown by the learned words, and them. */
function learnFrom(corpus: string[], lang: string, known?: WordList) {
  const learner = new CorpusWords(lang);
  const texts = corpus.map(normalizeText);
  for (const t of texts) learner.add(t, segmentOffsets(t, lang, { words: known }));
  const learned = learner.learn(known);
  const grown = WordList.fromData(known?.data() ?? { words: [], mergeOnly: [] });
  for (const w of learned.words) grown.add(w.word, 'merge-only');
  return { learned, grown };
}

const cut = (text: string, lang: string, words?: WordList) => segment(normalizeText(text), lang, { words }).map((t) => t.text);

// Lao sentences of a Bible-reading corpus: ເຢໂຫວາ (Jehovah) and ໄບເບິນ (Bible) recur in
// different company; ອັບລາຫາມ (Abraham) occurs once.
const LAO = [
  'ເຢໂຫວາເປັນພະເຈົ້າ',
  'ພວກເຮົານະມັດສະການເຢໂຫວາ',
  'ເຢໂຫວາຮັກພວກເຮົາ',
  'ຄຳພີໄບເບິນບອກວ່າເຢໂຫວາຊົງຮັກ',
  'ອ່ານໄບເບິນທຸກມື້',
  'ລາວອ່ານໄບເບິນກັບລູກ',
  'ອັບລາຫາມມີລູກ',
  'ລາວໄປຕະຫຼາດທຸກມື້',
  'ພວກເຮົາໄປເຮືອນ',
];

test('a name that recurs in the corpus comes out whole once learned, a run met once stays cut', async () => {
  const dictionary = await loadLaoEnglishHeadwords();
  // before: ICU and the dictionary cut the names into syllables
  expect(cut('ເຢໂຫວາຮັກພວກເຮົາ', 'lo', dictionary)).toContain('ວາ');
  expect(cut('ອ່ານໄບເບິນທຸກມື້', 'lo', dictionary)).toContain('ໄບ');
  const { learned, grown } = learnFrom(LAO, 'lo', dictionary);
  const words = learned.words.map((w) => w.word);
  expect(words).toContain('ເຢໂຫວາ');
  expect(words).toContain('ໄບເບິນ');
  expect(learned.words.find((w) => w.word === 'ເຢໂຫວາ')).toEqual({ word: 'ເຢໂຫວາ', count: 4, pieces: 2 });
  // the sentences that hold a learned word, to be cut again
  expect(learned.sentences).toEqual([0, 1, 2, 3, 4, 5]);
  expect(cut('ເຢໂຫວາຮັກພວກເຮົາ', 'lo', grown)).toEqual(['ເຢໂຫວາ', 'ຮັກ', 'ພວກເຮົາ']);
  expect(cut('ອ່ານໄບເບິນທຸກມື້', 'lo', grown)).toContain('ໄບເບິນ');
  // ອັບລາຫາມ occurs once: not learned, still cut as before
  expect(words.some((w) => w.includes('ຫາມ'))).toBe(false);
  expect(cut('ອັບລາຫາມມີລູກ', 'lo', grown)).toEqual(cut('ອັບລາຫາມມີລູກ', 'lo', dictionary));
});

test('frequent words that meet each other in a small share of their occurrences are not glued', () => {
  // ໄປ|ເຮືອນ meets three times, but ໄປ and ເຮືອນ each stand next to other words far more often
  const corpus = [
    ...Array.from({ length: 3 }, () => 'ພວກເຮົາໄປເຮືອນ'),
    ...['ໄປຕະຫຼາດ', 'ໄປວັດ', 'ໄປໂຮງຮຽນ', 'ໄປນາ', 'ໄປທະເລ'].map((s) => `ລາວ${s}`),
    ...['ເຮືອນໃຫຍ່', 'ເຮືອນນ້ອຍ', 'ເຮືອນໃໝ່', 'ເຮືອນເກົ່າ'].map((s) => `ມີ${s}`),
  ];
  const { learned } = learnFrom(corpus, 'lo');
  expect(learned.words.filter((w) => w.word.includes('ໄປເຮືອນ'))).toEqual([]);
  // ພວກ|ເຮົາ ("we"), which ICU cuts without the dictionary, meets only itself: learned
  expect(learned.words.map((w) => w.word)).toEqual(['ພວກເຮົາ']);
});

test('boundaries map back to the text as written: a learned name in the ຫນ spelling and in the ໜ one', () => {
  // a made-up name ຫນໍເລສາ (written ຫນ, read ໜ by the spelling shadow), recurring in both spellings
  const corpus = ['ຫນໍເລສາມາແລ້ວ', 'ເຫັນຫນໍເລສາຢູ່ບ້ານ', 'ໜໍເລສາກິນເຂົ້າ', 'ລາວຖາມຫນໍເລສາ'];
  const { learned, grown } = learnFrom(corpus, 'lo');
  expect(learned.words.length).toBeGreaterThan(0);
  for (const text of ['ເຫັນຫນໍເລສາຢູ່ບ້ານ', 'ເຫັນໜໍເລສາຢູ່ບ້ານ']) {
    const tokens = segment(text, 'lo', { words: grown });
    const name = tokens.find((t) => t.text.endsWith('ໍເລສາ'))!;
    expect(name.text).toBe(text.slice(4, text.indexOf('ຢູ່')));
    expect(name.start).toBe(4);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
    // the text is never rewritten: the tokens cover it as written
    expect(tokens.map((t) => t.text).join('')).toBe(text);
    // merging the first cut's pieces (what resegment does) gives the same spans
    const only = WordList.fromWords(
      learned.words.map((w) => w.word),
      'merge-only',
    );
    expect(mergeLearned(text, segmentOffsets(text, 'lo'), only)).toEqual(Array.from(segmentOffsets(text, 'lo', { words: grown })));
  }
});

test('Chinese names jieba cuts are learned when they recur; learning is deterministic', () => {
  const corpus = [
    '我们昨天见到了卡莫纳。',
    '卡莫纳的父亲是医生。',
    '老师给卡莫纳一本书。',
    '这是卡莫纳的家。',
    '塔哈尔今天很忙。',
    '我认识塔哈尔。',
    '塔哈尔和他的朋友走了。',
  ];
  expect(cut('卡莫纳的父亲是医生。', 'zh')[0]).not.toBe('卡莫纳');
  const first = learnFrom(corpus, 'zh');
  expect(first.learned.words.map((w) => w.word)).toEqual(expect.arrayContaining(['卡莫纳', '塔哈尔']));
  expect(cut('卡莫纳的父亲是医生。', 'zh', first.grown)[0]).toBe('卡莫纳');
  expect(learnFrom([...corpus].reverse(), 'zh').learned.words).toEqual(first.learned.words);
});

test('Thai and Lao and Chinese learn words, other languages do not; the list reads back as a word list file', () => {
  expect(['lo', 'th', 'zh'].every(learnsWords)).toBe(true);
  expect(learnsWords('ja') || learnsWords('en')).toBe(false);
  const file = join(dir, 'learned.txt');
  writeFileSync(file, formatLearnedWords('lo', [{ word: 'ເຢໂຫວາ', count: 4, pieces: 2 }]));
  expect(readWordListFile(file)).toEqual(['ເຢໂຫວາ']);
});
