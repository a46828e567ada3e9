// Open-addressing hash from a pair of non-negative int32 ids (a, b) to a dense id
// 0, 1, 2, … in order of first insertion. Flat Int32Arrays, linear probing, load ≤ 1/2;
// used to number the (source word, target word) pairs that co-occur in a corpus.

export class PairTable {
  private slots: Int32Array; // dense id + 1 per slot, 0 = empty
  private ka: Int32Array; // key halves by dense id
  private kb: Int32Array;
  private size = 0;

  constructor(capacity = 1024) {
    let cap = 1024;
    while (cap < capacity * 2) cap *= 2;
    this.slots = new Int32Array(cap);
    this.ka = new Int32Array(capacity);
    this.kb = new Int32Array(capacity);
  }

  get count(): number {
    return this.size;
  }

  private static hash(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    return Math.imul(h, 0x2c1b3c6d);
  }

  /** Dense id of (a, b), or -1 when absent. */
  get(a: number, b: number): number {
    const mask = this.slots.length - 1;
    for (let s = PairTable.hash(a, b) & mask; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === 0) return -1;
      if (this.ka[v - 1] === a && this.kb[v - 1] === b) return v - 1;
    }
  }

  /** Dense id of (a, b), inserting it when absent. */
  intern(a: number, b: number): number {
    const mask = this.slots.length - 1;
    let s = PairTable.hash(a, b) & mask;
    for (; ; s = (s + 1) & mask) {
      const v = this.slots[s];
      if (v === 0) break;
      if (this.ka[v - 1] === a && this.kb[v - 1] === b) return v - 1;
    }
    const id = this.size++;
    if (id >= this.ka.length) this.growKeys();
    this.ka[id] = a;
    this.kb[id] = b;
    this.slots[s] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  /** The keys by dense id (views trimmed to the count). */
  keys(): { a: Int32Array; b: Int32Array } {
    return { a: this.ka.subarray(0, this.size), b: this.kb.subarray(0, this.size) };
  }

  private growKeys(): void {
    const a = new Int32Array(this.ka.length * 2);
    const b = new Int32Array(this.kb.length * 2);
    a.set(this.ka);
    b.set(this.kb);
    this.ka = a;
    this.kb = b;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let s = PairTable.hash(this.ka[id], this.kb[id]) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    this.slots = slots;
  }
}
