// The export's "Chinese by character" option (the LDC convention for Chinese gold: one
// token per Han character): a record's Chinese side(s) split into characters
// (text/han-characters.ts) and every alignment's links, "not translated" marks and
// rejected links carried to the characters they cover, so every format (Pharaoh, TALP,
// JSONL, the tokenised text beside a links file) writes the same character-level view of
// the project's word-level annotation.
import { characterLinks, splitHanTokens, unsplit, type CharSides } from '../text/han-characters.ts';
import type { PairRecord } from './record.ts';

/** The indices of the characters of the given words. */
function characterIndices(words: readonly number[], wordOf: readonly number[]): number[] {
  const chosen = new Set(words);
  return wordOf.flatMap((w, i) => (chosen.has(w) ? [i] : []));
}

export function characterRecord(r: PairRecord, sides: CharSides): PairRecord {
  const split = (tokens: PairRecord['srcTokens'], on: boolean) =>
    tokens && on ? splitHanTokens(tokens) : { tokens, wordOf: unsplit(tokens?.length ?? 0) };
  const src = split(r.srcTokens, sides !== 'tgt');
  const tgt = split(r.tgtTokens, sides !== 'src');
  return {
    ...r,
    srcTokens: src.tokens,
    tgtTokens: tgt.tokens,
    alignments: r.alignments?.map((a) => ({
      ...a,
      links: characterLinks(a.links, src.wordOf, tgt.wordOf),
      ...(a.untranslated
        ? { untranslated: { src: characterIndices(a.untranslated.src, src.wordOf), tgt: characterIndices(a.untranslated.tgt, tgt.wordOf) } }
        : {}),
    })),
    ...(r.rejected ? { rejected: characterLinks(r.rejected, src.wordOf, tgt.wordOf) } : {}),
  };
}
