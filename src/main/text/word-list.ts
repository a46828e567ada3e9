// A word list for "segmentation that learns": a trie over UTF-16 code units that
// segmentation walks across ICU pieces to find the longest known word. Hand-written because
// it is small and the segmenter needs to step one code unit at a time across piece
// boundaries, which set- or regex-based libraries do not offer.
//
// Layout: node 0 is the root; the edge from node n on code unit c is the map entry
// n * 65536 + c → child. Words are normalised (normalizeText) on the way in; words holding
// whitespace are skipped, since tokens never contain whitespace.
import { readFile } from 'node:fs/promises';
import { normalizeText } from './normalize.ts';

const NO_NODE = -1;

export class WordList {
  private readonly edges = new Map<number, number>();
  private readonly terminal: boolean[] = [false];
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

  /** Adds a word; returns false when it was empty, held whitespace or was already there. */
  add(word: string): boolean {
    const w = normalizeText(word).trim();
    if (w === '' || /[\s\u200B]/.test(w)) return false;
    let node = 0;
    for (let i = 0; i < w.length; i++) {
      const key = node * 65536 + w.charCodeAt(i);
      let next = this.edges.get(key);
      if (next === undefined) {
        next = this.terminal.length;
        this.terminal.push(false);
        this.edges.set(key, next);
      }
      node = next;
    }
    if (this.terminal[node]) return false;
    this.terminal[node] = true;
    this.all.push(w);
    return true;
  }

  has(word: string): boolean {
    const w = normalizeText(word);
    let node = 0;
    for (let i = 0; i < w.length && node !== NO_NODE; i++) node = this.step(node, w.charCodeAt(i));
    return node !== NO_NODE && this.terminal[node];
  }

  /** The child of `node` (0 = root) on UTF-16 code unit `code`, or -1. */
  step(node: number, code: number): number {
    return this.edges.get(node * 65536 + code) ?? NO_NODE;
  }

  isWord(node: number): boolean {
    return this.terminal[node];
  }

  /** Every word in insertion order (to rebuild the list in a worker). */
  words(): string[] {
    return [...this.all];
  }
}
