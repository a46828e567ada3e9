// The Re-segment preview's view of a changed side: tokens before and after with the changed
// ones marked, a long sentence shortened to its changes.
import { expect, test } from 'vitest';
import { resegmentDiff } from '../../../src/renderer/lib/editor/resegment-diff.ts';

const show = (pieces: ReturnType<typeof resegmentDiff>['before']) =>
  pieces.map((p) => ('gap' in p ? '…' : p.changed ? `[${p.text}]` : p.text)).join(' ');

test('a merge and a split marked on both cuts; far tokens left out as one gap', () => {
  const words = 'a b c d e f g h i j k l m n'.split(' ');
  const text = words.join('') + 'xy';
  // one token a letter; after: "ab" merged, "xy" split off the end differently
  const before = [...words.flatMap((_, k) => [k, k + 1]), 14, 16];
  const after = [0, 2, ...words.slice(2).flatMap((_, k) => [k + 2, k + 3]), 14, 15, 15, 16];
  const d = resegmentDiff({ side: 'src', text, before, after });
  expect(show(d.before)).toBe('[a] [b] c d e f … k l m n [xy]');
  expect(show(d.after)).toBe('[ab] c d e f … k l m n [x] [y]');
});
