// A word list for "segmentation that learns": a trie over UTF-16 code units that
// segmentation walks across ICU pieces to find the longest known word. Hand-written because
// it is small and the segmenter needs to step one code unit at a time across piece
// boundaries, which set- or regex-based libraries do not offer.
//
// Layout (typed arrays, fast to step through): node 0 is the root, whose children sit in a
// 65536-entry table indexed by code unit; every other node keeps its children as a linked
// list (firstChild / nextSibling, edge code unit in `label`), short below the first level.
// Words are normalised (normalizeText) on the way in. A word may hold whitespace (Vietnamese
// "sinh viên", "Hôm nay": syllables written apart): each inner run of whitespace or U+200B
// is stored as one U+0020, and word-merge.ts steps that edge across the gap between two
// pieces, so the merged token spans the gap.
import { readFile } from 'node:fs/promises';
import { normalizeText } from './normalize.ts';

const NO_NODE = -1;

export class WordList {
  private readonly rootChild = new Int32Array(0x10000).fill(NO_NODE);
  private label = new Uint16Array(1024);
  private firstChild = new Int32Array(1024).fill(NO_NODE);
  private nextSibling = new Int32Array(1024).fill(NO_NODE);
  private terminal = new Uint8Array(1024);
  private nodes = 1;
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
    for (let k = this.firstChild[node]; k !== NO_NODE; k = this.nextSibling[k]) {
      if (this.label[k] === code) return k;
    }
    return NO_NODE;
  }

  isWord(node: number): boolean {
    return this.terminal[node] === 1;
  }

  /** Every word in insertion order (to rebuild the list in a worker). */
  words(): string[] {
    return [...this.all];
  }

  private addChild(parent: number, code: number): number {
    if (this.nodes === this.label.length) this.grow();
    const child = this.nodes++;
    this.label[child] = code;
    if (parent === 0) this.rootChild[code] = child;
    else {
      this.nextSibling[child] = this.firstChild[parent];
      this.firstChild[parent] = child;
    }
    return child;
  }

  private grow(): void {
    this.label = enlarged(this.label, 0);
    this.terminal = enlarged(this.terminal, 0);
    this.firstChild = enlarged(this.firstChild, NO_NODE);
    this.nextSibling = enlarged(this.nextSibling, NO_NODE);
  }
}

/** A word as the trie holds it: normalised, trimmed, each inner gap one U+0020 (the edge word-merge.ts steps across a gap). */
export function canonicalWord(word: string): string {
  return normalizeText(word)
    .replace(/[\s\u200B]+/g, ' ')
    .trim();
}

/** A copy of `old` twice as long, the new half filled with `fill`. */
function enlarged<T extends Int32Array | Uint16Array | Uint8Array>(old: T, fill: number): T {
  const next = new (old.constructor as new (length: number) => T)(old.length * 2);
  next.fill(fill, old.length);
  next.set(old);
  return next;
}
