// The link-set module: keys at the bounds of what they hold exactly, the union and merge
// rule, corrections (minus rejected, plus gold), and the Pharaoh and AER views, against
// hand-written examples.
import { expect, test } from 'vitest';
import {
  aerKeySets,
  alignedPair,
  alignedRefs,
  compareLinks,
  keySet,
  LINK_KEY_BASE,
  linkKey,
  linkName,
  linkOfKey,
  LinkSet,
  pairKeySet,
  pairLinkKey,
  pharaohLine,
  sortedLinks,
  type Link,
} from '../../../src/shared/link-set.ts';
import { MAX_LINE_BYTES } from '../../../src/main/corpus/input.ts';

const sure = (s: number, t: number, score: number | null = null): Link => ({ s, t, kind: 'sure', score });
const possible = (s: number, t: number, score: number | null = null): Link => ({ s, t, kind: 'possible', score });

test('keys round-trip, are distinct and ordered as (s, t) up to the bounds', () => {
  const maxT = LINK_KEY_BASE - 1;
  const maxS = 2 * LINK_KEY_BASE - 1;
  const cells = [
    [0, 0],
    [0, 1],
    [1, 0],
    [0, maxT],
    [1, maxT],
    [maxT, 0],
    [maxT, maxT],
    [maxS, maxT - 1],
    [maxS, maxT],
  ] as const;
  for (const [s, t] of cells) {
    const key = linkKey(s, t);
    expect(Number.isSafeInteger(key)).toBe(true);
    expect(linkOfKey(key)).toEqual({ s, t });
  }
  const keys = cells.map(([s, t]) => linkKey(s, t));
  expect(new Set(keys).size).toBe(cells.length);
  const byKey = [...keys].sort((a, b) => a - b).map(linkOfKey);
  expect(byKey).toEqual(sortedLinks(cells.map(([s, t]) => ({ s, t }))));
  // every side an import accepts by default has fewer tokens than the base (a token is at least one byte)
  expect(MAX_LINE_BYTES).toBeLessThanOrEqual(LINK_KEY_BASE);
});

test('key sets and pair keys', () => {
  expect(keySet([sure(1, 2), possible(3, 4), sure(1, 2)])).toEqual(new Set([linkKey(1, 2), linkKey(3, 4)]));
  expect(pairKeySet([[1, 2]])).toEqual(new Set([linkKey(1, 2)]));
  expect(pairLinkKey(7, 1, 2)).not.toBe(pairLinkKey(1, 7, 2));
  expect(pairLinkKey(7, 1, 2)).toBe(pairLinkKey(7, 1, 2));
});

test('order and names', () => {
  expect(sortedLinks([sure(1, 0), sure(0, 2), sure(0, 1)])).toEqual([sure(0, 1), sure(0, 2), sure(1, 0)]);
  expect([sure(2, 0), sure(1, 5)].sort(compareLinks)).toEqual([sure(1, 5), sure(2, 0)]);
  expect(linkName({ s: 3, t: 4 })).toBe('3-4');
  expect(linkName({ s: 3, t: 4 }, 1)).toBe('4-5');
});

test('union: one link per cell, sure beats possible, the higher score wins, the first tag stays', () => {
  const a = [possible(0, 0, 0.4), { ...sure(1, 1, null), tag: 'function' }];
  const b = [sure(0, 0, 0.2), { ...possible(1, 1, 0.7), tag: 'semantic' }, possible(2, 2)];
  const u = LinkSet.union([a, b]);
  expect(u.size).toBe(3);
  expect(u.links()).toEqual([sure(0, 0, 0.4), { ...sure(1, 1, 0.7), tag: 'function' }, possible(2, 2)]);
  expect(u.has(2, 2)).toBe(true);
  expect(u.has(2, 1)).toBe(false);
  expect(u.get(0, 0)).toEqual(sure(0, 0, 0.4));
  // insertion order is kept; sorted() sorts
  expect(new LinkSet([sure(2, 0), sure(0, 1)]).links()).toEqual([sure(2, 0), sure(0, 1)]);
  expect(new LinkSet([sure(2, 0), sure(0, 1)]).sorted()).toEqual([sure(0, 1), sure(2, 0)]);
  // null scores: null only when both are null
  expect(new LinkSet([sure(0, 0), sure(0, 0)]).links()).toEqual([sure(0, 0)]);
  expect(new LinkSet([sure(0, 0), sure(0, 0, 0.3)]).links()).toEqual([sure(0, 0, 0.3)]);
});

test('corrections: minus rejected drops their cells, plus gold puts every gold link in place with score 1', () => {
  const model = [sure(0, 0, 0.9), sure(1, 2, 0.6), sure(2, 1, 0.3), possible(3, 3, 0.5)];
  const rejected = [
    { s: 1, t: 2 },
    { s: 4, t: 4 },
  ];
  const gold = [possible(0, 0), sure(3, 3), { ...sure(5, 0), tag: 'semantic' }, possible(5, 0)];
  const out = new LinkSet(model).minusRejected(rejected).plusGold(gold).sorted();
  expect(out).toEqual([possible(0, 0, 1), sure(2, 1, 0.3), sure(3, 3, 1), { ...sure(5, 0, 1), tag: 'semantic' }]);
  // gold wins over a rejection when applied after it
  expect(
    new LinkSet([])
      .minusRejected([{ s: 0, t: 0 }])
      .plusGold([sure(0, 0)])
      .links(),
  ).toEqual([sure(0, 0, 1)]);
  // the gold passed in is not changed
  expect(gold[1]).toEqual(sure(3, 3));
});

test('Pharaoh view: i-j sure, i?j (or ipj) possible, scores on request, sorted by the set', () => {
  const links = [possible(1, 2, 0.5), sure(0, 0, 0.25), sure(2, 2)];
  expect(pharaohLine(links)).toBe('1?2 0-0 2-2');
  expect(pharaohLine(links, { base: 1, possible: 'p', scores: true })).toBe('2p3:0.5 1-1:0.25 3-3');
  expect(pharaohLine(links, { scores: true, scoreDigits: 2 })).toBe('1?2:0.50 0-0:0.25 2-2');
  expect(new LinkSet(links).pharaoh()).toBe('0-0 1?2 2-2');
  expect(pharaohLine([])).toBe('');
});

test('AER views: sure cells, possible cells including the sure ones', () => {
  const links = [sure(0, 0), possible(1, 2), sure(2, 1), possible(0, 0)];
  const g = alignedPair(links);
  expect(g).toEqual({
    sure: [
      [0, 0],
      [2, 1],
    ],
    possible: [
      [1, 2],
      [0, 0],
    ],
  });
  expect(new LinkSet(links).aligned()).toEqual({
    sure: [
      [0, 0],
      [2, 1],
    ],
    possible: [[1, 2]],
  });
  const { sure: S, possible: P } = aerKeySets(new LinkSet(links).aligned());
  expect(S).toEqual(new Set([linkKey(0, 0), linkKey(2, 1)]));
  expect(P).toEqual(new Set([linkKey(0, 0), linkKey(2, 1), linkKey(1, 2)]));
  expect(alignedRefs({ sure: [[2, 1]], possible: [[1, 2]] })).toEqual([
    { s: 2, t: 1 },
    { s: 1, t: 2 },
  ]);
});
