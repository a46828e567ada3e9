// Words learned from a corpus itself: names and loans (Lao ເຢໂຫວາ, Thai สีนวนทอง, Chinese
// 卡莫纳) that no dictionary holds, so that a first segmentation cuts them into syllables,
// but that recur across the corpus as the same run of pieces. A corpus-level pass, run where
// a whole corpus is segmented (resegment, import): every sentence's first segmentation is
// added, words are learned, the sentences that hold one get its pieces merged (mergeLearned,
// on the spelling shadow, boundaries mapped back: the text is never rewritten), and the words
// join the language's word list as words that only merge (word-merge.ts), so that later
// segmentations cut the same. The learned words are a plain word list the user can review
// (formatLearnedWords).
//
// What is learned (deterministic: counts only, ties broken by the word's text):
//  - pieces are the tokens of the first segmentation written wholly in the language's
//    script (Lao, Thai, Han letters and marks); two pieces are adjacent when nothing, not
//    even a space, lies between them;
//  - a bond joins adjacent pieces a|b that recur together (count(ab) >= minCount) and hold
//    on to each other both ways: count(ab)/count(a) and count(ab)/count(b) are both at
//    least minCohesion. The syllables of a name meet almost only inside it; a frequent word
//    and its frequent neighbour (Lao ໄດ້|ເດີນທາງ, Chinese 的|人) meet each other in a small
//    share of their occurrences;
//  - only pieces the first segmentation left short bond: ICU cuts a Lao or Thai word it does
//    not know into syllables, so in Lao and Thai both pieces must be short (fewer than five
//    letters, marks not counted: ເຢໂຫ|ວາ, ไบ|เบิล); jieba cuts an unknown name into a word
//    and a character (卡莫|纳, 塔|哈尔), so in Chinese one of the two must be one character.
//    So a title and the name it always precedes (Thai นางสาว|อุรวดี), or two words that recur
//    together in a small corpus (Chinese 江泽民|主席), stay apart;
//  - a run of bonded pieces, bounded on both sides by a piece it is not bonded to, is a
//    candidate; one that occurs at least minCount times in the corpus, is at most maxPieces
//    pieces and maxLength units long, and is not already one known word (`known`) is learned.
import { foldSpelling, spellingShadow } from './spelling-shadow.ts';
import { applyWordList } from './word-merge.ts';
import type { WordList } from './word-list.ts';

export interface LearnOptions {
  /** Occurrences a bond and a learned word need (default 3). */
  minCount?: number;
  /** Share of each piece's occurrences a bond must take, both ways (default 0.7). */
  minCohesion?: number;
  /** Most pieces in a learned word (default 6). */
  maxPieces?: number;
  /** Most UTF-16 units in a learned word (default 30). */
  maxLength?: number;
}

export interface LearnedWord {
  word: string;
  /** occurrences as one run of bonded pieces */
  count: number;
  /** pieces of the first segmentation it joins (at its first occurrence) */
  pieces: number;
}

/** The letters (with their marks) of the scripts words are learned in, by language. */
const SCRIPT: Record<string, RegExp> = {
  lo: /^[\u0E81-\u0EC6\u0EC8-\u0ECD\u0EDC-\u0EDF]+$/,
  th: /^[\u0E01-\u0E3A\u0E40-\u0E4E]+$/,
  zh: /^\p{Script=Han}+$/u,
};

/** Whether words are learned for language `lang` (a canonical code). */
export function learnsWords(lang: string): boolean {
  return lang in SCRIPT;
}

/** Piece ids of one sentence; -1 stands between two pieces that are not adjacent. */
interface Sentence {
  /** the sentence's number: how many sentences were added before it */
  at: number;
  row: Int32Array;
}

/** What learn() finds. */
export interface Learned {
  words: LearnedWord[];
  /** Numbers (in the order add() was called) of the sentences that hold a learned word, ascending. */
  sentences: number[];
}

const NOT_ADJACENT = -1;
const MARK = /\p{M}/u;
/** Lao and Thai pieces of this many letters or more (marks not counted) are not syllables (isShort). */
const LONG_LETTERS = 5;

export class CorpusWords {
  private readonly script: RegExp;
  private readonly ids = new Map<string, number>();
  private readonly pieces: string[] = [];
  private readonly counts: number[] = [];
  private readonly sentences: Sentence[] = [];
  private added = 0;

  /** `lang`: lo, th or zh (learnsWords). */
  constructor(private readonly lang: string) {
    const script = SCRIPT[lang];
    if (!script) throw new Error(`no words are learned for language ${lang}`);
    this.script = script;
  }

