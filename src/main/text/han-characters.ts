// Chinese by character (the LDC convention for Chinese gold: one token per Han character):
// a word split into its Han characters, each a piece of its own, with the runs of other
// characters inside the word kept together ("5月" → 5 | 月, "阿什拉夫·哈尼" keeps "·"), and
// word links carried to every character pair they cover. The aligner uses this to align
// Chinese by character (align/by-character.ts), the export to write word links at
// character level (corpus/export-pipeline.ts); the project itself keeps its words.
import type { Token } from '../../shared/domain.ts';
import type { LinkRef } from '../../shared/link-set.ts';
import { canonicalLang } from './lang.ts';

const HAN = /\p{Script=Han}/u;

/** Which side(s) of a pair are split. */
export type CharSides = 'src' | 'tgt' | 'both';

/** A sentence's words split into characters: the pieces and the word each comes from. */
export interface CharSplit {
  chars: string[];
  wordOf: number[];
}

/** The pieces of a word as UTF-16 [start, end) offsets into it. */
function hanPieces(word: string): [number, number][] {
  const out: [number, number][] = [];
  let run = -1;
  let at = 0;
  for (const c of word) {
    if (HAN.test(c)) {
      if (run >= 0) out.push([run, at]);
      out.push([at, at + c.length]);
      run = -1;
    } else if (run < 0) run = at;
    at += c.length;
  }
  if (run >= 0) out.push([run, at]);
  return out;
}

export function splitHan(words: readonly string[]): CharSplit {
  const chars: string[] = [];
  const wordOf: number[] = [];
  words.forEach((word, w) => {
    for (const [a, b] of hanPieces(word)) (chars.push(word.slice(a, b)), wordOf.push(w));
  });
  return { chars, wordOf };
}

/** Tokens split the same way, with their offsets into the sentence. */
export function splitHanTokens(tokens: readonly Token[]): { tokens: Token[]; wordOf: number[] } {
  const out: Token[] = [];
  const wordOf: number[] = [];
  tokens.forEach((t, w) => {
    for (const [a, b] of hanPieces(t.text)) (out.push({ text: t.text.slice(a, b), start: t.start + a, end: t.start + b }), wordOf.push(w));
  });
  return { tokens: out, wordOf };
}

/** A side left whole: each token its own word. */
export function unsplit(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i);
}

/** Word links as the links of every character pair they cover (each keeping its other fields), ordered by word link. */
export function characterLinks<L extends LinkRef>(links: readonly L[], srcWordOf: readonly number[], tgtWordOf: readonly number[]): L[] {
  const charsOf = (wordOf: readonly number[]) => {
    const m = new Map<number, number[]>();
    wordOf.forEach((w, i) => (m.get(w) ?? m.set(w, []).get(w)!).push(i));
    return m;
  };
  const [src, tgt] = [charsOf(srcWordOf), charsOf(tgtWordOf)];
  const out: L[] = [];
  for (const l of links) for (const s of src.get(l.s) ?? []) for (const t of tgt.get(l.t) ?? []) out.push({ ...l, s, t });
  return out;
}

/** The Chinese side(s) of a language pair, or null when neither is Chinese. */
export function chineseSides(srcLang: string, tgtLang: string): CharSides | null {
  const [src, tgt] = [canonicalLang(srcLang) === 'zh', canonicalLang(tgtLang) === 'zh'];
  return src && tgt ? 'both' : src ? 'src' : tgt ? 'tgt' : null;
}
