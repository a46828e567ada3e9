// Word-list correction of a first segmentation (docs/ARCHITECTURE.md, "Segmentation that learns").
// Input and output are flat UTF-16 spans [start0, end0, start1, end1, ...] over `text`.
//  - Merge: from each piece, walk the trie across the following pieces and keep the longest
//    run whose concatenation is a listed word. Between contiguous pieces the walk goes on
//    directly; across a gap of whitespace only through a listed word's space (word-list.ts),
//    so only words listed with a space merge across one, and the token spans the gap.
//    Lao ເອກ|ອັກ|ຄະ|ຣາ|ຊະ|ທູດ → ເອກອັກຄະຣາຊະທູດ, Thai ประ|จำ → ประจำ, Vietnamese
//    sinh|viên → "sinh viên" when "sinh viên" is listed.
//  - Split: a piece that is not listed but is exactly a concatenation of listed words that
//    split (a linguist's words, not a dictionary's: WordList.add) is cut into the fewest such
//    words (Chinese 我是 → 我|是). Cuts fall only where a new
//    character starts (not before a combining mark, not inside a surrogate pair, not after
//    a Thai/Lao leading vowel), and each part has at least `minPart` code units (1 for
//    Han and kana, 2 elsewhere, so a Lao syllable never loses a one-letter listed word).
import type { WordList } from './word-list.ts';

const MAX_SPLIT_LENGTH = 40;
const MARK = /\p{M}/u;
const GAP = /^[\s\u200B]+$/;
const SPACE = 0x20;

/** Index of the last piece of the longest listed merge starting at piece i (i if none). */
function longestMerge(text: string, spans: number[], i: number, words: WordList): number {
  let node = 0;
  let best = i;
  for (let j = i; 2 * j < spans.length; j++) {
    if (j > i && spans[2 * j] !== spans[2 * j - 1]) {
      // The trie first (most words hold no space), then whether only whitespace lies between.
      node = words.step(node, SPACE);
      if (node < 0 || !GAP.test(text.slice(spans[2 * j - 1], spans[2 * j]))) return best;
    }
    for (let p = spans[2 * j]; p < spans[2 * j + 1]; p++) {
      node = words.step(node, text.charCodeAt(p));
      if (node < 0) return best;
    }
    if (j > i && words.isWord(node)) best = j;
  }
  return best;
}

function canCut(text: string, q: number): boolean {
  const before = text.charCodeAt(q - 1);
  if (before >= 0xd800 && before <= 0xdbff) return false;
  if ((before >= 0x0e40 && before <= 0x0e44) || (before >= 0x0ec0 && before <= 0x0ec4)) return false;
  return !MARK.test(text[q]);
}

/** Fewest-words cut of text[start, end) into listed words that split; null when there is none. */
function cutIntoWords(text: string, start: number, end: number, words: WordList, minPart: number): number[] | null {
  const len = end - start;
  const parts = new Array<number>(len + 1).fill(Infinity);
  const from = new Array<number>(len + 1).fill(-1);
  parts[0] = 0;
  for (let k = 0; k < len; k++) {
    if (parts[k] === Infinity || (k > 0 && !canCut(text, start + k))) continue;
    let node = 0;
    for (let q = k; q < len; q++) {
      node = words.step(node, text.charCodeAt(start + q));
      if (node < 0) break;
      const stop = q + 1;
      if (stop - k < minPart || !words.splits(node) || parts[k] + 1 >= parts[stop]) continue;
      parts[stop] = parts[k] + 1;
      from[stop] = k;
    }
  }
  if (parts[len] === Infinity) return null;
  const cuts: number[] = [];
  for (let k = len; k > 0; k = from[k]) cuts.unshift(start + from[k], start + k);
  return cuts;
}

function isListed(text: string, start: number, end: number, words: WordList): boolean {
  let node = 0;
  for (let p = start; p < end && node >= 0; p++) node = words.step(node, text.charCodeAt(p));
  return node >= 0 && words.isWord(node);
}

/** Applies `words` to the spans of `text`: merges first, then splits what is left. */
export function applyWordList(text: string, spans: number[], words: WordList, minPart: number): number[] {
  const out: number[] = [];
  for (let i = 0; 2 * i < spans.length; i++) {
    const last = longestMerge(text, spans, i, words);
    const start = spans[2 * i];
    const end = spans[2 * last + 1];
    const len = end - start;
    const splittable = last === i && len >= 2 * minPart && len <= MAX_SPLIT_LENGTH;
    const cuts = splittable && !isListed(text, start, end, words) ? cutIntoWords(text, start, end, words, minPart) : null;
    if (cuts) out.push(...cuts);
    else out.push(start, end);
    i = last;
  }
  return out;
}
