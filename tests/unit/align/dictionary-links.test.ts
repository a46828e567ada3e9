// The links a dictionary proposes in a sentence pair (one-to-one matches only) and how a
// neural run takes them as supervision next to gold and model links (method.ts).
import { expect, test } from 'vitest';
import { dictionaryIndex, dictionaryLinks } from '../../../src/main/align/dictionary-links.ts';
import { supervision } from '../../../src/main/models/bilstm/method.ts';

const split = (s: string) => s.split(' ');
const entries = [
  { src: 'ກິນ', tgt: 'eat', weight: 1 },
  { src: 'ເຂົ້າ', tgt: 'rice', weight: 1 },
  { src: 'ເຂົ້າ', tgt: 'enter', weight: 1 },
  { src: 'water', tgt: 'ນ້ຳ', weight: 1 }, // listed the other way round
];

test('one-to-one matches are proposed; a word with two partners in the pair, or repeated, proposes nothing', () => {
  const src = ['ຂ້ອຍ ກິນ ເຂົ້າ', 'ເຂົ້າ ເຂົ້າ', 'ກິນ ນ້ຳ', ''].map(split);
  const tgt = ['I eat rice', 'enter rice', 'eat water', 'x'].map(split);
  expect(dictionaryLinks(src, tgt, dictionaryIndex(entries))).toEqual([
    [
      { s: 1, t: 1 },
      { s: 2, t: 2 },
    ],
    [],
    [
      { s: 0, t: 0 },
      { s: 1, t: 1 },
    ],
    [],
  ]);
});

test('supervision: gold where given, else model links at the threshold and the dictionary matches; prior-only adds none', () => {
  const src = ['ກິນ ເຂົ້າ', 'ກິນ ເຂົ້າ', 'ກິນ ເຂົ້າ'].map(split);
  const tgt = ['eat rice', 'eat rice', 'eat rice'].map(split);
  const gold = [[{ s: 0, t: 1 }], [], []];
  const modelLinks = [[], [{ s: 0, t: 0, kind: 'sure' as const, score: 0.95 }], [{ s: 1, t: 0, kind: 'sure' as const, score: 0.5 }]];
  const sup = supervision({ src, tgt, gold, modelLinks, dictionary: entries });
  expect(sup).toEqual([
    [{ s: 0, t: 1 }],
    [
      { s: 0, t: 0, kind: 'sure', score: 0.95 },
      { s: 1, t: 1 },
    ],
    [
      { s: 0, t: 0 },
      { s: 1, t: 1 },
    ],
  ]);
  expect(supervision({ src, tgt, dictionary: entries, dictionaryUse: 'prior' })).toBeUndefined();
});
