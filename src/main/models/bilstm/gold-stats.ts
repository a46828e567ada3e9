// What the known gold links say about words, for the learned link decision
// (link-classifier.ts): how often a word is left unlinked where it occurs in a gold pair (the
// Chinese 的 and 了, English articles), and how often a source and a target word that occur
// together in a gold pair are linked — also by stems (a word's Han characters, else its
// first STEM_LENGTH letters; the best over the two words' stems), which carries what the
// gold says to inflected forms and to Chinese words sharing a character. Rates are smoothed
// towards the overall rate (SMOOTHING pseudo-occurrences), so unseen words get the average.
import { keySet, linkKey, type CorpusLinks } from '../../../shared/link-set.ts';

const SMOOTHING = 2;
const STEM_LENGTH = 4;
const HAN = /\p{Script=Han}/u;

/** A word's stems: its Han characters if it has any, else its first STEM_LENGTH characters. */
function stemsOf(w: string): string[] {
  const han = [...new Set([...w].filter((c) => HAN.test(c)))];
  return han.length ? han : [[...w].slice(0, STEM_LENGTH).join('')];
}

class Rate {
  private readonly hits = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private totalHits = 0;
  private totalSeen = 0;

  add(key: string, hit: boolean): void {
    this.seen.set(key, (this.seen.get(key) ?? 0) + 1);
    this.totalSeen++;
    if (!hit) return;
    this.hits.set(key, (this.hits.get(key) ?? 0) + 1);
    this.totalHits++;
  }

  of(key: string): number {
    const prior = this.totalSeen ? this.totalHits / this.totalSeen : 0;
    return ((this.hits.get(key) ?? 0) + SMOOTHING * prior) / ((this.seen.get(key) ?? 0) + SMOOTHING);
  }
}

export class GoldStats {
  private readonly srcUnlinked = new Rate();
  private readonly tgtUnlinked = new Rate();
  private readonly linked = new Rate();
  private readonly stemsLinked = new Rate();
  private readonly stemCache = new Map<string, string[]>();

  /** From the pairs (tokens) whose gold links are known (empty or absent elsewhere). */
  constructor(src: readonly string[][], tgt: readonly string[][], gold: CorpusLinks) {
    gold.forEach((links, k) => {
      if (!links?.length) return;
      const S = src[k],
        T = tgt[k];
      const on = keySet(links);
      const sLinked = new Set(links.map((l) => l.s)),
        tLinked = new Set(links.map((l) => l.t));
      S.forEach((w, i) => this.srcUnlinked.add(w, !sLinked.has(i)));
      T.forEach((w, j) => this.tgtUnlinked.add(w, !tLinked.has(j)));
      const [sStems, tStems] = [S.map((w) => this.stems(w)), T.map((w) => this.stems(w))];
      for (let i = 0; i < S.length; i++)
        for (let j = 0; j < T.length; j++) {
          const hit = on.has(linkKey(i, j));
          this.linked.add(`${S[i]}\t${T[j]}`, hit);
          for (const a of sStems[i]) for (const b of tStems[j]) this.stemsLinked.add(`${a}\t${b}`, hit);
        }
    });
  }

  unlinkedSrc(w: string): number {
    return this.srcUnlinked.of(w);
  }

  unlinkedTgt(w: string): number {
    return this.tgtUnlinked.of(w);
  }

  private stems(w: string): string[] {
    let out = this.stemCache.get(w);
    if (!out) this.stemCache.set(w, (out = stemsOf(w)));
    return out;
  }

  /** The best link rate of a stem of s with a stem of t. */
  stemLinkRate(s: string, t: string): number {
    let best = 0;
    for (const a of this.stems(s)) for (const b of this.stems(t)) best = Math.max(best, this.stemsLinked.of(`${a}\t${b}`));
    return best;
  }

  /** How often s and t are linked where they occur in the same gold pair. */
  linkRate(s: string, t: string): number {
    return this.linked.of(`${s}\t${t}`);
  }
}
