// The form text is searched in: what a linguist types should find a pair however either
// side wrote it. Folding is compatibility-decomposed (NFKD, so NFD and NFC input and
// full-width forms meet), lowercased, stripped of Latin-script diacritics ("viet" finds
// "Việt"; đ → d) and of all whitespace, so a query that spaces a word differently from the
// corpus's segmentation still finds it ("เชียง ขวาง" finds "เชียงขวาง"). Only the combining
// marks of the Latin diacritic blocks go: Lao and Thai vowel and tone marks are letters of
// their words and stay.
const LATIN_DIACRITICS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const SPACE = /\s+/g;

export function searchFold(text: string): string {
  return text.normalize('NFKD').toLowerCase().replace(LATIN_DIACRITICS, '').replace(/đ/g, 'd').replace(SPACE, '');
}
