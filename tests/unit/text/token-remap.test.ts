// The token map of a re-segmentation: merges and splits whose spans nest map to whole new
// tokens, a new token cutting across an old one leaves it without an image; links follow.
import { expect, test } from 'vitest';
import { identityMap, remapLinks, remapTokens } from '../../../src/main/text/token-remap.ts';

test('merge, split, unchanged and cut across', () => {
  // old: ab|c|d|efgh|ij   new: abc|d|ef|gh|i|j
  const old = [0, 2, 2, 3, 4, 5, 5, 9, 10, 12];
  const next = [0, 3, 4, 5, 5, 7, 7, 9, 10, 11, 11, 12];
  expect(remapTokens(old, next)).toEqual([[0], [0], [1], [2, 3], [4, 5]]);
  // old: ab|cd   new: a|bcd: "ab" is cut across by "bcd", "cd" is held by it.
  expect(remapTokens([0, 2, 2, 4], [0, 1, 1, 4])).toEqual([null, [1]]);
  // An old token no new token overlaps has no image either.
  expect(remapTokens([0, 2, 3, 4], [0, 2])).toEqual([[0], null]);
  expect(identityMap(3)).toEqual([[0], [1], [2]]);
});

test('links follow their tokens; links that meet are merged (sure wins, larger score)', () => {
  const src = [[0], [0], [1, 2]];
  const tgt = identityMap(2);
  expect(
    remapLinks(
      [
        { s: 0, t: 1, kind: 'possible', score: 0.3 },
        { s: 1, t: 1, kind: 'sure', score: 0.2 },
        { s: 2, t: 0, kind: 'sure', score: null },
      ],
      src,
      tgt,
    ),
  ).toEqual([
    { s: 0, t: 1, kind: 'sure', score: 0.3 },
    { s: 1, t: 0, kind: 'sure', score: null },
    { s: 2, t: 0, kind: 'sure', score: null },
  ]);
});
