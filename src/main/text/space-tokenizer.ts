// Tokenizer for space-delimited languages (en, vi, id, ms, fr, de, ...): whitespace
// separates tokens and punctuation splits off words. Written by hand because it is one
// regular expression plus an abbreviation set; libraries for this are English-only or pull
// in whole NLP stacks. What stays whole:
//  - URLs and e-mail addresses;
//  - numbers with separators: 2,500.75, 26/02/2020, 10:30, 2020-02-26 (and a trailing %
//    is its own token); a number with letters after it is one word (18th, 3rd, 5km);
//  - words with inner apostrophes or hyphens: don't, Smith's, e-mail, anak-anak;
//  - initialisms with dots (U.S.A., e.g.) and known abbreviations with their period (Dr.,
//    Mr., etc., Jl., TP.);
//  - a run of one repeated punctuation character (..., --, !!).
// Vietnamese syllables are space-separated, so each syllable is a token.
// Output: flat [start, end, ...] UTF-16 spans appended to `out`.

const TOKEN = new RegExp(
  [
    String.raw`https?://[^\s\u200B]*[^\s\u200B.,;:!?)\]}'"»”’]`,
    String.raw`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+`,
    String.raw`(?:\p{L}\.){2,}`,
    String.raw`\p{Nd}+(?:[.,:/-]\p{Nd}+)*(?![\p{L}\p{M}\p{Nd}])`,
    String.raw`[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*`,
    String.raw`([^\s\u200B\p{L}\p{M}\p{N}])\1*`,
  ].join('|'),
  'gu',
);

/** Lower-case abbreviations that keep their period (titles, common Latin and Malay forms). */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'fig',
  'inc',
  'ltd',
  'corp',
  'dept',
  'approx',
  'mt',
  'gov',
  'mme',
  'mlle',
  'bzw',
  'usw',
  'ca',
  'nr',
  'str',
  'bpk',
  'sdr',
  'jl',
  'kab',
  'prov',
  'dll',
  'dsb',
  'dst',
  'yth',
  'tn',
  'ny',
  'hj',
  'tp',
  'ths',
  'ts',
  'pgs',
  'gs',
]);

export function spaceTokenize(text: string, out: number[]): void {
  const re = TOKEN;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    let end = m.index + m[0].length;
    if (text.charCodeAt(end) === 0x2e && ABBREVIATIONS.has(m[0].toLowerCase())) {
      re.lastIndex = ++end;
    }
    out.push(m.index, end);
  }
}
