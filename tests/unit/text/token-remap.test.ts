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

test("a model's links ('drop') of a token split in several go to none of the pieces; merged tokens keep theirs", () => {
  const src = [[0], [0], [1, 2]];
  const tgt = identityMap(2);
  const links = [
    { s: 1, t: 1, kind: 'sure' as const, score: 0.8 },
    { s: 2, t: 0, kind: 'sure' as const, score: 0.9 },
  ];
  expect(remapLinks(links, src, tgt, 'drop')).toEqual([{ s: 0, t: 1, kind: 'sure', score: 0.8 }]);
  expect(remapLinks(links, src, tgt, 'copy')).toHaveLength(3);
});

test('a link tag survives when its tokens are merged with another linked token', () => {
  const merged = remapLinks(
    [
      { s: 0, t: 0, kind: 'possible', score: null },
      { s: 1, t: 0, kind: 'sure', score: null, tag: 'semantic' },
    ],
    [[0], [0]],
    identityMap(1),
  );
  expect(merged).toEqual([{ s: 0, t: 0, kind: 'sure', score: null, tag: 'semantic' }]);
});

test('random re-cuts: an image always nests with its old token, null only where a new token cuts across', () => {
  let seed = 7;
  const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), (seed >>> 8) % n);
  /** Random tokens over [0, 40): cut points, with some gaps (whitespace) dropped between tokens. */
  const cut = (): number[] => {
    const spans: number[] = [];
    for (let p = 0; p < 40;) {
      const len = 1 + rand(5);
      const end = Math.min(40, p + len);
      spans.push(p, end);
      p = end + (rand(4) === 0 ? 1 : 0);
    }
    return spans;
  };
  for (let round = 0; round < 500; round++) {
    const [old, next] = [cut(), cut()];
    remapTokens(old, next).forEach((image, i) => {
      // The oracle: every new token overlapping old token i, by brute force.
      const [a, b] = [old[2 * i], old[2 * i + 1]];
      const overlapping: number[] = [];
      for (let k = 0; 2 * k < next.length; k++) if (next[2 * k + 1] > a && next[2 * k] < b) overlapping.push(k);
      const holds = overlapping.length === 1 && next[2 * overlapping[0]] <= a && next[2 * overlapping[0] + 1] >= b;
      const held = overlapping.length > 0 && overlapping.every((k) => next[2 * k] >= a && next[2 * k + 1] <= b);
      expect(image).toEqual(holds || held ? overlapping : null);
    });
  }
});
