// Token split/merge and link re-indexing. The link functions are checked against a
// reference that computes each new link from the old links it comes from (a pull-back,
// where the code pushes links forward), over every link set on a 3×3 grid, on both sides.
import { describe, expect, test } from 'vitest';
import { LinkSet, type Link, type LinkKind } from '../../../src/shared/link-set.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { segment } from '../../../src/main/text/segment.ts';
import {
  mergeTokens,
  reindexLinksAfterMerge,
  reindexLinksAfterSplit,
  splitToken,
  type LinkSide,
} from '../../../src/main/text/token-edits.ts';

const text = normalizeText('ເອກອັກຄະຣາຊະທູດໄທ ປະຈຳ ສປປ');
const tokens = segment(text, 'lo');

describe('splitToken / mergeTokens', () => {
  test('every split point of every token keeps offsets exact, and merging back restores it', () => {
    tokens.forEach((tok, i) => {
      for (let at = 1; at < tok.text.length; at++) {
        const split = splitToken(tokens, i, at);
        expect(split).toHaveLength(tokens.length + 1);
        for (const t of split) expect(text.slice(t.start, t.end)).toBe(t.text);
        expect(split[i].text + split[i + 1].text).toBe(tok.text);
        expect(split[i].text).toHaveLength(at);
        expect(mergeTokens(split, i)).toEqual(tokens);
      }
    });
  });

  test('merging ICU syllables builds ເອກອັກຄະຣາຊະທູດ', () => {
    let t = tokens;
    for (let k = 0; k < 5; k++) t = mergeTokens(t, 0);
    expect(t.map((x) => x.text)).toEqual(['ເອກອັກຄະຣາຊະທູດ', 'ໄທ', 'ປະຈຳ', 'ສປປ']);
    expect(t[0]).toEqual({ text: 'ເອກອັກຄະຣາຊະທູດ', start: 0, end: 15 });
    expect(tokens).toHaveLength(9); // inputs are not mutated
  });

  test('merging across a gap needs the sentence and then spans it', () => {
    const i = tokens.findIndex((t) => t.text === 'ໄທ');
    expect(() => mergeTokens(tokens, i)).toThrow(/not adjacent/);
    const merged = mergeTokens(tokens, i, text);
    expect(merged[i]).toEqual({ text: 'ໄທ ປະຈຳ', start: 15, end: 22 });
  });

  test('bad indices and offsets are refused', () => {
    expect(() => splitToken(tokens, -1, 1)).toThrow(RangeError);
    expect(() => splitToken(tokens, tokens.length, 1)).toThrow(RangeError);
    expect(() => splitToken(tokens, 0, 0)).toThrow(RangeError);
    expect(() => splitToken(tokens, 0, 3)).toThrow(RangeError); // ເອກ has 3 code units
    expect(() => splitToken([{ text: '😀a', start: 0, end: 3 }], 0, 1)).toThrow(/surrogate/);
    expect(() => mergeTokens(tokens, tokens.length - 1)).toThrow(RangeError);
    expect(() => mergeTokens(tokens, 0.5)).toThrow(RangeError);
  });
});

const KINDS: LinkKind[] = ['sure', 'possible'];
const SCORES = [null, 0.25, 0.5, 0.75];

/** All 512 link sets on a 3×3 grid; kind and score vary with position and set. */
function* linkSets(): Generator<Link[]> {
  for (let mask = 0; mask < 512; mask++) {
    const links: Link[] = [];
    for (let cell = 0; cell < 9; cell++) {
      if (mask & (1 << cell)) {
        links.push({ s: Math.floor(cell / 3), t: cell % 3, kind: KINDS[(mask >> cell) & 1], score: SCORES[(mask + cell) % 4] });
      }
    }
    yield links;
  }
}

/** New links from old ones: new index j on `side` takes the links of old indices from(j). */
function pullBack(links: Link[], side: LinkSide, newCount: number, from: (j: number) => number[]): Link[] {
  const out: Link[] = [];
  for (let a = 0; a < newCount; a++) {
    for (let b = 0; b < 3; b++) {
      const [s, t] = side === 'src' ? [a, b] : [b, a];
      const sources = links.filter((l) => (side === 'src' ? from(a).includes(l.s) && l.t === b : from(a).includes(l.t) && l.s === b));
      if (!sources.length) continue;
      const scores = sources.map((l) => l.score).filter((x): x is number => x !== null);
      out.push({
        s,
        t,
        kind: sources.some((l) => l.kind === 'sure') ? 'sure' : 'possible',
        score: scores.length ? Math.max(...scores) : null,
      });
    }
  }
  return out.sort((x, y) => x.s - y.s || x.t - y.t);
}

describe.each(['src', 'tgt'] as LinkSide[])('link re-indexing on side %s', (side) => {
  test('after a split: links of the old token go to both halves, later ones shift up', () => {
    for (const links of linkSets()) {
      for (let i = 0; i < 3; i++) {
        const want = pullBack(links, side, 4, (j) => [j <= i ? j : j - 1]);
        expect(reindexLinksAfterSplit(links, side, i)).toEqual(want);
      }
    }
  });

  test("after a split: a model's links of the old token ('neither') go to no half, later ones shift up", () => {
    for (const links of linkSets()) {
      for (let i = 0; i < 3; i++) {
        const want = pullBack(links, side, 4, (j) => (j < i ? [j] : j === i || j === i + 1 ? [] : [j - 1]));
        expect(reindexLinksAfterSplit(links, side, i, 'neither')).toEqual(want);
      }
    }
  });

  test('after a merge: links of both tokens go to the merged one, duplicates merged', () => {
    for (const links of linkSets()) {
      for (let i = 0; i < 2; i++) {
        const want = pullBack(links, side, 2, (j) => (j < i ? [j] : j === i ? [i, i + 1] : [j + 1]));
        expect(reindexLinksAfterMerge(links, side, i)).toEqual(want);
      }
    }
  });
});

test('duplicates: sure beats possible, the larger score wins, null only when all are null', () => {
  const links: Link[] = [
    { s: 1, t: 0, kind: 'possible', score: 0.9 },
    { s: 0, t: 0, kind: 'possible', score: null },
    { s: 1, t: 0, kind: 'sure', score: 0.2 },
    { s: 0, t: 0, kind: 'possible', score: null },
  ];
  expect(new LinkSet(links).sorted()).toEqual([
    { s: 0, t: 0, kind: 'possible', score: null },
    { s: 1, t: 0, kind: 'sure', score: 0.9 },
  ]);
  expect(reindexLinksAfterMerge(links, 'src', 0)).toEqual([{ s: 0, t: 0, kind: 'sure', score: 0.9 }]);
});
