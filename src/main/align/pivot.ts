// Composing two bilingual dictionaries through a shared (pivot) language: s→p and p→t give
// s→t, as seed 003 built its Lao–Thai dictionary through Chinese. Each composed entry gets
//   confidence(s, t) = Σ_p P(p | s) · P(t | p),
//   P(p | s) = a(s, p) / Σ_p' a(s, p'),   P(t | p) = b(p, t) / Σ_t' b(p, t'),
// where a and b are the two dictionaries' entry weights (duplicates summed; 1 for a
// dictionary read backwards, see `reversed`). This is the
// triangulation estimate of p(t | s) when t depends on s only through the pivot word: with
// unit weights P(t | p) = 1/fan-out(p), so a pivot word with many translations (English
// "bank", "light") spreads its share thin, and a pair reached through several pivot words
// sums their shares. Because P(p | s) is normalised over all of s's pivot words, also those
// the second dictionary lacks, confidences of one source word sum to at most 1, like the
// 1/#words weights a gloss gives (the aligner's prior reads them on the same scale).
// Each entry also carries its number of pivot paths and its ambiguity, the smallest
// fan-out among its pivot words; `maxFanout` drops paths through pivot words with more
// translations than that (precision against this cut-off: docs/experiments.md).
// Pivot words match case-folded (CEDICT writes "Beijing", MUSE "beijing").
import type { DictEntry } from './dictionary.ts';

export interface ComposedEntry extends DictEntry {
  /** Distinct pivot words linking src and tgt. */
  paths: number;
  /** The smallest fan-out (distinct translations in the second dictionary) of those pivot words. */
  ambiguity: number;
}

export interface ComposeOptions {
  /** Ignore pivot words with more translations than this (default: no limit). */
  maxFanout?: number;
  /** Drop composed entries below this confidence (default 0). */
  minConfidence?: number;
}

/** key → (key2 → summed weight), with keys mapped by `fold`. */
function weightTable(entries: DictEntry[], from: (e: DictEntry) => string, to: (e: DictEntry) => string): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  for (const e of entries) {
    const row = table.get(from(e)) ?? table.set(from(e), new Map()).get(from(e))!;
    row.set(to(e), (row.get(to(e)) ?? 0) + e.weight);
  }
  return table;
}

const sum = (row: Map<string, number>) => [...row.values()].reduce((a, b) => a + b, 0);

/** `first` maps source → pivot, `second` pivot → target; entries sorted by source, then confidence (highest first). */
export function composeDictionaries(first: DictEntry[], second: DictEntry[], o: ComposeOptions = {}): ComposedEntry[] {
  const fold = (w: string) => w.toLowerCase();
  const forward = weightTable(
    first,
    (e) => e.src,
    (e) => fold(e.tgt),
  );
  const onward = weightTable(
    second,
    (e) => fold(e.src),
    (e) => e.tgt,
  );
  const pivotTotal = new Map([...onward].map(([p, row]) => [p, sum(row)]));
  const maxFanout = o.maxFanout ?? Infinity;
  const out: ComposedEntry[] = [];
  for (const src of [...forward.keys()].sort()) {
    const pivots = forward.get(src)!;
    const total = sum(pivots);
    if (!(total > 0)) continue;
    const acc = new Map<string, ComposedEntry>();
    for (const [p, a] of pivots) {
      const targets = onward.get(p);
      if (!targets || targets.size > maxFanout || !(pivotTotal.get(p)! > 0)) continue;
      for (const [tgt, b] of targets) {
        const share = (a / total) * (b / pivotTotal.get(p)!);
        const e = acc.get(tgt);
        if (e) {
          e.weight += share;
          e.paths++;
          e.ambiguity = Math.min(e.ambiguity, targets.size);
        } else acc.set(tgt, { src, tgt, weight: share, paths: 1, ambiguity: targets.size });
      }
    }
    const kept = [...acc.values()].filter((e) => e.weight >= (o.minConfidence ?? 0));
    out.push(...kept.sort((x, y) => y.weight - x.weight || (x.tgt < y.tgt ? -1 : 1)));
  }
  return out;
}

/** The entries read the other way round (target → source), each weighing 1: a gloss's
 *  1/#pieces weights share out its headword, so read backwards they would favour the
 *  headwords with the fewest senses (CC-CEDICT's "eat" would prefer 下箸 to 吃). */
export function reversed(entries: DictEntry[]): DictEntry[] {
  return entries.map((e) => ({ src: e.tgt, tgt: e.src, weight: 1 }));
}
