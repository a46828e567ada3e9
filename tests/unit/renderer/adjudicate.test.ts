// The adjudication view's merges: rows of two annotators' links with what each did, and
// the layers an adjudicator starts from (one side, the agreed links, the combined merge).
import { describe, expect, test } from 'vitest';
import { adjudicationRows, mergeLayers } from '../../../src/renderer/lib/editor/adjudicate.ts';
import type { GoldLayer } from '../../../src/renderer/lib/editor/link-ops.ts';
import type { Link } from '../../../src/shared/domain.ts';

const sure = (s: number, t: number, tag?: string): Link =>
  tag ? { s, t, kind: 'sure', score: null, tag } : { s, t, kind: 'sure', score: null };
const possible = (s: number, t: number): Link => ({ s, t, kind: 'possible', score: null });
const keys = (l: GoldLayer) => l.links.map((x) => `${x.s}-${x.t}${x.kind === 'possible' ? 'p' : ''}${x.tag ? `:${x.tag}` : ''}`);

const anna: GoldLayer = {
  links: [sure(0, 0, 'semantic'), sure(1, 1), possible(2, 2), sure(3, 4)],
  untranslated: [
    { side: 'src', index: 5 },
    { side: 'tgt', index: 6 },
  ],
};
const bob: GoldLayer = {
  links: [sure(0, 0, 'semantic'), possible(1, 1), sure(2, 2), sure(3, 3, 'function')],
  untranslated: [{ side: 'src', index: 5 }],
};

describe('adjudication', () => {
  test('rows hold every cell either linked, with each side and whether they agree', () => {
    const rows = adjudicationRows(anna.links, bob.links);
    expect(rows.map((r) => `${r.s}-${r.t}:${r.left ? 'L' : ''}${r.right ? 'R' : ''}${r.agreed ? '=' : ''}`)).toEqual([
      '0-0:LR=',
      '1-1:LR',
      '2-2:LR',
      '3-3:R',
      '3-4:L',
    ]);
  });

  test('merges: one side, the agreed links, or agreed-sure and the rest possible', () => {
    expect(keys(mergeLayers(anna, bob, 'left'))).toEqual(keys(anna));
    expect(mergeLayers(anna, bob, 'right').untranslated).toEqual(bob.untranslated);
    expect(keys(mergeLayers(anna, bob, 'agreed'))).toEqual(['0-0:semantic', '1-1p', '2-2p']);
    const combined = mergeLayers(anna, bob, 'combined');
    expect(keys(combined)).toEqual(['0-0:semantic', '1-1p', '2-2p', '3-3p:function', '3-4p']);
    expect(combined.untranslated).toEqual([{ side: 'src', index: 5 }]);
    expect(combined.links.every((l) => l.score === null)).toBe(true);
  });
});
