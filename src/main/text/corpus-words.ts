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
//
// From the parallel side (when add() is given the other side's cut, which should be words: a
// language written with spaces; on the embassy corpus a Thai side cut by ICU kept apart Lao
// words it had cut into syllables itself, docs/experiments.md): a run of pieces that
// consistently aligns to one word of the other side is one word (Thai แม|รี่ ↔ Mary, Chinese
// 马|利亚 ↔ maria). The alignment is a quick statistical one: each piece goes to the word of
// its sentence's other side with the highest Dice coefficient over the corpus's sentences
// (2·both / (piece's + word's sentences)), when that is at least minDice and both meet in
// minCount sentences. Adjacent pieces that go to the same word form a run; pieces that go to
// two different words are never glued, whatever the corpus-level bonds say of them. A run is
// learned when it went to one word at least minCount times and in at least minCohesion of all
// the places where its pieces stand next to each other (so a run whose pieces usually go to
// different words, or to none, stays cut), when one of each two neighbours stands mostly next
// to the other (a pronoun and a negation that translate one English word stay apart), when it
// matches the word at least as well as any of its pieces does, and when one of each two
// neighbours is short as above. And a corpus-level run whose two neighbouring pieces go to
// two different words more often than to one is not learned: nothing is glued across a
// boundary of the other side.
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
  /** Learn runs of recurring, cohesive pieces (default true). */
  corpus?: boolean;
  /**
   * Learn runs that align to one word of the parallel side, where add() was given it (default
   * true). Where it was given, corpus-level runs its words keep apart are dropped either way.
   */
  parallel?: boolean;
  /** Dice coefficient a piece's link to a word of the parallel side needs (default 0.3). */
  minDice?: number;
}

export interface LearnedWord {
  word: string;
  /** occurrences as one run of bonded pieces */
  count: number;
  /** pieces of the first segmentation it joins (at its first occurrence) */
  pieces: number;
  /** the word of the parallel side it aligns to, when learned from the parallel side */
  aligned?: string;
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

/**
 * Whether an import learns words for `lang` unless told not to: Lao and Thai, corpus-level
 * words only (the parallel side keeping its words apart). On Chinese, and from the runs
 * aligned to one word of the parallel side, too many learned words span two words for a
 * default (docs/experiments.md, "Can the parallel side tell which syllables make one word?").
 */
export function learnsByDefault(lang: string): boolean {
  return lang === 'lo' || lang === 'th';
}

/** Piece ids of one sentence; -1 stands between two pieces that are not adjacent. */
interface Sentence {
  /** the sentence's number: how many sentences were added before it */
  at: number;
  row: Int32Array;
  /** ids of the distinct words of the sentence's parallel side (add()'s `other`), ascending */
  other?: Int32Array;
}

/** The other side of a sentence's pair: its text and the flat spans of its cut. */
export interface ParallelSide {
  text: string;
  spans: ArrayLike<number>;
}

/** What learn() finds. */
export interface Learned {
  words: LearnedWord[];
  /** Numbers (in the order add() was called) of the sentences that hold a learned word, ascending. */
  sentences: number[];
}

const NOT_ADJACENT = -1;
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
/** Lao and Thai pieces of this many letters or more (marks not counted) are not syllables (isShort). */
const LONG_LETTERS = 5;

/** A candidate word: its occurrences as one run, its pieces, the sentences holding it, and the parallel side's word it aligns to. */
interface Run {
  count: number;
  pieces: number;
  sentences: number[];
  aligned?: string;
  /** a corpus-level run's piece ids (at its first occurrence) */
  ids?: number[];
}

function addRun(runs: Map<string, Run>, ids: number[], word: string, at: number): void {
  const run = runs.get(word) ?? { count: 0, pieces: ids.length, sentences: [], ids };
  run.count++;
  if (run.sentences[run.sentences.length - 1] !== at) run.sentences.push(at);
  runs.set(word, run);
}

/** Whether the piece at k stands next to another piece (nothing between them). */
function hasNeighbour(row: Int32Array, k: number): boolean {
  return (k > 0 && row[k - 1] !== NOT_ADJACENT) || (k + 1 < row.length && row[k + 1] !== NOT_ADJACENT);
}

export class CorpusWords {
  private readonly script: RegExp;
  private readonly ids = new Map<string, number>();
  private readonly pieces: string[] = [];
  private readonly counts: number[] = [];
  private readonly sentences: Sentence[] = [];
  /** the parallel side's words (lowercased tokens holding a letter), by id */
  private readonly otherIds = new Map<string, number>();
  private readonly otherWords: string[] = [];
  private added = 0;

  /** `lang`: lo, th or zh (learnsWords). */
  constructor(private readonly lang: string) {
    const script = SCRIPT[lang];
    if (!script) throw new Error(`no words are learned for language ${lang}`);
    this.script = script;
  }

