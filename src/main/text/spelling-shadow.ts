// The spelling shadow of a normalised text: the form segmentation reads, so that a word
// written in either of two spellings a reader takes as the same word is cut the same way and
// meets its word-list entry. The linguist's text is never rewritten: segment.ts cuts the
// shadow and maps every boundary back through `origin`.
// Folds (each to the form of Lao spelling standards, which ICU's Lao dictionary also holds):
//  - Lao HO SUNG + NO / MO written as two letters (ຫນ, ຫມ) → the ligatures ໜ U+0EDC, ໝ U+0EDD
//    (ຫນ້າ → ໜ້າ, ເຫມືອນ → ເໝືອນ): ICU knows only the ligature forms, and cuts ຫ|ນ້າ;
//  - Lao HO SUNG + LO (ຫລ) → HO SUNG + subscript LO (ຫຼ), so ຫລາຍ and ຫຼາຍ are one word-list key.
// HO SUNG never ends a Lao syllable, so a ຫ directly before ນ, ມ or ລ is always the cluster.
// Thai and Lao AM written as NIKHAHIT/NIGGAHITA + AA (ทํา, ທໍາ) needs no fold here: the two
// forms render alike and normalizeText already composes them into SARA AM (ทำ, ທຳ).

const HO_SUNG = 0x0eab;
const FOLDS: Record<number, string> = { 0x0e99: '\u0edc', 0x0ea1: '\u0edd', 0x0ea5: '\u0eab\u0ebc' };

export interface SpellingShadow {
  /** the text segmentation reads */
  text: string;
  /** origin[i]: the original offset of shadow unit i; origin[text.length] is the original's length */
  origin: Uint32Array;
}

/** The fold of HO SUNG followed by code unit `next`, or undefined. */
function foldAt(text: string, i: number): string | undefined {
  return text.charCodeAt(i) === HO_SUNG ? FOLDS[text.charCodeAt(i + 1)] : undefined;
}

/** The shadow of `text`, or null when it is the text itself (no fold applies). */
export function spellingShadow(text: string): SpellingShadow | null {
  let at = text.indexOf('\u0eab');
  while (at !== -1 && foldAt(text, at) === undefined) at = text.indexOf('\u0eab', at + 1);
  if (at === -1) return null;
  let shadow = text.slice(0, at);
  const origin: number[] = Array.from({ length: at }, (_, k) => k);
  for (let o = at; o < text.length;) {
    const fold = foldAt(text, o);
    if (fold === undefined) {
      shadow += text[o];
      origin.push(o++);
      continue;
    }
    // ໜ stands for both letters; ຫຼ keeps one unit per letter.
    shadow += fold;
    origin.push(o);
    if (fold.length === 2) origin.push(o + 1);
    o += 2;
  }
  origin.push(text.length);
  return { text: shadow, origin: Uint32Array.from(origin) };
}

/** The same fold applied to a word (word-list keys). */
export function foldSpelling(word: string): string {
  return spellingShadow(word)?.text ?? word;
}
