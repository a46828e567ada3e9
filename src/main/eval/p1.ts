// Word-translation precision at 1 (P@1) of a lexicon against a reference dictionary.
//   P@1 = hits / evaluated, where a word is a hit when its best-scored lexicon translation
//   is one of its dictionary translations (any of them: the dictionaries list polysemy).
//   Evaluated words: every dictionary headword, or, given a corpus (S, T), the protocol of
//   seeds 002 and 003: the source words of S (the source vocabulary) that are dictionary
//   headwords with at least one dictionary translation occurring in T (the target vocabulary
//   the nearest word is taken from), as MUSE's evaluation drops dictionary pairs outside the
//   two vocabularies. Seed 003 states only "the nearest word from the whole target vocabulary
//   ... listed as translations in the dictionary"; a word no translation of which is in T can
//   never be a hit, so it is left out. A word missing from the lexicon is wrong.
// Lexicon lines: src<TAB>tgt<TAB>score; dictionary lines: src<TAB>tgt (several per word).
import { InputError } from '../errors.ts';

export interface P1Score {
  p1: number;
  evaluated: number;
  hits: number;
}

function tabbed(text: string, file: string, min: number): string[][] {
  const out: string[][] = [];
  text.split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    const f = line.split('\t');
    if (f.length < min) throw new InputError(file, n + 1, `expected ${min} tab-separated fields, got ${f.length}`);
    out.push(f);
  });
  return out;
}

/** Each source word's best translation (highest score; the first listed on ties). */
export function parseLexicon(text: string, file: string): Map<string, string> {
  const best = new Map<string, { tgt: string; score: number }>();
  for (const [s, t, sc] of tabbed(text, file, 3)) {
    const score = Number(sc);
    const old = best.get(s);
    if (!old || score > old.score) best.set(s, { tgt: t, score });
  }
  return new Map([...best].map(([s, v]) => [s, v.tgt]));
}

export function parseDictionary(text: string, file: string): Map<string, Set<string>> {
  const dict = new Map<string, Set<string>>();
  for (const [s, t] of tabbed(text, file, 2)) (dict.get(s) ?? dict.set(s, new Set()).get(s)!).add(t.trim());
  return dict;
}

function evaluatedWords(dict: Map<string, Set<string>>, corpus?: { src: string[][]; tgt: string[][] }): string[] {
  if (!corpus) return [...dict.keys()];
  const tgtWords = new Set(corpus.tgt.flat());
  const srcWords = new Set(corpus.src.flat());
  return [...srcWords].filter((w) => [...(dict.get(w) ?? [])].some((t) => tgtWords.has(t)));
}

export function scoreP1(
  lexicon: Map<string, string>,
  dict: Map<string, Set<string>>,
  corpus?: { src: string[][]; tgt: string[][] },
): P1Score {
  const words = evaluatedWords(dict, corpus);
  const hits = words.filter((w) => dict.get(w)!.has(lexicon.get(w) ?? '\u0000')).length;
  return { p1: words.length ? hits / words.length : 0, evaluated: words.length, hits };
}