  /** Adds one sentence: its text and the flat spans of its first segmentation (and, for learning from it, its pair's other side). */
  add(text: string, spans: ArrayLike<number>, other?: ParallelSide): void {
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
    if (row.length > 1) this.sentences.push({ at: this.added, row: Int32Array.from(row), other: other && this.otherOf(other) });
    this.added++;
  }

  /** Ids of the distinct words of a parallel side (tokens holding a letter, lowercased). */
  private otherOf({ text, spans }: ParallelSide): Int32Array {
    const ids = new Set<number>();
    for (let i = 0; i < spans.length; i += 2) {
      const word = text.slice(spans[i], spans[i + 1]).toLowerCase();
      if (!LETTER.test(word)) continue;
      let id = this.otherIds.get(word);
      if (id === undefined) {
        id = this.otherWords.length;
        this.otherIds.set(word, id);
        this.otherWords.push(word);
      }
      ids.add(id);
    }
    return Int32Array.from([...ids].sort((a, b) => a - b));
  }

  /** The words learned from the sentences added so far, most frequent first (see the header). */
  learn(known?: WordList, options: LearnOptions = {}): Learned {
    const minCount = options.minCount ?? 3;
    const maxPieces = options.maxPieces ?? 6;
    const maxLength = options.maxLength ?? 30;
    const runs = new Map<string, Run>();
    if (options.corpus ?? true) this.corpusRuns(runs, minCount, options.minCohesion ?? 0.7, maxPieces);
    this.parallelRuns(runs, options.parallel ?? true, minCount, options.minCohesion ?? 0.5, options.minDice ?? 0.3, maxPieces);
    const words: LearnedWord[] = [];
    const holding = new Set<number>();
    for (const [word, { count, pieces, sentences, aligned }] of runs) {
      if (count < minCount || word.length > maxLength) continue;
      if (known?.has(word)) continue;
      words.push(aligned === undefined ? { word, count, pieces } : { word, count, pieces, aligned });
      for (const at of sentences) holding.add(at);
    }
    words.sort((x, y) => y.count - x.count || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0));
    return { words, sentences: [...holding].sort((a, b) => a - b) };
  }

  /** The runs of bonded pieces (corpus-level learning, see the header), added to `runs`. */
  private corpusRuns(runs: Map<string, Run>, minCount: number, minCohesion: number, maxPieces: number): void {
    const width = this.pieces.length;
    const pairs = this.pairCounts();
    const short = this.pieces.map((p) => this.isShort(p));
    const han = this.lang === 'zh';
    const bonded = (a: number, b: number) => {
      if (han ? !short[a] && !short[b] : !short[a] || !short[b]) return false;
      const n = pairs.get(a * width + b) ?? 0;
      return n >= minCount && n >= minCohesion * this.counts[a] && n >= minCohesion * this.counts[b];
    };
    for (const { at, row } of this.sentences) {
      for (let k = 0; k < row.length;) {
        let end = k + 1;
        while (end < row.length && row[k] !== NOT_ADJACENT && row[end] !== NOT_ADJACENT && bonded(row[end - 1], row[end])) end++;
        if (end - k >= 2 && end - k <= maxPieces) addRun(runs, Array.from(row.subarray(k, end)), this.wordOf(row, k, end), at);
        k = end;
      }
    }
  }

