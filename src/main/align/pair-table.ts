// Hash from a pair of non-negative int32 ids (a, b) to a dense id 0, 1, 2, … in order of
// first insertion. Two levels: one small open-addressing table per first id a, with slots
// [b, id+1] (id+1 = 0: empty), linear probing, load ≤ 1/2. Looking up all the b's of one
// a (a row of a sentence pair) stays inside that a's table, which is cache-friendly where a
// single corpus-wide table (100 MB for 3M pairs) would miss the cache on every probe.
// The keys are only in those tables (forEach lists them): no arrays of keys by id, which
// took another 32 MB at dup100k's 3.0M pairs.

const EMPTY = new Int32Array(0);

export class PairTable {
  private tabs: Int32Array[] = [];
  private used: number[] = [];
  private size = 0;

  get count(): number {
    return this.size;
  }

  private static hash(b: number): number {
    const h = Math.imul(b, 0x9e3779b1);
    return h ^ (h >>> 16);
  }

  /** Slot index (×2) of b in table t, or the empty slot where it would go. */
  private static find(t: Int32Array, b: number): number {
    const mask = (t.length >> 1) - 1;
    for (let s = PairTable.hash(b) & mask; ; s = (s + 1) & mask) {
      const x = 2 * s;
      if (t[x + 1] === 0 || t[x] === b) return x;
    }
  }

  /** Dense id of (a, b), or -1 when absent. */
  get(a: number, b: number): number {
    const t = this.tabs[a];
    if (!t || t.length === 0) return -1;
    return t[PairTable.find(t, b) + 1] - 1;
  }

  /** Dense id of (a, b), inserting it when absent. */
  intern(a: number, b: number): number {
    while (this.tabs.length <= a) {
      this.tabs.push(EMPTY);
      this.used.push(0);
    }
    let t = this.tabs[a];
    if (2 * (this.used[a] + 1) > t.length >> 1) t = this.grow(a);
    const x = PairTable.find(t, b);
    if (t[x + 1] !== 0) return t[x + 1] - 1;
    const id = this.size++;
    t[x] = b;
    t[x + 1] = id + 1;
    this.used[a]++;
    return id;
  }

  /** Calls f(a, b, id) for every pair. */
  forEach(f: (a: number, b: number, id: number) => void): void {
    this.tabs.forEach((t, a) => {
      for (let x = 0; x < t.length; x += 2) if (t[x + 1] !== 0) f(a, t[x], t[x + 1] - 1);
    });
  }

  private grow(a: number): Int32Array {
    const old = this.tabs[a];
    const t = new Int32Array(Math.max(16, 2 * old.length));
    for (let x = 0; x < old.length; x += 2) {
      if (old[x + 1] === 0) continue;
      const y = PairTable.find(t, old[x]);
      t[y] = old[x];
      t[y + 1] = old[x + 1];
    }
    this.tabs[a] = t;
    return t;
  }
}
