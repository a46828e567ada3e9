// The AER scorer against a hand computation, and its input checks.
import { expect, test } from 'vitest';
import { alignedPair } from '../../../src/shared/link-set.ts';
import { scoreAer } from '../../../src/main/eval/aer.ts';
import { parsePharaohLine, parsePharaohText } from '../../../src/main/corpus/pharaoh.ts';

const parsePharaoh = (text: string, base: 0 | 1, file: string) => parsePharaohText(text, base, file).map(alignedPair);

test('AER, precision, recall and F1 match a hand computation', () => {
  // Pair 1: S = {0-0, 1-1}, P = S ∪ {1-2}; A = {0-0, 1-2, 2-2}.
  // Pair 2: S = {0-1}, P = S; A = {0-1}.
  // |A| = 4, |S| = 3, |A∩S| = 2 (0-0, 0-1), |A∩P| = 3 (0-0, 1-2, 0-1).
  // precision 3/4, recall 2/3, AER = 1 − (2 + 3)/(4 + 3) = 2/7, F1 = 2·(3/4)(2/3)/(3/4 + 2/3) = 12/17.
  const gold = parsePharaoh('0-0 1-1 1p2\n0-1\n', 0, 'gold');
  const pred = [
    [
      [0, 0],
      [1, 2],
      [2, 2],
    ],
    [[0, 1]],
  ] as [number, number][][];
  const s = scoreAer(gold, pred);
  expect(s.precision).toBeCloseTo(3 / 4, 12);
  expect(s.recall).toBeCloseTo(2 / 3, 12);
  expect(s.aer).toBeCloseTo(2 / 7, 12);
  expect(s.f1).toBeCloseTo(12 / 17, 12);
  expect(s.pairs).toBe(2);
});

test('--ignore-possible: scored against the sure links alone (P = S), by hand', () => {
  // The pairs above: |A| = 4, |S| = 3, |A∩S| = 2; the link 1-2 on a possible-only gold link now counts as wrong.
  // precision 2/4, recall 2/3, AER = 1 − (2 + 2)/(4 + 3) = 3/7, F1 = 2·(1/2)(2/3)/(1/2 + 2/3) = 4/7 = 1 − AER.
  const gold = parsePharaoh('0-0 1-1 1p2\n0-1\n', 0, 'gold');
  const pred = [
    [
      [0, 0],
      [1, 2],
      [2, 2],
    ],
    [[0, 1]],
  ] as [number, number][][];
  const s = scoreAer(gold, pred, { ignorePossible: true });
  expect(s.precision).toBeCloseTo(1 / 2, 12);
  expect(s.recall).toBeCloseTo(2 / 3, 12);
  expect(s.aer).toBeCloseTo(3 / 7, 12);
  expect(s.f1).toBeCloseTo(4 / 7, 12);
  // gold with no possible links scores the same either way
  const sureOnly = parsePharaoh('0-0 1-1\n0-1\n', 0, 'gold');
  expect(scoreAer(sureOnly, pred, { ignorePossible: true })).toEqual(scoreAer(sureOnly, pred));
});

test('possible links may be written i?j or ipj, 1-based files are shifted', () => {
  const p = alignedPair(parsePharaohLine('1-1 2?3 3p1', 1, 'g', 1));
  expect(p.sure).toEqual([[0, 0]]);
  expect(p.possible).toEqual([
    [1, 2],
    [2, 0],
  ]);
});

test('a perfect prediction has AER 0; an empty line is a pair with no links', () => {
  const gold = parsePharaoh('0-0 1-1\n\n', 0, 'g');
  expect(gold).toHaveLength(2);
  expect(
    scoreAer(gold, [
      [
        [0, 0],
        [1, 1],
      ],
      [],
    ]).aer,
  ).toBe(0);
});

test('bad links and mismatched pair counts are clear errors', () => {
  expect(() => parsePharaoh('0-0\n1:2\n', 0, 'gold.txt')).toThrow(
    'gold.txt:2: bad link "1:2": expected i-j, i?j or ipj, optionally with :score',
  );
  expect(() => parsePharaoh('0-0\n', 1, 'gold.txt')).toThrow('gold.txt:1: bad link "0-0": index 0 in a 1-based links file');
  expect(() => scoreAer(parsePharaoh('0-0\n', 0, 'g'), [])).toThrow('gold has 1 pairs but prediction has 0');
});
