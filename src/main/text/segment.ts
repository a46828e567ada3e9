// Word segmentation of normalised text (normalizeText first). Tokens carry UTF-16 offsets
// into that text and text.slice(start, end) === token.text always; tokens never hold
// whitespace or U+200B ZERO WIDTH SPACE.
//  - zh: the runs of Han characters by jieba (chinese-words.ts), everything between them
//    (digits, Latin, punctuation) as in a space-delimited language (below);
//  - th, lo, km, my, zh, ja: ICU word break (Intl.Segmenter, one per locale); word-like
//    segments and punctuation become tokens, whitespace is dropped. Afterwards a number
//    ICU cut at separators (26|/|02|/|2020) is joined again, as is a run of one repeated
//    punctuation character (...), and a Thai or Lao abbreviation gets back its full stop.
//  - other known languages: space-tokenizer.ts (whitespace and punctuation rules); a word
//    there that holds Thai, Lao, Khmer, Myanmar or CJK characters goes through ICU.
//  - unknown language codes: the script-based guess of lang.ts picks one of the above.
//  - options.words: a WordList merging and splitting pieces (word-merge.ts).
// All of this reads the text's spelling shadow (spelling-shadow.ts: Lao ຫນ read as ໜ, ...),
// and the spans found there are mapped back to the text, which stays as it was written.
// Long texts: Intl.Segmenter's time grows faster than linearly with the length of the string
// it is given (an 87k-unit Lao line took 5 s, 20k units 0.03 s), and real files hold whole
// documents on one line. So ICU sees pieces of at most MAX_PIECE code units, each with up to
// CONTEXT units of the text before and after it (icuInto):
//  - a piece ends before a whitespace or U+200B run in its second half: ICU always breaks
//    there and no rule looks across it, so the tokens are exactly those of the whole text;
//  - without such a gap (Lao, Thai, Chinese written without spaces) it ends at the last ICU
//    boundary before MAX_PIECE: the dictionary engines decide a boundary from the few words
//    around it, which the context supplies, so it is the boundary the whole text has (the
//    embassy sentences without spaces, cut every 100 units, all match one pass);
//  - a single segment longer than MAX_PIECE (a 2,000-letter "word") is cut where a
//    character starts.
// The number and word-list joins then run over all pieces' spans at once.
// The `...Into` and `...Offsets` forms produce flat spans for the pool and the store.
import type { Token } from '../../shared/domain.ts';
import { detectLang, resolveLang, usesIcu } from './lang.ts';
import { chineseWordsInto } from './chinese-words.ts';
import { decodeTokens } from './offsets.ts';
import { spaceTokenize } from './space-tokenizer.ts';
import { spellingShadow } from './spelling-shadow.ts';
import { applyWordList } from './word-merge.ts';
import type { WordList } from './word-list.ts';

export interface SegmentOptions {
  /** Known words (dictionary headwords, a project lexicon) that correct ICU's pieces. */
  words?: WordList;
  /** Longest text (UTF-16 units) one Intl.Segmenter call sees; default MAX_PIECE. */
  maxPiece?: number;
}

const MAX_PIECE = 2000;
const CONTEXT = 256;

const segmenters = new Map<string, Intl.Segmenter>();
const ICU_SCRIPT = /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF]/;
const DATE_SEPARATORS = new Set(['/', '.', '-', ':', ',']);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const MARK = /\p{M}/u;

function segmenterFor(locale: string): Intl.Segmenter {
  let s = segmenters.get(locale);
  if (!s) {
    s = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, s);
  }
  return s;
}

