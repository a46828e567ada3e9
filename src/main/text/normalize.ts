// Text normalisation applied to every sentence before segmentation and storage. Token
// offsets always refer to the normalised text. The rules, in the order they run:
//
//  1. Line breaks: CRLF, CR, U+2028 and U+2029 become LF.
//  2. Removed outright (invisible, never meaningful in a sentence): BOM / ZWNBSP U+FEFF,
//     soft hyphen U+00AD, word joiner U+2060, invisible operators U+2061–U+2064,
//     Mongolian vowel separator U+180E, interlinear annotation U+FFF9–U+FFFB, bidi marks
//     and embeddings (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), C0 controls
//     other than TAB and LF, DEL and C1 controls.
//  3. Spaces: NBSP U+00A0, narrow NBSP U+202F, U+2000–U+200A and U+205F become U+0020.
//  4. ZWJ U+200D / ZWNJ U+200C are dropped where meaningless: when the base character on
//     either side (combining marks skipped) is Latin, Thai, Lao, Han, kana, a digit,
//     whitespace, punctuation or the text's edge. They are kept between
//     characters of scripts that use them (Indic, Arabic, Khmer, Myanmar, emoji).
//  5. ZERO WIDTH SPACE U+200B is kept (Thai and Lao writers mark word breaks with it;
//     segmentation treats it as a boundary), but a run of them collapses to one.
//  6. Unicode NFC.
//  7. Thai and Lao AM: NIKHAHIT U+0E4D + SARA AA U+0E32 becomes SARA AM U+0E33 (also with
//     a tone mark between them or before NIKHAHIT); Lao NIGGAHITA U+0ECD + AA U+0EB2 becomes
//     AM U+0EB3 likewise. A tone mark typed after AM moves before it.
//  8. Thai and Lao combining marks on one consonant are put in canonical typing order
//     (Lao subscript LO, then vowel signs, then tone marks and other top marks) and an
//     immediately repeated identical mark is dropped.
//  9. Doubled leading vowel: Thai SARA E twice (เเ) becomes SARA AE (แ), Lao E twice (ເເ)
//     becomes EI (ແ).
//  10. NFC again; rules 7–10 repeat until nothing changes, so the function is idempotent.
// Repetition marks (Thai ๆ U+0E46, Lao ໆ U+0EC6) are letters and stay untouched.
// Speed: most sentences need none of this, so one pass over the char codes (`scan`) first
// says which stages could change anything; a clean Lao or Thai sentence costs that pass
// alone (the pre-tokenized import normalises 10^6 sentence pairs).

