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
// Words are normalised (normalizeText), put in their spelling fold (the form segmentation
// reads, spelling-shadow.ts) and lowercased on the way in, and step() lowercases each code
// unit of the text, so a listed "hôm nay" merges "Hôm nay" while the text keeps its case.
// A word may hold whitespace (Vietnamese "sinh viên", "Hôm nay": syllables written apart):
// each inner run of whitespace or U+200B is stored as one U+0020, and word-merge.ts steps
// that edge across the gap between two pieces, so the merged token spans the gap.
import { readFile } from 'node:fs/promises';
import { normalizeText } from './normalize.ts';
import { foldSpelling } from './spelling-shadow.ts';

const NO_NODE = -1;
/** terminal[node]: no word ends here, a word that only merges, a word that also splits */
const MERGES = 1;
const SPLITS = 2;

/** A word list as it crosses to a segmentation worker. */
export interface WordListData {
  words: string[];
  /** the words of `words` that only merge pieces (WordList.add) */
  mergeOnly: string[];
}

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

  static fromWords(words: Iterable<string>, use: 'split' | 'merge-only' = 'split'): WordList {
    const list = new WordList();
    for (const w of words) list.add(w, use);
    return list;
  }

  static fromData(data: WordListData): WordList {
    const list = WordList.fromWords(data.mergeOnly, 'merge-only');
    for (const w of data.words) list.add(w);
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

  /**
   * Adds a word; returns false when it was empty or was already there. A word a linguist
   * fixed or listed ('split') both merges pieces and splits a piece into listed words; a
   * dictionary headword ('merge-only') only merges: a dictionary holds the syllables of its
   * compounds as words too, and cutting every piece ICU keeps whole into them cuts Lao
   * ສຳນັກງານ into ສຳ|ນັກ|ງານ.
   */
  add(word: string, use: 'split' | 'merge-only' = 'split'): boolean {
    const w = wordKey(word);
    if (w === '') return false;
    let node = 0;
    for (let i = 0; i < w.length; i++) {
      const code = w.charCodeAt(i);
      const next = this.step(node, code);
      node = next === NO_NODE ? this.addChild(node, code) : next;
    }
    const was = this.terminal[node];
    const now = use === 'split' ? SPLITS : MERGES;
    if (was >= now) return false;
    this.terminal[node] = now;
    if (!was) this.all.push(canonicalWord(word));
    return true;
  }

  has(word: string): boolean {
    const w = wordKey(word);
    let node = 0;
    for (let i = 0; i < w.length && node !== NO_NODE; i++) node = this.step(node, w.charCodeAt(i));
    return node !== NO_NODE && this.isWord(node);
  }

  /** The child of `node` (0 = root) on UTF-16 code unit `code` (any case), or -1. */
  step(node: number, unit: number): number {
    const code = lowerUnit(unit);
    if (node === 0) return this.rootChild[code];
    const mask = this.edgeParent.length - 1;
    for (let h = slot(node, code) & mask; ; h = (h + 1) & mask) {
      const p = this.edgeParent[h];
      if (p === NO_NODE) return NO_NODE;
      if (p === node && this.edgeCode[h] === code) return this.edgeChild[h];
    }
  }

  isWord(node: number): boolean {
    return this.terminal[node] !== 0;
  }

  /** Whether the word ending at `node` also splits pieces (see add). */
  splits(node: number): boolean {
    return this.terminal[node] === SPLITS;
  }

  /** Every word in insertion order, as first listed (canonicalWord: its case and spelling kept). */
  words(): string[] {
    return [...this.all];
  }

  /** The list as a worker rebuilds it (fromData). */
  data(): WordListData {
    return { words: this.all.filter((w) => !this.mergeOnly(w)), mergeOnly: this.all.filter((w) => this.mergeOnly(w)) };
  }

  private mergeOnly(word: string): boolean {
    const key = wordKey(word);
    let node = 0;
    for (let i = 0; i < key.length; i++) node = this.step(node, key.charCodeAt(i));
    return this.terminal[node] === MERGES;
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

/**
 * Per UTF-16 code unit, its lowercase where that is one code unit (the lowercasing
 * searchFold does, unit by unit, so that a word and a text meet whatever their case).
 * Filled a block of 256 units at a time on first use: the whole table takes 0.1–0.4 s.
 */
const LOWER = new Uint16Array(0x10000);
const FILLED = new Uint8Array(0x100);

function lowerUnit(unit: number): number {
  const block = unit >> 8;
  if (FILLED[block] === 0) {
    const base = block << 8;
    const units = Array.from({ length: 256 }, (_, k) => base + k);
    const lower = String.fromCharCode(...units).toLowerCase();
    for (const c of units) {
      const one = lower.length === 256 ? lower[c - base] : String.fromCharCode(c).toLowerCase();
      LOWER[c] = one.length === 1 ? one.charCodeAt(0) : c;
    }
    FILLED[block] = 1;
  }
  return LOWER[unit];
}

/** A word as listed: normalised, trimmed, each inner gap one U+0020 (the edge word-merge.ts steps across a gap). */
export function canonicalWord(word: string): string {
  return normalizeText(word)
    .replace(/[\s\u200B]+/g, ' ')
    .trim();
}

/** A word as the trie holds it: canonical, in its spelling fold (spelling-shadow.ts), lowercase. */
function wordKey(word: string): string {
  const folded = foldSpelling(canonicalWord(word));
  let key = '';
  for (let i = 0; i < folded.length; i++) key += String.fromCharCode(lowerUnit(folded.charCodeAt(i)));
  return key;
}

/** A copy of `old` twice as long, the new half zero. */
function enlarged(old: Uint8Array): Uint8Array {
  const next = new Uint8Array(old.length * 2);
  next.set(old);
  return next;
}
