// The links a bilingual dictionary proposes inside one sentence pair: source word i and
// target word j are linked when (s_i, t_j) is an entry, read in either orientation as the
// dictionary prior does (prior.ts), and neither word has another such partner in the pair.
// The 1-to-1 filter keeps the proposals that are almost surely right (a function word
// listed with several translations, or a word repeated in the sentence, proposes nothing)
// so that they can supervise a model like a linguist's links (models/bilstm/method.ts).
import type { LinkRef } from '../../shared/link-set.ts';
import type { DictEntry } from './dictionary.ts';

/** Entries as a lookup: source word → the target words it translates to (both orientations). */
export function dictionaryIndex(entries: readonly DictEntry[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  const add = (a: string, b: string) => (index.get(a) ?? index.set(a, new Set()).get(a)!).add(b);
  for (const e of entries) {
    add(e.src, e.tgt);
    add(e.tgt, e.src);
  }
  return index;
}

/** Pair by pair, the links the dictionary proposes (1-to-1 matches only), sorted by (s, t). */
export function dictionaryLinks(
  src: readonly (readonly string[])[],
  tgt: readonly (readonly string[])[],
  index: ReadonlyMap<string, ReadonlySet<string>>,
): LinkRef[][] {
  return src.map((s, k) => {
    const t = tgt[k];
    const matches: LinkRef[] = [];
    const perS = new Int32Array(s.length),
      perT = new Int32Array(t.length);
    s.forEach((w, i) => {
      const translations = index.get(w);
      if (!translations) return;
      t.forEach((x, j) => {
        if (!translations.has(x)) return;
        matches.push({ s: i, t: j });
        perS[i]++;
        perT[j]++;
      });
    });
    return matches.filter((l) => perS[l.s] === 1 && perT[l.t] === 1);
  });
}
