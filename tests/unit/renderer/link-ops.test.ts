// The editor's pure link operations on an annotator's gold layer: links unique per cell,
// toggling a set, phrase links, sure/possible flips, and "not translated" marks that a link
// clears and that clear a token's links.
import { describe, expect, test } from 'vitest';
import {
  addLinks,
  linksAt,
  removeLinks,
  toggleKind,
  toggleLinks,
  toggleTag,
  toggleUntranslated,
  type GoldLayer,
} from '../../../src/renderer/lib/editor/link-ops.ts';

const empty: GoldLayer = { links: [], untranslated: [] };
const keys = (l: GoldLayer) => l.links.map((x) => `${x.s}-${x.t}${x.kind === 'possible' ? 'p' : ''}`).sort();

describe('link operations', () => {
  test('toggleLinks links every source to every target, and unlinks when all exist', () => {
    const one = toggleLinks(empty, [0, 1], [2]);
    expect(keys(one)).toEqual(['0-2', '1-2']);
    expect(one.links.every((l) => l.score === null && l.kind === 'sure')).toBe(true);
    expect(keys(toggleLinks(one, [0, 1], [2]))).toEqual([]);
    // Partly linked: the missing cells are added, nothing removed.
    expect(keys(toggleLinks(toggleLinks(empty, [0], [2]), [0, 1], [2]))).toEqual(['0-2', '1-2']);
    expect(toggleLinks(one, [], [1])).toBe(one);
    expect(keys(toggleLinks(empty, [3], [4], 'possible'))).toEqual(['3-4p']);
  });

  test('linking a token clears its "not translated" mark; marking one removes its links', () => {
    const marked = toggleUntranslated(toggleLinks(empty, [0], [0]), 'src', 0);
    expect(marked.links).toEqual([]);
    expect(marked.untranslated).toEqual([{ side: 'src', index: 0 }]);
    const relinked = toggleLinks(marked, [0], [1]);
    expect(relinked.untranslated).toEqual([]);
    expect(toggleUntranslated(marked, 'src', 0).untranslated).toEqual([]);
    const tgt = toggleUntranslated(toggleLinks(empty, [0, 1], [1]), 'tgt', 1);
    expect(tgt.links).toEqual([]);
  });

  test('addLinks keeps existing links as they are and never duplicates a cell', () => {
    const base = toggleLinks(empty, [0], [0], 'possible');
    const added = addLinks(base, [
      { s: 0, t: 0 },
      { s: 1, t: 1, kind: 'possible' },
      { s: 1, t: 1 },
    ]);
    expect(keys(added)).toEqual(['0-0p', '1-1p']);
  });

  test('linksAt, toggleKind and removeLinks act on a token or a cell', () => {
    const layer = toggleLinks(toggleLinks(empty, [0], [0, 1]), [1], [1]);
    expect(keys({ ...layer, links: linksAt(layer.links, 'tgt', 1) })).toEqual(['0-1', '1-1']);
    expect(linksAt(layer.links, 'cell', 0, 1)).toHaveLength(1);
    const flipped = toggleKind(layer, linksAt(layer.links, 'src', 0));
    expect(keys(flipped)).toEqual(['0-0p', '0-1p', '1-1']);
    expect(keys(toggleKind(flipped, linksAt(flipped.links, 'src', 0)))).toEqual(['0-0', '0-1', '1-1']);
    // Mixed kinds flip to possible first.
    expect(keys(toggleKind(flipped, flipped.links))).toEqual(['0-0p', '0-1p', '1-1p']);
    expect(keys(removeLinks(layer, linksAt(layer.links, 'src', 0)))).toEqual(['1-1']);
    expect(toggleKind(layer, [])).toBe(layer);
  });

  test('toggleTag tags the given links, untags when all carry the tag, and 0 (null) clears', () => {
    const layer = toggleLinks(empty, [0, 1], [0]);
    const tagged = toggleTag(layer, layer.links, 'function');
    expect(tagged.links.map((l) => l.tag)).toEqual(['function', 'function']);
    const mixed = toggleTag(tagged, [tagged.links[0]], 'semantic');
    expect(mixed.links.map((l) => l.tag)).toEqual(['semantic', 'function']);
    expect(toggleTag(mixed, mixed.links, 'function').links.map((l) => l.tag)).toEqual(['function', 'function']);
    expect(toggleTag(tagged, tagged.links, 'function').links).toEqual(layer.links);
    expect(toggleTag(mixed, mixed.links, null).links).toEqual(layer.links);
    expect(toggleTag(layer, [], 'function')).toBe(layer);
  });
});