/** Whitespace (Unicode White_Space) or U+200B: never inside a token. */
function isGap(c: number): boolean {
  if (c > 0x20 && c < 0x1680) return c === 0x85 || c === 0xa0;
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * ICU segments of text[ctx, to) without whitespace, appended to `out` as absolute spans
 * from `from` on (a segment running across `from` is clipped there; text[ctx, from) is only
 * context). A whitespace segment can carry a stray combining mark (ICU attaches it to the
 * space): the mark is kept as a token of its own.
 */
function icuPieceInto(text: string, locale: string, out: number[], ctx: number, from: number, to: number): void {
  const part = ctx === 0 && to === text.length ? text : text.slice(ctx, to);
  for (const { segment, index } of segmenterFor(locale).segment(part)) {
    const end = ctx + index + segment.length;
    if (end <= from) continue;
    let start = Math.max(from, ctx + index);
    while (start < end && isGap(text.charCodeAt(start))) start++;
    if (start < end) out.push(start, end);
  }
}

/** The start of the last gap run in text(lo, hi] (a cut ICU always breaks at), or -1. */
function gapCut(text: string, lo: number, hi: number): number {
  for (let p = hi; p > lo; p--) {
    if (isGap(text.charCodeAt(p)) && !isGap(text.charCodeAt(p - 1)) && text.charCodeAt(p) !== 0xfeff) return p;
  }
  return -1;
}

/** `at` or the nearest position before it (after `lo`) where a new character starts. */
function charStart(text: string, lo: number, at: number): number {
  for (let p = at; p > lo + 1; p--) {
    const before = text.charCodeAt(p - 1);
    if (!(before >= 0xd800 && before <= 0xdbff) && !MARK.test(text[p])) return p;
  }
  return at;
}

/** ICU spans of text[from, to) in pieces of at most `maxPiece` units (see the header). */
function icuInto(text: string, locale: string, out: number[], from: number, to: number, maxPiece: number): void {
  let start = from;
  while (to - start > maxPiece) {
    const ctx = Math.max(from, start - CONTEXT);
    const limit = start + maxPiece;
    const gap = gapCut(text, start + (maxPiece >> 1), limit);
    if (gap !== -1) {
      icuPieceInto(text, locale, out, ctx, start, gap);
      start = gap;
      continue;
    }
    const before = out.length;
    icuPieceInto(text, locale, out, ctx, start, Math.min(to, limit + CONTEXT));
    let keep = out.length;
    while (keep > before && out[keep - 1] > limit) keep -= 2;
    if (keep > before) {
      out.length = keep;
      start = out[keep - 1];
    } else {
      out.length = before;
      const cut = charStart(text, start, limit);
      icuPieceInto(text, locale, out, ctx, start, cut);
      start = cut;
    }
  }
  icuPieceInto(text, locale, out, Math.max(from, start - CONTEXT), start, to);
}

function isDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x0e50 && code <= 0x0e59) || (code >= 0x0ed0 && code <= 0x0ed9);
}

/** True when separator piece [sep, sep+1) continues a number into the piece at `next`. */
function joinsNumber(text: string, sep: number, sepEnd: number, next: number): boolean {
  return (
    sepEnd === sep + 1 &&
    next === sepEnd &&
    DATE_SEPARATORS.has(text[sep]) &&
    isDigit(text.charCodeAt(sep - 1)) &&
    isDigit(text.charCodeAt(next))
  );
}

/** Joins number pieces split at separators and runs of one repeated punctuation mark. */
function joinIcuPieces(text: string, spans: number[]): number[] {
  const out: number[] = [];
  const n = spans.length / 2;
  for (let i = 0; i < n;) {
    const start = spans[2 * i];
    let end = spans[2 * i + 1];
    const punctRun = end === start + 1 && !LETTER_OR_DIGIT.test(text[start]);
    let j = i + 1;
    while (j < n && spans[2 * j] === end) {
      const pieceEnd = spans[2 * j + 1];
      if (j + 1 < n && joinsNumber(text, end, pieceEnd, spans[2 * j + 2])) {
        end = spans[2 * j + 3];
        j += 2;
      } else if (punctRun && pieceEnd === end + 1 && text[end] === text[start]) {
        end = pieceEnd;
        j++;
      } else break;
    }
    out.push(start, end);
    i = j;
  }
  return out;
}

/** Thai or Lao consonant letters only (ອ and ອ-like carriers included), as abbreviations are written. */
const THAI_LAO_CONSONANTS = /^[\u0E01-\u0E2E\u0E81-\u0EAE\u0EDC-\u0EDF]{1,4}$/;
/** Letters in dotted parts of one or two units (ก.พ, มี.ค, ສ.ປ.ປ, รศ.ดร). */
const THAI_LAO_DOTTED = /^[\u0E00-\u0EFF]{1,2}(?:\.[\u0E00-\u0EFF]{1,2})+$/;
/** Dotted parts of at most four units each, then a word (สปป.ลาว, พ.ต.ท.กุล): the abbreviation ends at the last stop. */
const ABBREVIATION_THEN_WORD =
  /^[\u0E00-\u0EFF]{1,4}(?:\.[\u0E00-\u0EFF]{1,4})*\.(?![\u0E01-\u0E2E\u0E81-\u0EAE\u0EDC-\u0EDF]{1,4}$)[\u0E00-\u0EFF]+$/;
