// Hash from a pair of non-negative int32 ids (a, b) to a dense id 0, 1, 2, … in order of
// first insertion. Two levels: one small open-addressing table per first id a, with slots
// [b, id+1] (id+1 = 0: empty), linear probing, load ≤ 1/2. Looking up all the b's of one
// a (a row of a sentence pair) stays inside that a's table, which is cache-friendly where a
// single corpus-wide table (100 MB for 3M pairs) would miss the cache on every probe.

const EMPTY = new Int32Array(0);

export class PairTable {
  private tabs: Int32Array[] = [];
  private used: number[] = [];
  private ka: Int32Array;
  private kb: Int32Array;
  private size = 0;

  constructor(capacity = 1024) {
    this.ka = new Int32Array(Math.max(16, capacity));
    this.kb = new Int32Array(Math.max(16, capacity));
  }

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
    if (id >= this.ka.length) this.growKeys();
    this.ka[id] = a;
    this.kb[id] = b;
    t[x] = b;
    t[x + 1] = id + 1;
    this.used[a]++;
    return id;
  }

  /** The keys by dense id (views trimmed to the count). */
  keys(): { a: Int32Array; b: Int32Array } {
    return { a: this.ka.subarray(0, this.size), b: this.kb.subarray(0, this.size) };
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

  private growKeys(): void {
    const a = new Int32Array(this.ka.length * 2);
    const b = new Int32Array(this.kb.length * 2);
    a.set(this.ka);
    b.set(this.kb);
    this.ka = a;
    this.kb = b;
  }
}
