// Words learned from the parallel side (issue 43 item 10): a run of pieces that consistently
// aligns to one word of the other side is one word, so a name the corpus alone cannot keep
// whole (one of its syllables also starts other names) comes out whole; pieces that go to two
// different words of the other side are never glued, even where the corpus-level pass would
// glue them.
import { expect, test } from 'vitest';
import { CorpusWords } from '../../../src/main/text/corpus-words.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment, segmentOffsets } from '../../../src/main/text/segment.ts';
import { WordList } from '../../../src/main/text/word-list.ts';

/** The words learned from `pairs` (each side cut by segment()), with or without the parallel side. */
function learn(pairs: [string, string][], lang: string, parallel: boolean) {
  const learner = new CorpusWords(lang);
  for (const [text, english] of pairs.map(([a, b]) => [normalizeText(a), normalizeText(b)])) {
    const other = parallel ? { text: english, spans: segmentOffsets(english, 'en') } : undefined;
    learner.add(text, segmentOffsets(text, lang), other);
  }
  return learner.learn(undefined, { parallel });
}

const cut = (text: string, lang: string, words?: WordList) => segment(normalizeText(text), lang, { words }).map((t) => t.text);

// Thai โยเซฟ (Joseph), which ICU cuts โย|เซฟ; โย also starts โยชูวา (Joshua), โยนาห์ (Jonah) and
// โยอาบ (Joab), so โย stands next to เซฟ in only 4 of its 7 occurrences.
const THAI: [string, string][] = [
  ['โยเซฟไปตลาด', 'Joseph went to the market'],
  ['โยเซฟกินข้าว', 'Joseph ate rice'],
  ['ฉันเห็นโยเซฟ', 'I saw Joseph'],
  ['โยเซฟรักแม่', 'Joseph loves his mother'],
  ['โยชูวาไปตลาด', 'Joshua went to the market'],
  ['โยนาห์กินข้าว', 'Jonah ate rice'],
  ['โยอาบนอน', 'Joab sleeps'],
];

test('a name only the parallel side keeps whole: its syllables all align to one English word', () => {
  expect(cut('ฉันเห็นโยเซฟ', 'th')).toEqual(['ฉัน', 'เห็น', 'โย', 'เซฟ']);
  // the corpus alone does not learn it: โย|เซฟ holds only 4 of โย's 7 occurrences
  expect(learn(THAI, 'th', false).words.map((w) => w.word)).not.toContain('โยเซฟ');
  const learned = learn(THAI, 'th', true);
  expect(learned.words.find((w) => w.word === 'โยเซฟ')).toEqual({ word: 'โยเซฟ', count: 4, pieces: 2, aligned: 'joseph' });
  // the sentences that hold it, to be merged
  expect(learned.sentences).toEqual(expect.arrayContaining([0, 1, 2, 3]));
  const list = WordList.fromWords(
    learned.words.map((w) => w.word),
    'merge-only',
  );
  expect(cut('ฉันเห็นโยเซฟ', 'th', list)).toEqual(['ฉัน', 'เห็น', 'โยเซฟ']);
  // the other names that start with โย occur once each: still cut as before
  expect(cut('โยชูวาไปตลาด', 'th', list)).toEqual(cut('โยชูวาไปตลาด', 'th'));
});

// Chinese 她|很 ("she" "very"): in this small corpus 她 stands before 很 in 3 of its 4
// occurrences and 很 after 她 in 3 of 4, which the corpus-level pass takes for one word.
const CHINESE: [string, string][] = [
  ['她很高。', 'She is very tall.'],
  ['她很忙。', 'She is very busy.'],
  ['她很累。', 'She is very tired.'],
  ['她来了。', 'She came.'],
  ['我很好。', 'I am very well.'],
];

test('nothing is glued across a word boundary of the parallel side', () => {
  expect(learn(CHINESE, 'zh', false).words.map((w) => w.word)).toEqual(['她很']);
  // 她 goes to "she", 很 to "very": two words of the other side, so not one word
  expect(learn(CHINESE, 'zh', true).words).toEqual([]);
});

test('a pair without an other side teaches only the corpus-level words', () => {
  const learner = new CorpusWords('th');
  for (const [text] of THAI) learner.add(normalizeText(text), segmentOffsets(normalizeText(text), 'th'));
  expect(learner.learn().words.map((w) => w.word)).not.toContain('โยเซฟ');
});
