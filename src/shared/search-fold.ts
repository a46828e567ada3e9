// The form text is searched in: what a linguist types should find a pair however either
// side wrote it. Folding is compatibility-decomposed (NFKD, so NFD and NFC input and
// full-width forms meet), lowercased, stripped of Latin-script diacritics ("viet" finds
// "Việt"; đ → d) and of all whitespace, so a query that spaces a word differently from the
// corpus's segmentation still finds it ("เชียง ขวาง" finds "เชียงขวาง"). Only the combining
// marks of the Latin diacritic blocks go: Lao and Thai vowel and tone marks are letters of
// their words and stay. The store searches folded text (Node); the pair list marks where a
// query was found in the original text (renderer), through the same folding.
const LATIN_DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const SPACE = /\s+/g;
/** A letter with the marks that follow it: the unit that NFKD may reorder within, never across. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

export function searchFold(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(LATIN_DIACRITICS, '').replace(/đ/g, 'd').replace(SPACE, '');
}

/**
 * Where a query occurs in a text as the search finds it (folded on both sides): ranges of
 * UTF-16 offsets into the original text, in order, not overlapping. A hit covers whole
 * letters with their marks.
 */
export function searchHits(text: string, query: string): [number, number][] {
  const needle = searchFold(query);
  if (!needle) return [];
  let folded = '';
  // For each folded code unit, the original letter it came from.
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of text.matchAll(CLUSTER)) {
    const f = searchFold(m[0]);
    folded += f;
    for (let i = 0; i < f.length; i++) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
    }
  }
  const hits: [number, number][] = [];
  for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) {
    hits.push([starts[at], ends[at + needle.length - 1]]);
  }
  return hits;
}