const NEWLINES = /\r\n?|[\u2028\u2029]/g;
const INVISIBLE =
  /[\uFEFF\u00AD\u2060-\u2064\u180E\uFFF9-\uFFFB\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const SPACES = /[\u00A0\u202F\u2000-\u200A\u205F]/g;
const JOINERS = /[\u200C\u200D]/g;
const ZWSP_RUN = /\u200B{2,}/g;
const COMBINING = /\p{M}/u;
/** Neighbours (the base characters either side) next to which ZWJ/ZWNJ carry no meaning. */
const JOINER_INERT =
  /[\p{Script=Latin}\p{Script=Thai}\p{Script=Lao}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{N}\p{P}\s\u200B-\u200D]/u;

const THAI_AM = /\u0E4D([\u0E48-\u0E4B]?)\u0E32/g;
const THAI_TONE_AM = /([\u0E48-\u0E4B])\u0E4D\u0E32/g;
const THAI_AM_TONE = /\u0E33([\u0E48-\u0E4B])/g;
const LAO_AM = /\u0ECD([\u0EC8-\u0ECB]?)\u0EB2/g;
const LAO_TONE_AM = /([\u0EC8-\u0ECB])\u0ECD\u0EB2/g;
const LAO_AM_TONE = /\u0EB3([\u0EC8-\u0ECB])/g;
const THAI_MARKS = /[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]{2,}/g;
const LAO_MARKS = /[\u0EB1\u0EB4-\u0EBC\u0EC8-\u0ECD]{2,}/g;

/** Typing-order rank of a Thai or Lao combining mark (lower comes first). */
function markRank(c: number): number {
  if (c === 0x0ebc) return 0; // Lao semivowel sign LO (subscript)
  if (c >= 0x0e48 && c <= 0x0e4c) return 2; // Thai tone marks, THANTHAKHAT
  if (c === 0x0e4e) return 2; // Thai YAMAKKAN
  if (c >= 0x0ec8 && c <= 0x0ecc) return 2; // Lao tone marks, cancellation mark
  return 1; // vowel signs, MAITAIKHU, NIKHAHIT / NIGGAHITA, PHINTHU
}

/** Sorts a run of combining marks into typing order and drops repeated identical marks. */
function orderMarks(run: string): string {
  const marks = [...run].sort((a, b) => markRank(a.charCodeAt(0)) - markRank(b.charCodeAt(0)));
  return marks.filter((m, i) => m !== marks[i - 1]).join('');
}

/** The character `step` (±1) away from `at`, skipping combining marks; undefined at an edge. */
function baseNeighbour(s: string, at: number, step: number): string | undefined {
  let i = at + step;
  while (i >= 0 && i < s.length && COMBINING.test(s[i])) i += step;
  return s[i];
}

function dropInertJoiners(s: string): string {
  if (!s.includes('\u200C') && !s.includes('\u200D')) return s;
  const inert = (ch: string | undefined) => ch === undefined || JOINER_INERT.test(ch);
  return s.replace(JOINERS, (j, at: number) => (inert(baseNeighbour(s, at, -1)) || inert(baseNeighbour(s, at, 1)) ? '' : j));
}

function fixThaiLao(s: string): string {
  return s
    .replace(THAI_TONE_AM, '$1\u0E33')
    .replace(THAI_AM, '$1\u0E33')
    .replace(THAI_AM_TONE, '$1\u0E33')
    .replace(LAO_TONE_AM, '$1\u0EB3')
    .replace(LAO_AM, '$1\u0EB3')
    .replace(LAO_AM_TONE, '$1\u0EB3')
    .replace(THAI_MARKS, orderMarks)
    .replace(LAO_MARKS, orderMarks)
    .replace(/\u0E40\u0E40/g, '\u0E41')
    .replace(/\u0EC0\u0EC0/g, '\u0EC1');
}

function cleanup(s: string): string {
  const cleaned = s.replace(NEWLINES, '\n').replace(INVISIBLE, '').replace(SPACES, ' ');
  return dropInertJoiners(cleaned).replace(ZWSP_RUN, '\u200B');
}

// Stage bits of `scan`, and the extra bits of the per-code-unit KIND table.
const CLEANUP = 1;
const NFC = 2;
const THAI_LAO = 4;
const CHECK_THAI_LAO = 8;
const ZWSP = 16;

function isThaiLaoMark(c: number): boolean {
  return (
    c === 0x0e31 ||
    (c >= 0x0e34 && c <= 0x0e3a) ||
    (c >= 0x0e47 && c <= 0x0e4e) ||
    c === 0x0eb1 ||
    (c >= 0x0eb4 && c <= 0x0ebc) ||
    (c >= 0x0ec8 && c <= 0x0ecd)
  );
}

/** markRank of each code unit U+0E00–U+0EFF that is a combining mark, else -1. */
const MARK_RANK = Int8Array.from({ length: 256 }, (_, k) => (isThaiLaoMark(0x0e00 + k) ? markRank(0x0e00 + k) : -1));

/** Whether Thai/Lao code unit `c` after `p` (and `pp`) is something rules 7–9 change. */
function thaiLaoTrigger(c: number, p: number, pp: number): boolean {
  const rank = MARK_RANK[c - 0x0e00];
  if (rank < 0) {
    if (c === 0x0e32 || c === 0x0eb2) return p === 0x0e4d || p === 0x0ecd || pp === 0x0e4d || pp === 0x0ecd;
    return (c === 0x0e40 || c === 0x0ec0) && p === c;
  }
  if (p === 0x0e33 || p === 0x0eb3) return rank === 2;
  const before = p >= 0x0e00 && p <= 0x0eff ? MARK_RANK[p - 0x0e00] : -1;
  return before >= 0 && (c === p || rank < before);
}

function isInvisibleOrSpace(c: number): boolean {
  return (
    (c < 0x20 && c !== 0x09 && c !== 0x0a) ||
    (c >= 0x7f && c <= 0xa0) ||
    c === 0xad ||
    c === 0x061c ||
    c === 0x180e ||
    (c >= 0x2000 && c <= 0x200f && c !== 0x200b) ||
    (c >= 0x2028 && c <= 0x202f) ||
    (c >= 0x205f && c <= 0x2069) ||
    c === 0xfeff ||
    (c >= 0xfff9 && c <= 0xfffb)
  );
}

function kindOf(c: number): number {
  if (c === 0x200b) return ZWSP;
  if (isInvisibleOrSpace(c)) return CLEANUP;
  if (c < 0x0e00 || c > 0x0eff) return c >= 0x0300 ? NFC : 0;
  const check = MARK_RANK[c - 0x0e00] >= 0 || c === 0x0e32 || c === 0x0eb2 || c === 0x0e40 || c === 0x0ec0;
  const reordered = c === 0x0e3a || c === 0x0eba; // PHINTHU, Lao VIRAMA: NFC moves them
  return (check ? CHECK_THAI_LAO : 0) | (reordered ? NFC : 0);
}

/** Per UTF-16 code unit: what `scan` must do with it (0 for almost all text). */
const KIND = Uint8Array.from({ length: 0x10000 }, (_, c) => kindOf(c));

/** Which stages (CLEANUP, NFC, THAI_LAO bits) could change `s`. */
function scan(s: string): number {
  let flags = 0;
  let p = 0;
  let pp = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const kind = KIND[c];
    if (kind !== 0) {
      flags |= kind & (CLEANUP | NFC);
      if (kind & CHECK_THAI_LAO && thaiLaoTrigger(c, p, pp)) flags |= THAI_LAO;
      if (kind & ZWSP && p === 0x200b) flags |= CLEANUP;
    }
    pp = p;
    p = c;
  }
  return flags;
}

/** Rules 7–9 until nothing changes (one pass can expose another case, e.g. ำ่่). */
function fixThaiLaoFully(s: string): string {
  let out = s;
  for (let pass = 0; pass < 8; pass++) {
    const next = fixThaiLao(out).normalize('NFC');
    if (next === out || !(scan(next) & THAI_LAO)) return next;
    out = next;
  }
  return out;
}

/** Cleans one sentence (see the rules above); idempotent. */
export function normalizeText(raw: string): string {
  let s = raw;
  let flags = scan(s);
  if (flags & CLEANUP) {
    s = cleanup(s);
    flags = scan(s) | NFC;
  }
  if (flags & NFC) {
    const composed = s.normalize('NFC');
    if (composed !== s) flags = scan(composed); // reordering can bring Thai/Lao marks together
    s = composed;
  }
  return flags & THAI_LAO ? fixThaiLaoFully(s) : s;
}