  /** Adds one sentence: its text and the flat spans of its first segmentation. */
  add(text: string, spans: ArrayLike<number>): void {
    const row: number[] = [];
    let lastEnd = -1;
    for (let i = 0; i < spans.length; i += 2) {
      const [start, end] = [spans[i], spans[i + 1]];
      const piece = foldSpelling(text.slice(start, end));
      if (!this.script.test(piece)) {
        lastEnd = -1;
        continue;
      }
      if (start !== lastEnd && row.length > 0 && row[row.length - 1] !== NOT_ADJACENT) row.push(NOT_ADJACENT);
      let id = this.ids.get(piece);
      if (id === undefined) {
        id = this.pieces.length;
        this.ids.set(piece, id);
        this.pieces.push(piece);
        this.counts.push(0);
      }
      this.counts[id]++;
      row.push(id);
      lastEnd = end;
    }
    if (row.length > 1) this.sentences.push({ at: this.added, row: Int32Array.from(row) });
    this.added++;
  }

  /** The words learned from the sentences added so far, most frequent first (see the header). */
  learn(known?: WordList, options: LearnOptions = {}): Learned {
    const minCount = options.minCount ?? 3;
    const minCohesion = options.minCohesion ?? 0.7;
    const maxPieces = options.maxPieces ?? 6;
    const maxLength = options.maxLength ?? 30;
    const width = this.pieces.length;
    const pairs = new Map<number, number>();
    for (const { row } of this.sentences) {
      for (let k = 1; k < row.length; k++) {
        if (row[k] === NOT_ADJACENT || row[k - 1] === NOT_ADJACENT) continue;
        const key = row[k - 1] * width + row[k];
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
    const short = this.pieces.map((p) => this.isShort(p));
    const han = this.lang === 'zh';
    const bonded = (a: number, b: number) => {
      if (han ? !short[a] && !short[b] : !short[a] || !short[b]) return false;
      const n = pairs.get(a * width + b) ?? 0;
      return n >= minCount && n >= minCohesion * this.counts[a] && n >= minCohesion * this.counts[b];
    };
    const runs = new Map<string, { count: number; pieces: number; sentences: number[] }>();
    for (const { at, row } of this.sentences) {
      for (let k = 0; k < row.length;) {
        let end = k + 1;
        while (end < row.length && row[k] !== NOT_ADJACENT && row[end] !== NOT_ADJACENT && bonded(row[end - 1], row[end])) end++;
        if (end - k >= 2 && end - k <= maxPieces) {
          let word = '';
          for (let p = k; p < end; p++) word += this.pieces[row[p]];
          const run = runs.get(word) ?? { count: 0, pieces: end - k, sentences: [] };
          run.count++;
          if (run.sentences[run.sentences.length - 1] !== at) run.sentences.push(at);
          runs.set(word, run);
        }
        k = end;
      }
    }
    const words: LearnedWord[] = [];
    const holding = new Set<number>();
    for (const [word, { count, pieces, sentences }] of runs) {
      if (count < minCount || word.length > maxLength) continue;
      if (known?.has(word)) continue;
      words.push({ word, count, pieces });
      for (const at of sentences) holding.add(at);
    }
    words.sort((x, y) => y.count - x.count || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
    return { words, sentences: [...holding].sort((a, b) => a - b) };
  }

  /** One Han character, or a Lao/Thai piece of fewer than LONG_LETTERS letters (about a syllable). */
  private isShort(piece: string): boolean {
    if (this.lang === 'zh') return piece.length === 1;
    let letters = 0;
    for (const c of piece) if (!MARK.test(c)) letters++;
    return letters < LONG_LETTERS;
  }
}

/**
 * A sentence's first segmentation (flat spans over `text`) with the pieces of `learned` words
 * merged, by longest match as any word list merges (word-merge.ts). Merging the first cut's
 * pieces gives what segmenting again with the grown list gives (the learned words are runs of
 * those pieces; docs/experiments.md), at the cost of a trie walk instead of ICU's.
 */
export function mergeLearned(text: string, spans: ArrayLike<number>, learned: WordList): number[] {
  const shadow = spellingShadow(text);
  if (!shadow) return applyWordList(text, Array.from(spans), learned, 1);
  const at = new Map<number, number>();
  shadow.origin.forEach((original, k) => at.set(original, k));
  const merged = applyWordList(
    shadow.text,
    Array.from(spans, (x) => at.get(x)!),
    learned,
    1,
  );
  return merged.map((x) => shadow.origin[x]);
}

/** Learned words as a word list file (word-list-file.ts reads it back: # lines are comments). */
export function formatLearnedWords(lang: string, words: readonly LearnedWord[]): string {
  const head = [
    `# Words learned from the corpus (${lang}): runs of pieces that recur and hold together.`,
    '# One word a line, each after a comment saying how often it recurred; a word list file (--word-list reads it).',
  ];
  return [...head, ...words.flatMap((w) => [`# ${w.count} occurrences, ${w.pieces} pieces`, w.word])].join('\n') + '\n';
}
