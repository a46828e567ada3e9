// A word list for "segmentation that learns": a trie over UTF-16 code units that
// segmentation walks across ICU pieces to find the longest known word. Hand-written because
// it is small and the segmenter needs to step one code unit at a time across piece
// boundaries, which set- or regex-based libraries do not offer.
//
// Layout (typed arrays, fast to step through): node 0 is the root, whose children sit in a
// 65536-entry table indexed by code unit; every other edge (parent node, code unit) → child
// is an entry of one open-addressing hash table, so a step costs the same whatever the
// number of siblings (a Lao syllable's first letters have dozens: with children kept as
// linked lists, the bundled Lao dictionary's merges took 16% of ICU's time on the embassy
// sentences, see docs/experiments.md).
// Words are normalised (normalizeText) on the way in. A word may hold whitespace (Vietnamese
// "sinh viên", "Hôm nay": syllables written apart): each inner run of whitespace or U+200B
// is stored as one U+0020, and word-merge.ts steps that edge across the gap between two
// pieces, so the merged token spans the gap.
import { readFile } from 'node:fs/promises';
import { normalizeText } from './normalize.ts';

const NO_NODE = -1;

export class WordList {
  private readonly rootChild = new Int32Array(0x10000).fill(NO_NODE);
  private terminal: Uint8Array = new Uint8Array(1024);
  private nodes = 1;
  /** the edge table: slot → parent node (NO_NODE: empty), code unit, child; at most half full */
  private edgeParent = new Int32Array(2048).fill(NO_NODE);
  private edgeCode = new Uint16Array(2048);
  private edgeChild = new Int32Array(2048);
  private edges = 0;
  private readonly all: string[] = [];

  static fromWords(words: Iterable<string>): WordList {
    const list = new WordList();
    for (const w of words) list.add(w);
    return list;
  }

  /** A plain list: one word a line; blank lines and lines starting with # are skipped. */
  static parse(listText: string): WordList {
    const lines = listText.split('\n').filter((l) => !l.trimStart().startsWith('#'));
    return WordList.fromWords(lines.map((l) => l.trim()));
  }

  static async load(path: string): Promise<WordList> {
    return WordList.parse(await readFile(path, 'utf8'));
  }

  get size(): number {
    return this.all.length;
  }

  /** Adds a word; returns false when it was empty or was already there. */
  add(word: string): boolean {
    const w = canonicalWord(word);
    if (w === '') return false;
    let node = 0;
    for (let i = 0; i < w.length; i++) {
      const code = w.charCodeAt(i);
      const next = this.step(node, code);
      node = next === NO_NODE ? this.addChild(node, code) : next;
    }
    if (this.terminal[node]) return false;
    this.terminal[node] = 1;
    this.all.push(w);
    return true;
  }

  has(word: string): boolean {
    const w = canonicalWord(word);
    let node = 0;
    for (let i = 0; i < w.length && node !== NO_NODE; i++) node = this.step(node, w.charCodeAt(i));
    return node !== NO_NODE && this.isWord(node);
  }

  /** The child of `node` (0 = root) on UTF-16 code unit `code`, or -1. */
  step(node: number, code: number): number {
    if (node === 0) return this.rootChild[code];
    const mask = this.edgeParent.length - 1;
    for (let h = slot(node, code) & mask; ; h = (h + 1) & mask) {
      const p = this.edgeParent[h];
      if (p === NO_NODE) return NO_NODE;
      if (p === node && this.edgeCode[h] === code) return this.edgeChild[h];
    }
  }

  isWord(node: number): boolean {
    return this.terminal[node] === 1;
  }

  /** Every word in insertion order (to rebuild the list in a worker). */
  words(): string[] {
    return [...this.all];
  }

  private addChild(parent: number, code: number): number {
    if (this.nodes === this.terminal.length) this.terminal = enlarged(this.terminal);
    const child = this.nodes++;
    if (parent === 0) this.rootChild[code] = child;
    else {
      if (2 * (this.edges + 1) > this.edgeParent.length) this.rehash();
      this.insertEdge(parent, code, child);
    }
    return child;
  }

  private insertEdge(parent: number, code: number, child: number): void {
    const mask = this.edgeParent.length - 1;
    let h = slot(parent, code) & mask;
    while (this.edgeParent[h] !== NO_NODE) h = (h + 1) & mask;
    this.edgeParent[h] = parent;
    this.edgeCode[h] = code;
    this.edgeChild[h] = child;
    this.edges++;
  }

  /** Doubles the edge table and inserts every edge again. */
  private rehash(): void {
    const [parents, codes, children] = [this.edgeParent, this.edgeCode, this.edgeChild];
    this.edgeParent = new Int32Array(2 * parents.length).fill(NO_NODE);
    this.edgeCode = new Uint16Array(2 * parents.length);
    this.edgeChild = new Int32Array(2 * parents.length);
    this.edges = 0;
    for (let h = 0; h < parents.length; h++) if (parents[h] !== NO_NODE) this.insertEdge(parents[h], codes[h], children[h]);
  }
}

/** Hash of an edge (multiplicative, both halves mixed). */
function slot(node: number, code: number): number {
  return (Math.imul(node, 0x9e3779b1) ^ Math.imul(code + 1, 0x85ebca77)) >>> 7;
}

/** A word as the trie holds it: normalised, trimmed, each inner gap one U+0020 (the edge word-merge.ts steps across a gap). */
export function canonicalWord(word: string): string {
  return normalizeText(word)
    .replace(/[\s\u200B]+/g, ' ')
    .trim();
}

/** A copy of `old` twice as long, the new half zero. */
function enlarged(old: Uint8Array): Uint8Array {
  const next = new Uint8Array(old.length * 2);
  next.set(old);
  return next;
}
