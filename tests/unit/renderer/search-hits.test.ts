// Where the pair list marks a search's hits: the occurrences the store's folded search finds
// (any case, accents, spacing), mapped back to the original text and cut at token edges.
import { expect, test } from 'vitest';
import { searchHits } from '../../../src/shared/search-fold.ts';
import { tokenPieces } from '../../../src/renderer/lib/search-hits.ts';
import type { Token } from '../../../src/shared/domain.ts';

function tokens(text: string, cuts: string[]): Token[] {
  let at = 0;
  return cuts.map((t) => {
    const start = text.indexOf(t, at);
    at = start + t.length;
    return { text: t, start, end: at };
  });
}
const marked = (text: string, toks: Token[], query: string) =>
  toks.map((t) =>
    tokenPieces(text, t, searchHits(text, query))
      .map((p) => (p.hit ? `<${p.text}>` : p.text))
      .join(''),
  );

test('hits are found folded and marked in the original letters', () => {
  expect(searchHits('Đà Nẵng, Việt Nam', 'viet')).toEqual([[9, 13]]);
  expect(searchHits('Việt'.normalize('NFD'), 'VIỆT')).toEqual([[0, 6]]);
  expect(searchHits('ab AB ab', 'ab')).toEqual([
    [0, 2],
    [3, 5],
    [6, 8],
  ]);
  expect(searchHits('anything', ' ')).toEqual([]);
});

test('a hit spanning tokens and spaces is cut at each token, a Lao vowel stays with its letter', () => {
  const text = 'ສະຖານທູດໄທ ປະຈຳ ສປປ';
  const toks = tokens(text, ['ສະຖານທູດ', 'ໄທ', 'ປະຈຳ', 'ສປປ']);
  expect(marked(text, toks, 'ໄທປະ')).toEqual(['ສະຖານທູດ', '<ໄທ>', '<ປະ>ຈຳ', 'ສປປ']);
  // The hit ends where the query does: ຳ is a letter of its own, left unmarked.
  expect(marked(text, toks, 'ປະຈ')).toEqual(['ສະຖານທູດ', 'ໄທ', '<ປະຈ>ຳ', 'ສປປ']);
  const thai = 'เชียงขวาง';
  expect(marked(thai, tokens(thai, ['เชียง', 'ขวาง']), 'เชียง ขวาง')).toEqual(['<เชียง>', '<ขวาง>']);
});

test('markup typed as a query is text like any other', () => {
  const text = 'a <b>bold</b> claim';
  expect(marked(text, tokens(text, ['a', '<b>bold</b>', 'claim']), '<b>')).toEqual(['a', '<<b>>bold</b>', 'claim']);
});
