// Mined pairs against gold, BUCC's protocol (eval/mining-score.ts): P/R/F1 by hand, the
// threshold fitted on a train split with known pairs and applied to a test split, and the
// files' errors (file, line, reason).
import { expect, test } from 'vitest';
import { fitMiningThreshold, parseGoldPairs, parseMinedPairs, scoreMining } from '../../../src/main/eval/mining-score.ts';

const tsv = (rows: (string | number)[][]) => rows.map((r) => r.join('\t') + '\n').join('');

test('precision, recall and F1 of all proposed pairs, by hand', () => {
  const pred = parseMinedPairs(
    tsv([
      ['de-1', 'en-7'],
      ['de-2', 'en-3'],
      ['de-4', 'en-4'],
    ]),
    'pred',
  );
  const gold = parseGoldPairs(
    tsv([
      ['de-1', 'en-7'],
      ['de-4', 'en-4'],
      ['de-5', 'en-9'],
      ['de-6', 'en-1'],
    ]),
    'gold',
  );
  // 2 of 3 proposed are gold; 2 of 4 gold found: P 2/3, R 1/2, F1 = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7
  const s = scoreMining(pred, gold, 'pred');
  expect(s).toEqual({ precision: 2 / 3, recall: 1 / 2, f1: expect.closeTo(4 / 7, 12), proposed: 3, correct: 2, gold: 4 });
});

test('the threshold of best F1 on the train split, applied to the test split', () => {
  // train: scores 0.9 (gold) 0.8 (gold) 0.7 (wrong) 0.6 (gold) 0.2 (wrong); 3 gold pairs, one never proposed → 4 gold.
  //   cut after 0.8: P 1, R 2/4, F1 2/3; after 0.6: P 3/4, R 3/4, F1 3/4 (best); after 0.2: P 3/5, R 3/4, F1 2/3.
  //   threshold = (0.6 + 0.2) / 2 = 0.4
  const train = parseMinedPairs(
    tsv([
      ['a', 'A', 0.9],
      ['b', 'B', 0.8],
      ['c', 'X', 0.7],
      ['d', 'D', 0.6],
      ['e', 'Y', 0.2],
    ]),
    'train.pred',
  );
  const trainGold = parseGoldPairs(
    tsv([
      ['a', 'A'],
      ['b', 'B'],
      ['d', 'D'],
      ['f', 'F'],
    ]),
    'train.gold',
  );
  const fit = fitMiningThreshold(train, trainGold, 'train.pred');
  expect(fit.threshold).toBeCloseTo(0.4, 12);
  expect(fit.f1).toBeCloseTo(3 / 4, 12);
  // test: kept from 0.4 up are p (gold), q (wrong), r (gold); s at 0.3 (gold) is dropped. 3 gold pairs.
  const test = parseMinedPairs(
    tsv([
      ['p', 'P', 1.5],
      ['q', 'Z', 0.45],
      ['r', 'R', 0.4],
      ['s', 'S', 0.3],
    ]),
    'test.pred',
  );
  const s = scoreMining(
    test,
    parseGoldPairs(
      tsv([
        ['p', 'P'],
        ['r', 'R'],
        ['s', 'S'],
      ]),
      'test.gold',
    ),
    'test.pred',
    fit.threshold,
  );
  expect(s.proposed).toBe(3);
  expect(s.correct).toBe(2);
  expect(s.precision).toBeCloseTo(2 / 3, 12);
  expect(s.recall).toBeCloseTo(2 / 3, 12);
});

test('bad lines, repeated pairs and a threshold without scores are errors naming file and line', () => {
  expect(() => parseMinedPairs('a\tb\t0.5\nc d\n', 'p.tsv')).toThrow('p.tsv:2: expected src_id<TAB>tgt_id[<TAB>score], got "c d"');
  expect(() => parseMinedPairs('a\tb\tx\n', 'p.tsv')).toThrow('p.tsv:1: score "x" is not a number');
  expect(() => parseGoldPairs('a\tb\t1\n', 'g.tsv')).toThrow('g.tsv:1: expected src_id<TAB>tgt_id, got "a\tb\t1"');
  expect(() => parseGoldPairs('a\tb\n\na\tb\n', 'g.tsv')).toThrow('g.tsv:3: the pair a b is already on line 1');
  const unscored = parseMinedPairs('a\tb\n', 'p.tsv');
  expect(() => fitMiningThreshold(unscored, new Set(), 'p.tsv')).toThrow('p.tsv:1: no score: a threshold needs each pair scored');
  expect(() => scoreMining(unscored, new Set(), 'p.tsv', 0)).toThrow('p.tsv:1: no score');
});