  /** How often each two pieces stand next to each other (key a · pieces + b). */
  private pairCounts(): Map<number, number> {
    const width = this.pieces.length;
    const pairs = new Map<number, number>();
    for (const { row } of this.sentences) {
      for (let k = 1; k < row.length; k++) {
        if (row[k] === NOT_ADJACENT || row[k - 1] === NOT_ADJACENT) continue;
        const key = row[k - 1] * width + row[k];
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
    return pairs;
  }

  /**
   * The parallel side's part (see the header): the corpus-level runs it keeps apart are taken
   * out of `runs`; with addWords, the runs that align to one of its words are added where the
   * corpus-level pass has not found the same word.
   */
  private parallelRuns(
    runs: Map<string, Run>,
    addWords: boolean,
    minCount: number,
    minCohesion: number,
    minDice: number,
    maxPieces: number,
  ): void {
    const parallel = this.sentences.filter((s) => s.other !== undefined && s.other.length > 0);
    if (parallel.length === 0) return;
    // sentences holding each piece, each word of the other side, and both (pieces with a neighbour only)
    const width = this.otherWords.length;
    const pieceIn = new Int32Array(this.pieces.length);
    const wordIn = new Int32Array(width);
    const both = new Map<number, number>();
    for (const { row, other } of parallel) {
      for (const w of other!) wordIn[w]++;
      for (const p of new Set(row)) if (p !== NOT_ADJACENT) pieceIn[p]++;
      for (const p of new Set(row.filter((p, k) => p !== NOT_ADJACENT && hasNeighbour(row, k)))) {
        for (const w of other!) both.set(p * width + w, (both.get(p * width + w) ?? 0) + 1);
      }
    }
    const dice = (p: number, w: number) => (2 * (both.get(p * width + w) ?? 0)) / (pieceIn[p] + wordIn[w]);
    // the word a piece goes to: the best by Dice, and strictly better than any other (a tie, as with
    // the two words of "abu sayyaf", is a link to two words); -1 when there is none
    const linkOf = (p: number, other: Int32Array) => {
      let [best, first, second] = [-1, 0, 0];
      for (const w of other) {
        if ((both.get(p * width + w) ?? 0) < minCount) continue;
        const d = dice(p, w);
        if (d > first) [best, first, second] = [w, d, first];
        else if (d > second) second = d;
      }
      return first >= minDice && first > second ? best : -1;
    };
    // runs of adjacent pieces that go to one word, by the word each went to; one of each two
    // neighbours must be short (a syllable, a Han character), so two words that translate one
    // (Chinese 贾南德拉|国王 ↔ king) stay apart
    const short = this.pieces.map((p) => this.isShort(p));
    const aligned = new Map<string, { pieces: number; to: Map<number, number> }>();
    // how often two neighbours go to two different words, and to one (key a · pieces + b)
    const size = this.pieces.length;
    const [apart, together] = [new Map<number, number>(), new Map<number, number>()];
    for (const { row, other } of parallel) {
      const links = Array.from(row, (p, k) => (p !== NOT_ADJACENT && hasNeighbour(row, k) ? linkOf(p, other!) : -1));
      for (let k = 1; k < row.length; k++) {
        if (links[k - 1] < 0 || links[k] < 0 || row[k] === NOT_ADJACENT || row[k - 1] === NOT_ADJACENT) continue;
        const counts = links[k - 1] === links[k] ? together : apart;
        counts.set(row[k - 1] * size + row[k], (counts.get(row[k - 1] * size + row[k]) ?? 0) + 1);
      }
      for (let k = 0; k < row.length;) {
        let end = k + 1;
        while (end < row.length && links[k] >= 0 && links[end] === links[k] && (short[row[end - 1]] || short[row[end]])) end++;
        if (end - k >= 2 && end - k <= maxPieces) {
          const key = row.slice(k, end).join(',');
          const run = aligned.get(key) ?? { pieces: end - k, to: new Map<number, number>() };
          run.to.set(links[k], (run.to.get(links[k]) ?? 0) + 1);
          aligned.set(key, run);
        }
        k = end;
      }
    }
    // every place where a run's pieces stand next to each other, aligned or not, and the parallel sides there
    const found = new Map<string, Sentence[]>();
    for (const key of aligned.keys()) found.set(key, []);
    for (const sentence of this.sentences) {
      const row = sentence.row;
      for (let k = 0; k < row.length; k++) {
        let key = String(row[k]);
        for (let end = k + 1; end < row.length && end - k < maxPieces && row[end] !== NOT_ADJACENT && row[k] !== NOT_ADJACENT; end++) {
          key += `,${row[end]}`;
          found.get(key)?.push(sentence);
        }
      }
    }
    // a corpus-level run is not glued where the parallel side keeps two of its pieces apart
    // more often than together (never across a boundary of the other side)
    for (const [word, run] of runs) {
      const ids = run.ids ?? [];
      const split = ids.slice(1).some((b, i) => {
        const n = apart.get(ids[i] * size + b) ?? 0;
        return n >= minCount && n > (together.get(ids[i] * size + b) ?? 0);
      });
      if (split) runs.delete(word);
    }
    if (!addWords) return;
    const pairs = this.pairCounts();
    for (const [key, { pieces, to }] of aligned) {
      const [word, n] = [...to].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a));
      const places = found.get(key)!;
      if (n < minCount || n < minCohesion * places.length) continue;
      const ids = key.split(',').map(Number);
      // each two neighbours: one of them stands mostly in the pair (ฉัน|ไม่, "I"|"not", both stand with anything)
      const held = ids
        .slice(1)
        .every((b, i) => (pairs.get(ids[i] * size + b) ?? 0) >= minCohesion * Math.min(this.counts[ids[i]], this.counts[b]));
      // the run translates the word at least as well as any of its pieces (บน|โต๊ะ ↔ table: โต๊ะ alone does better)
      const sentencesOf = [...new Set(places)].filter((s) => s.other !== undefined && s.other.length > 0);
      const withWord = sentencesOf.filter((s) => s.other!.includes(word)).length;
      const runDice = (2 * withWord) / (sentencesOf.length + wordIn[word]);
      if (!held || ids.some((p) => dice(p, word) > runDice)) continue;
      const text = ids.map((p) => this.pieces[p]).join('');
      if (runs.has(text)) continue;
      runs.set(text, { count: places.length, pieces, sentences: [...new Set(places.map((p) => p.at))], aligned: this.otherWords[word] });
    }
  }

  private wordOf(row: Int32Array, start: number, end: number): string {
    let word = '';
    for (let p = start; p < end; p++) word += this.pieces[row[p]];
    return word;
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
