// Subwords for the subword-aware word embeddings of seed 003 eq. 10. A small byte-pair
// encoder (Sennrich et al. 2016) trained on the corpus's word types weighted by frequency:
// words start as their characters plus an end marker on the last one, and the most frequent
// adjacent pair is merged, `merges` times. Han characters are never merged (Chinese is
// segmented by character, seed 003 §IV.A). Segmenting a word replays the merges in order.
// Training counts pairs of symbol ids and takes the most frequent from a priority queue
// (tinyqueue) of the counts as they change, not a scan of every count per merge, which took
// twice as long (docs/experiments.md).
import TinyQueue from 'tinyqueue';

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

/** w with each adjacent a, b (left to right, not overlapping) replaced by ab; w itself when it has none. */
function mergeWord<S>(w: S[], a: S, b: S, ab: S): S[] {
  let out: S[] | null = null;
  for (let i = 0; i < w.length; i++) {
    if (i + 1 < w.length && w[i] === a && w[i + 1] === b) {
      out ??= w.slice(0, i);
      out.push(ab);
      i++;
    } else out?.push(w[i]);
  }
  return out ?? w;
}

/** The symbols of the words being merged as ids, one per distinct string, each noting whether it holds a Han character. */
class Symbols {
  private readonly ids = new Map<string, number>();
  readonly names: string[] = [];
  readonly han: boolean[] = [];

  id(sym: string): number {
    let id = this.ids.get(sym);
    if (id === undefined) {
      this.ids.set(sym, (id = this.names.length));
      this.names.push(sym);
      this.han.push(HAN.test(sym));
    }
    return id;
  }
}

/** A pair's count when it was queued (stale once the count has changed since); its "a b" name is made when a tie needs it. */
type Queued = { key: number; count: number; name?: string };

/**
 * Pair counts kept up to date as words change; `where` lists the words each pair occurs in.
 * A pair of symbol ids a, b is the number a * shift + b: the shift is 2^15 when every symbol
 * the training can make fits below it, so that the keys are small integers, which V8's maps
 * hash fastest, else 2^26 (still exact in a double).
 */
class PairTable {
  readonly counts = new Map<number, number>();
  readonly where = new Map<number, Set<number>>();
  /** The more frequent pair first; ties: the smaller name. */
  private readonly queue = new TinyQueue<Queued>([], (a, b) => {
    if (a.count !== b.count) return b.count - a.count;
    const [x, y] = [(a.name ??= this.name(a.key)), (b.name ??= this.name(b.key))];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  /** pairs whose count may have changed since they were last queued */
  private readonly changed = new Set<number>();
  /** each pair's count when it was last queued (a word merged elsewhere removes and adds back most of its pairs) */
  private readonly queued = new Map<number, number>();

  constructor(
    private readonly symbols: Symbols,
    private readonly shift: number,
  ) {}

  /** Adds (sign 1) or removes (sign −1) the pairs of word k, w, seen f times. */
  update(w: readonly number[], k: number, f: number, sign: 1 | -1): void {
    const han = this.symbols.han;
    for (let i = 0; i + 1 < w.length; i++) {
      if (han[w[i]] || han[w[i + 1]]) continue;
      const key = w[i] * this.shift + w[i + 1];
      const c = (this.counts.get(key) ?? 0) + sign * f;
      if (c > 0) this.counts.set(key, c);
      else this.counts.delete(key);
      this.changed.add(key);
      if (sign > 0) (this.where.get(key) ?? this.where.set(key, new Set()).get(key)!).add(k);
    }
  }

  /** The pair's "a b" name. */
  name(key: number): string {
    const [a, b] = this.split(key);
    return `${this.symbols.names[a]} ${this.symbols.names[b]}`;
  }

  /** The pair's two symbol ids. */
  split(key: number): [number, number] {
    const a = Math.floor(key / this.shift);
    return [a, key - a * this.shift];
  }

  /** The most frequent pair seen at least twice (ties: the smaller name), or −1. */
  best(): number {
    for (const key of this.changed) {
      const count = this.counts.get(key);
      if (count === undefined || count < 2) {
        this.queued.delete(key);
        continue;
      }
      if (this.queued.get(key) === count) continue;
      this.queued.set(key, count);
      this.queue.push({ key, count });
    }
    this.changed.clear();
    // entries whose pair has changed count since are skipped: the pair was queued again then
    for (let top = this.queue.peek(); top; top = this.queue.peek()) {
      if (this.counts.get(top.key) === top.count) return top.key;
      this.queue.pop();
    }
    return -1;
  }
}

/**
 * Learns up to `merges` merges from word counts (pairs seen fewer than twice stop it).
 * Pair counts are updated only for the words a merge changes, and symbols are ids, so a merge
 * costs those words' pairs rather than a pass over every word or string keys.
 */
export function trainBpe(counts: ReadonlyMap<string, number>, merges: number): Bpe {
  const syms = new Symbols();
  const types = [...counts.keys()];
  const freq = types.map((w) => counts.get(w)!);
  const words = types.map((w) => symbols(w).map((x) => syms.id(x)));
  // every symbol there will be: the initial ones and one per merge
  const table = new PairTable(syms, syms.names.length + merges < 2 ** 15 ? 2 ** 15 : 2 ** 26);
  words.forEach((w, k) => table.update(w, k, freq[k], 1));
  const ranks = new Map<string, number>();
  for (let m = 0; m < merges; m++) {
    const best = table.best();
    if (best < 0) break;
    ranks.set(table.name(best), m);
    const [a, b] = table.split(best);
    const ab = syms.id(syms.names[a] + syms.names[b]);
    for (const k of table.where.get(best)!) {
      const merged = mergeWord(words[k], a, b, ab);
      if (merged === words[k]) continue;
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
    w = mergeWord(w, w[at], w[at + 1], w[at] + w[at + 1]);
  }
}