/** What may follow a sentence's last full stop. */
const TEXT_END = /^[\s\u200B"'”’»)\]]*$/;

/**
 * Thai and Lao abbreviations, which ICU cuts from their final full stop or glues to the
 * next word: a dotted piece gets its stop back (ก.พ|. → ก.พ., ສ.ປ.ປ|. → ສ.ປ.ປ.), as do up to
 * four consonants without a vowel (สปป|. → สปป., ປອ|. → ປອ.) unless that stop ends the
 * text, where it ends a Lao sentence; a word glued on after the last stop goes to a token
 * of its own (สปป.ลาว → สปป.|ลาว; a consonant-only tail as in ม.ค stays: it is the
 * abbreviation's last letter).
 */
function joinAbbreviationDots(text: string, spans: number[]): number[] {
  if (!text.includes('.')) return spans;
  const out: number[] = [];
  for (let i = 0; i < spans.length; i += 2) {
    const [start, end] = [spans[i], spans[i + 1]];
    const dot = i + 2 < spans.length && spans[i + 2] === end && spans[i + 3] === end + 1 && text.charCodeAt(end) === 0x2e;
    let inner = false;
    for (let p = start + 1; p < end - 1 && !inner; p++) inner = text.charCodeAt(p) === 0x2e;
    if (!dot && !inner) {
      out.push(start, end);
      continue;
    }
    const piece = text.slice(start, end);
    if (dot && (THAI_LAO_DOTTED.test(piece) || (THAI_LAO_CONSONANTS.test(piece) && !TEXT_END.test(text.slice(end + 1))))) {
      out.push(start, end + 1);
      i += 2;
    } else if (ABBREVIATION_THEN_WORD.test(piece)) {
      const cut = start + piece.lastIndexOf('.') + 1;
      out.push(start, cut, cut, end);
    } else out.push(start, end);
  }
  return out;
}

const HAN_RUN = /\p{Script=Han}+/gu;

/**
 * Spans of text[from, to) in language `lang` (an ICU one). Chinese: the Han runs by jieba,
 * what lies between them (digits, Latin, punctuation) as in a space-delimited language.
 */
function scriptInto(text: string, lang: string, out: number[], from: number, to: number, maxPiece: number): void {
  if (lang !== 'zh') {
    icuInto(text, lang, out, from, to, maxPiece);
    return;
  }
  let at = from;
  HAN_RUN.lastIndex = from;
  for (let m = HAN_RUN.exec(text); m !== null && m.index < to; m = HAN_RUN.exec(text)) {
    const end = Math.min(to, m.index + m[0].length);
    if (m.index > at) spaceInto(text, out, maxPiece, at, m.index);
    chineseWordsInto(text, out, m.index, end);
    at = end;
  }
  if (at < to) spaceInto(text, out, maxPiece, at, to);
}

/** Spans of text[from, to) by the space tokenizer, its words in Thai, Lao, ... scripts by scriptInto. */
function spaceInto(text: string, out: number[], maxPiece: number, from = 0, to = text.length): void {
  const spans: number[] = [];
  spaceTokenize(from === 0 && to === text.length ? text : text.slice(from, to), spans);
  for (let i = 0; i < spans.length; i += 2) {
    const [start, end] = [from + spans[i], from + spans[i + 1]];
    const word = text.slice(start, end);
    if (ICU_SCRIPT.test(word)) scriptInto(text, detectLang(word), out, start, end, maxPiece);
    else out.push(start, end);
  }
}

/** Appends the flat token spans of `text` to `out` (`lang` as segment() takes it). */
export function segmentInto(text: string, lang: string, out: number[], options: SegmentOptions = {}): void {
  const code = resolveLang(lang, text);
  const maxPiece = options.maxPiece ?? MAX_PIECE;
  const shadow = spellingShadow(text);
  const read = shadow?.text ?? text;
  let spans: number[] = [];
  if (usesIcu(code)) {
    scriptInto(read, code, spans, 0, read.length, maxPiece);
    spans = joinAbbreviationDots(read, joinIcuPieces(read, spans));
  } else {
    spaceInto(read, spans, maxPiece);
  }
  if (options.words && options.words.size > 0) {
    spans = applyWordList(read, spans, options.words, code === 'zh' || code === 'ja' ? 1 : 2);
  }
  if (shadow) for (const x of spans) out.push(shadow.origin[x]);
  else for (const x of spans) out.push(x);
}

/** Tokens of normalised `text` in language `lang` (ISO 639-1/3 or BCP 47 code). */
export function segment(text: string, lang: string, options: SegmentOptions = {}): Token[] {
  return decodeTokens(text, segmentOffsets(text, lang, options));
}

/** segment() as a compact offsets array (see offsets.ts). */
export function segmentOffsets(text: string, lang: string, options: SegmentOptions = {}): Uint32Array {
  const out: number[] = [];
  segmentInto(text, lang, out, options);
  return Uint32Array.from(out);
}

/** Appends spans of the tokens separated by runs of whitespace or U+200B to `out`. */
export function pretokenizedInto(text: string, out: number[]): void {
  const n = text.length;
  for (let i = 0; i < n;) {
    while (i < n && isGap(text.charCodeAt(i))) i++;
    const start = i;
    while (i < n && !isGap(text.charCodeAt(i))) i++;
    if (i > start) out.push(start, i);
  }
}

/** pretokenized() as a compact offsets array (already tokenized input). */
export function pretokenizedOffsets(text: string): Uint32Array {
  const out: number[] = [];
  pretokenizedInto(text, out);
  return Uint32Array.from(out);
}

export function pretokenized(text: string): Token[] {
  return decodeTokens(text, pretokenizedOffsets(text));
}
