// Where the line view wraps a long pair: every token in one band, in order, each band's
// rows within the width; cuts that keep links inside their band; both sides advancing
// together when there are no links; a token wider than the view still gets a band.
import { describe, expect, test } from 'vitest';
import { wrapBands, type Band } from '../../../src/renderer/lib/editor/wrap-bands.ts';

const widths = (n: number, w = 50) => Array.from({ length: n }, () => w);
const crossing = (bands: Band[], links: { s: number; t: number }[]) => {
  const bandOf = (i: number, side: 'src' | 'tgt') => bands.findIndex((b) => b[side][0] <= i && i < b[side][1]);
  return links.filter((l) => bandOf(l.s, 'src') !== bandOf(l.t, 'tgt')).length;
};

function checkCover(bands: Band[], n: number, m: number, src: number[], tgt: number[], width: number): void {
  let a = 0;
  let c = 0;
  for (const b of bands) {
    expect(b.src[0]).toBe(a);
    expect(b.tgt[0]).toBe(c);
    expect(b.src[1] > b.src[0] || b.tgt[1] > b.tgt[0]).toBe(true);
    const sw = src.slice(b.src[0], b.src[1]).reduce((x, y) => x + y, 0);
    const tw = tgt.slice(b.tgt[0], b.tgt[1]).reduce((x, y) => x + y, 0);
    if (b.src[1] - b.src[0] > 1) expect(sw).toBeLessThanOrEqual(width);
    if (b.tgt[1] - b.tgt[0] > 1) expect(tw).toBeLessThanOrEqual(width);
    a = b.src[1];
    c = b.tgt[1];
  }
  expect([a, c]).toEqual([n, m]);
}

describe('wrapBands', () => {
  test('a pair that fits is one band', () => {
    expect(wrapBands(widths(5), widths(7), [], 1000)).toEqual([{ src: [0, 5], tgt: [0, 7] }]);
  });

  test('a long monotone pair wraps with no link cut apart, every row within the width', () => {
    const src = widths(240, 40);
    const tgt = widths(219, 44);
    const links = Array.from({ length: 219 }, (_, t) => ({ s: Math.floor((t * 240) / 219), t }));
    const bands = wrapBands(src, tgt, links, 1000);
    checkCover(bands, 240, 219, src, tgt, 1000);
    expect(bands.length).toBeGreaterThanOrEqual(10);
    expect(crossing(bands, links)).toBe(0);
  });

  test('a cut moves to keep a link in its band, at the cost of a shorter row', () => {
    // 10 tokens a side fit per row; source token 9 links to target token 10: cutting
    // both sides at 10 would put them in different bands.
    const links = [
      ...Array.from({ length: 9 }, (_, i) => ({ s: i, t: i })),
      { s: 9, t: 10 },
      ...Array.from({ length: 8 }, (_, i) => ({ s: 10 + i, t: 11 + i })),
    ];
    const bands = wrapBands(widths(18), widths(19), links, 500);
    checkCover(bands, 18, 19, widths(18), widths(19), 500);
    expect(crossing(bands, links)).toBe(0);
  });

  test('without links both sides advance at the same pace', () => {
    // The target's tokens are narrower: independent wrapping would end the target rows early.
    const bands = wrapBands(widths(60, 50), widths(30, 30), [], 500);
    checkCover(bands, 60, 30, widths(60, 50), widths(30, 30), 500);
    for (const b of bands) expect(Math.abs(b.src[1] / 60 - b.tgt[1] / 30)).toBeLessThan(0.1);
  });

  test('tokens of one side only, and a token wider than the view', () => {
    expect(wrapBands(widths(3), [], [], 100)).toEqual([
      { src: [0, 2], tgt: [0, 0] },
      { src: [2, 3], tgt: [0, 0] },
    ]);
    const bands = wrapBands([300, 20], [20, 20], [], 100);
    checkCover(bands, 2, 2, [300, 20], [20, 20], 100);
    expect(bands[0].src).toEqual([0, 1]);
  });
});
