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

function isHan(sym: string): boolean {
  return HAN.test(sym);
}

function pairCounts(words: string[][], freq: number[]): Map<string, number> {
  const counts = new Map<string, number>();
  words.forEach((w, k) => {
    for (let i = 0; i + 1 < w.length; i++) {
      if (isHan(w[i]) || isHan(w[i + 1])) continue;
      const key = `${w[i]} ${w[i + 1]}`;
      counts.set(key, (counts.get(key) ?? 0) + freq[k]);
    }
  });
  return counts;
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

/** Learns up to `merges` merges from word counts (pairs seen fewer than twice stop it). */
export function trainBpe(counts: ReadonlyMap<string, number>, merges: number): Bpe {
  const types = [...counts.keys()];
  const freq = types.map((w) => counts.get(w)!);
  let words = types.map(symbols);
  const ranks = new Map<string, number>();
  for (let m = 0; m < merges; m++) {
    let best = '';
    let bestCount = 1;
    for (const [key, c] of pairCounts(words, freq)) if (c > bestCount || (c === bestCount && best && key < best)) [best, bestCount] = [key, c];
    if (!best) break;
    ranks.set(best, m);
    const [a, b] = best.split(' ');
    words = words.map((w) => (w.length > 1 ? mergeWord(w, a, b) : w));
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
