// Subwords for the subword-aware word embeddings of seed 003 eq. 10. A small byte-pair
// encoder (Sennrich et al. 2016) trained on the corpus's word types weighted by frequency:
// words start as their characters plus an end marker on the last one, and the most frequent
// adjacent pair is merged, `merges` times. Han characters are never merged (Chinese is
// segmented by character, seed 003 §IV.A). Segmenting a word replays the merges in order.
const END = '</w>';
const HAN = /\p{Script=Han}/u;

export interface Bpe {
  /** merge rules, first learned first: "a b" → rank */
  ranks: Map<string, number>;
}

function symbols(word: string): string[] {
  const chars = [...word];
  chars[chars.length - 1] += END;
  return chars;
}

function mergeWord(w: string[], a: string, b: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < w.length; i++) {
    if (i + 1 < w.length && w[i] === a && w[i + 1] === b) {
      out.push(a + b);
      i++;
    } else out.push(w[i]);
  }
  return out;
}

/** Pair counts kept up to date as words change; `where` lists the words each pair occurs in. */
class PairTable {
  readonly counts = new Map<string, number>();
  readonly where = new Map<string, Set<number>>();
  private readonly han = new Map<string, boolean>();

  private isHan(sym: string): boolean {
    let h = this.han.get(sym);
    if (h === undefined) this.han.set(sym, (h = HAN.test(sym)));
    return h;
  }

  /** Adds (sign 1) or removes (sign −1) the pairs of word k, w, seen f times. */
  update(w: readonly string[], k: number, f: number, sign: 1 | -1): void {
    for (let i = 0; i + 1 < w.length; i++) {
      if (this.isHan(w[i]) || this.isHan(w[i + 1])) continue;
      const key = `${w[i]} ${w[i + 1]}`;
      const c = (this.counts.get(key) ?? 0) + sign * f;
      if (c > 0) this.counts.set(key, c);
      else this.counts.delete(key);
      if (sign > 0) (this.where.get(key) ?? this.where.set(key, new Set()).get(key)!).add(k);
    }
  }

  /** The most frequent pair seen at least twice (ties: the smaller key), or ''. */
  best(): string {
    let best = '';
    let bestCount = 1;
    for (const [key, c] of this.counts) if (c > bestCount || (c === bestCount && best && key < best)) [best, bestCount] = [key, c];
    return best;
  }
}

/**
 * Learns up to `merges` merges from word counts (pairs seen fewer than twice stop it).
 * Pair counts are updated only for the words a merge changes, so a merge costs a scan of
 * the pair table rather than of every word.
 */
export function trainBpe(counts: ReadonlyMap<string, number>, merges: number): Bpe {
  const types = [...counts.keys()];
  const freq = types.map((w) => counts.get(w)!);
  const words = types.map(symbols);
  const table = new PairTable();
  words.forEach((w, k) => table.update(w, k, freq[k], 1));
  const ranks = new Map<string, number>();
  for (let m = 0; m < merges; m++) {
    const best = table.best();
    if (!best) break;
    ranks.set(best, m);
    const [a, b] = best.split(' ');
    for (const k of table.where.get(best)!) {
      const merged = mergeWord(words[k], a, b);
      if (merged.length === words[k].length) continue;
      table.update(words[k], k, freq[k], -1);
      table.update((words[k] = merged), k, freq[k], 1);
    }
    table.where.delete(best);
  }
  return { ranks };
}

/** The subwords of one word; the last carries the end marker. */
export function segmentWord(bpe: Bpe, word: string): string[] {
  let w = symbols(word);
  for (;;) {
    let bestRank = Infinity;
    let at = -1;
    for (let i = 0; i + 1 < w.length; i++) {
      const r = bpe.ranks.get(`${w[i]} ${w[i + 1]}`);
      if (r !== undefined && r < bestRank) [bestRank, at] = [r, i];
    }
    if (at < 0) return w;
    w = mergeWord(w, w[at], w[at + 1]);
  }
}
