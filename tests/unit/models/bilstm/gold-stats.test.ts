// What known gold links say about words (gold-stats.ts): a word the linguist never links has a
// high unlinked rate, a word always linked a low one, an unseen word the side's average; two
// words linked wherever they meet have a high link rate, and so have their stems (Han
// characters, first letters); pairs without gold count for nothing.
import { expect, test } from 'vitest';
import { GoldStats } from '../../../../src/main/models/bilstm/gold-stats.ts';

const split = (s: string) => s.split(' ');
const src = ['a b', 'a c', 'b c', 'a'].map(split),
  tgt = ['x the', 'x z', 'y z', 'x'].map(split);
// a–x everywhere, b–y and c–z where they meet; "the" never linked; the last pair has no gold
const stats = new GoldStats(src, tgt, [
  [{ s: 0, t: 0 }],
  [
    { s: 0, t: 0 },
    { s: 1, t: 1 },
  ],
  [
    { s: 0, t: 0 },
    { s: 1, t: 1 },
  ],
  undefined,
]);

test('unlinked rates: never-linked words high, always-linked low, unseen words the average', () => {
  const average = 1 / 6; // one of the six target tokens of the gold pairs ("the") is unlinked
  expect(stats.unlinkedTgt('the')).toBeGreaterThan(average);
  expect(stats.unlinkedTgt('x')).toBeLessThan(average);
  expect(stats.unlinkedTgt('never-seen')).toBeCloseTo(average, 10);
  expect(stats.unlinkedSrc('a')).toBeLessThan(stats.unlinkedSrc('b'));
});

test('link rates: words linked where they meet above words that meet unlinked', () => {
  expect(stats.linkRate('a', 'x')).toBeGreaterThan(stats.linkRate('a', 'z'));
  expect(stats.linkRate('a', 'x')).toBeGreaterThan(stats.linkRate('b', 'the'));
  expect(stats.linkRate('q', 'r')).toBeCloseTo(stats.linkRate('q2', 'r2'), 10);
});

test('stem link rates carry the gold to inflected forms and to Chinese words sharing a character', () => {
  const s = new GoldStats(
    [['我们', '书']],
    [['books', 'we']],
    [
      [
        { s: 0, t: 1 },
        { s: 1, t: 0 },
      ],
    ],
  );
  expect(s.stemLinkRate('书店', 'book')).toBeGreaterThan(s.stemLinkRate('书店', 'we'));
  expect(s.stemLinkRate('我', 'we')).toBeGreaterThan(s.stemLinkRate('我', 'books'));
  expect(s.linkRate('书店', 'book')).toBeCloseTo(s.linkRate('x', 'y'), 10); // unseen as words
});
