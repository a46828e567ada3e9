// Re-segmenting a whole project with its word lists (`mekong resegment`), after they have
// grown (editor fixes, a word list file): every pair's text is cut anew on a segmentation
// pool, and where the tokens change, the links of every alignment, the "not translated"
// marks and the rejected links follow their tokens (text/token-remap.ts). A pair where a
// token that holds any of those is cut across by the new tokens keeps its old tokens and is
// reported with the reason (and, asked, flagged), so no link, gold or other, is ever lost.
// The changed pairs are written as one edit group (undone as a whole, store/edits.ts), in
// short transactions (store/bounded-writes.ts) so that the app's edits go on meanwhile; each
// pair is read, checked and written in one of them. The word list file's words, if any, join
// the project's lists once every pair is written. A cancel or a crash part-way leaves the
// pairs written so far re-segmented, still one group that one undo reverses.
// With learnWords, a Lao, Thai or Chinese side's words are also learned from the corpus
// (text/corpus-words.ts): the first cut of every pair teaches them, with the pair's other side
// (its first cut too), when written with spaces, as the parallel side; the pairs
// that hold one get its pieces merged, and they join the project's lists as learned words
// (store/word-lists.ts).
import type { ResegmentChange } from '../../shared/api.ts';
import type { Token } from '../../shared/domain.ts';
import type { Link, LinkRef } from '../../shared/link-set.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import { alignmentSources, linksOfPair, rejectedWithAnnotator } from '../store/alignments.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { groupWriter, type PairEdit, type PairPatch, type UntranslatedMark } from '../store/edits.ts';
import { marksOfPair } from '../store/gold-layer.ts';
import { countPairs, getPairRow, iteratePairRows, offsetsOf, type PairRow } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { addLearnedWords, addSideWords, projectWordLists, type SideWords } from '../store/word-lists.ts';
import { CorpusWords, learnsByDefault, learnsWords, mergeLearned, type LearnedWord } from '../text/corpus-words.ts';
import { canonicalLang, usesIcu } from '../text/lang.ts';
import { decodeTokens } from '../text/offsets.ts';
import { SegmentPool } from '../text/segment-pool.ts';
import { identityMap, remapLinks, remapTokens } from '../text/token-remap.ts';
import { WordList } from '../text/word-list.ts';

type Side = 'src' | 'tgt';

/** What to re-segment and how, with the job's progress and cancel signal (both optional). */
export interface ResegmentOptions extends Partial<JobContext> {
  sides: readonly Side[];
  /** Who the edit group is logged for (their undo reverses it). */
  annotator: string;
  /** A word list file's words by side: segmentation uses them, and they join the project's lists (unless dryRun). */
  words?: { side: SideWords; from: string };
  /** Only report what would change. */
  dryRun?: boolean;
  /** Also mark the kept pairs flagged, the reason appended to their note (part of the same edit group). */
  flagKept?: boolean;
  /** Segmentation pool of the caller's (its word lists must be the project's); else one is made and closed. */
  pool?: SegmentPool;
  /**
   * Also learn words from the corpus and cut with them (see the header): true, on Lao, Thai and
   * Chinese sides, from runs that recur and from runs aligned to one word of the other side;
   * 'default', as an import does unless told not to: on Lao and Thai sides, from runs that
   * recur only (text/corpus-words.ts learnsByDefault).
   */
  learnWords?: boolean | 'default';
  /**
   * Pairs from this id on hold the cut the project's lists give now (an import has just
   * segmented them with these lists): they are not cut again, their tokens are the first cut
   * that teaches the learned words.
   */
  segmentedFrom?: number;
}

/** Words learned from one language's side(s) of the corpus. */
export interface LearnedWords {
  lang: string;
  words: LearnedWord[];
}

/** A pair that keeps its old tokens, and why. */
export interface KeptPair {
  pairId: number;
  reason: string;
}

export interface ResegmentReport {
  pairs: number;
  changed: number;
  unchanged: number;
  kept: KeptPair[];
  /** Words the word list file added to the project's lists (0 on a dry run). */
  newWords: number;
  /** Pairs whose tokens an edit changed while they were being segmented (left alone: run again). */
  moved: number;
  /** Kept pairs marked flagged (flagKept; 0 on a dry run). */
  flagged: number;
  /** Words learned from the corpus, by language (learnWords; empty otherwise). */
  learned: LearnedWords[];
  dryRun: boolean;
  /** The first MAX_CHANGES changed pairs (the Re-segment dialog's preview), their changed sides' tokens before and after. */
  changes: ResegmentChange[];
}

const BATCH = 2000;
export const MAX_CHANGES = 500;

interface SideChange {
  old: Uint32Array;
  next: Uint32Array;
  map: (number[] | null)[];
}

function sameSpans(a: Uint32Array, b: Uint32Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Tokens of one side that hold a link, a mark or a rejected link. */
function heldTokens(side: Side, links: readonly LinkRef[], marks: readonly UntranslatedMark[]): Set<number> {
  const held = new Set<number>();
  for (const l of links) held.add(side === 'src' ? l.s : l.t);
  for (const m of marks) if (m.side === side) held.add(m.index);
  return held;
}

function quote(text: string, tokens: readonly Token[]): string {
  return tokens.map((t) => text.slice(t.start, t.end)).join(' | ');
}

/** Why the pair must keep its tokens (the first held token cut across), or null. */
function conflict(row: PairRow, side: Side, change: SideChange, held: Set<number>): string | null {
  const text = side === 'src' ? row.src_text : row.tgt_text;
  const index = change.map.findIndex((m, i) => m === null && held.has(i));
  if (index < 0) return null;
  const [a, b] = [change.old[2 * index], change.old[2 * index + 1]];
  const across = decodeTokens(text, change.next).filter((t) => t.end > a && t.start < b);
  return `${side} token ${index} "${text.slice(a, b)}" holds links or marks and would be cut across by the new tokens "${quote(text, across)}"`;
}

/** The edit of one pair whose tokens change on `changes`' sides, or a reason to keep it. */
function pairEdit(
  store: ProjectStore,
  row: PairRow,
  changes: Partial<Record<Side, SideChange>>,
  models: ReadonlySet<number>,
): PairEdit | KeptPair {
  const alignments = linksOfPair(store, row.id);
  const rejected = rejectedWithAnnotator(store, row.id);
  const marks = marksOfPair(store, row.id);
  const allLinks = [...alignments.flatMap((a) => a.links), ...rejected];
  const allMarks = Object.values(marks).flat();
  for (const side of ['src', 'tgt'] as const) {
    const change = changes[side];
    const why = change && conflict(row, side, change, heldTokens(side, allLinks, allMarks));
    if (why) return { pairId: row.id, reason: why };
  }
  const map = (side: Side) => changes[side]?.map ?? identityMap(offsetsOf(side === 'src' ? row.src_tokens : row.tgt_tokens).length / 2);
  const [src, tgt] = [map('src'), map('tgt')];
  const asLinks = (list: readonly LinkRef[]): Link[] => list.map((r) => ({ s: r.s, t: r.t, kind: 'sure', score: null }));
  const movedMarks = (list: UntranslatedMark[]) =>
    [
      ...new Map(
        list.flatMap((m) => (m.side === 'src' ? src : tgt)[m.index]!.map((index) => [`${m.side}:${index}`, { side: m.side, index }])),
      ).values(),
    ].sort((x, y) => x.side.localeCompare(y.side) || x.index - y.index);
  // Only the parts the pair has go into the edit (a pair without links logs just its offsets).
  const before: PairPatch = {};
  const after: PairPatch = {};
  if (alignments.length) {
    before.links = Object.fromEntries(alignments.map((a) => [String(a.alignmentId), a.links]));
    after.links = Object.fromEntries(
      alignments.map((a) => [String(a.alignmentId), remapLinks(a.links, src, tgt, models.has(a.alignmentId) ? 'drop' : 'copy')]),
    );
  }
  if (rejected.length) {
    // Each annotator's rejections move with the tokens and stay theirs.
    before.rejectedAll = rejected;
    after.rejectedAll = [...new Set(rejected.map((r) => r.annotator))].flatMap((who) =>
      remapLinks(asLinks(rejected.filter((r) => r.annotator === who)), src, tgt).map(({ s, t }) => ({ s, t, annotator: who })),
    );
  }
  if (allMarks.length) {
    before.untranslated = marks;
    after.untranslated = Object.fromEntries(Object.entries(marks).map(([id, list]) => [id, movedMarks(list)]));
  }
  for (const side of ['src', 'tgt'] as const) {
    const change = changes[side];
    if (!change) continue;
    before[side === 'src' ? 'srcOffsets' : 'tgtOffsets'] = Array.from(change.old);
    after[side === 'src' ? 'srcOffsets' : 'tgtOffsets'] = Array.from(change.next);
  }
  return { pairId: row.id, before, after };
}

/** A changed pair as the report lists it: each changed side's text and offsets before and after. */
function changeOf(row: PairRow, changes: Partial<Record<Side, SideChange>>): ResegmentChange {
  return {
    pairId: row.id,
    sides: (['src', 'tgt'] as const).flatMap((side) => {
      const change = changes[side];
      return change
        ? [{ side, text: side === 'src' ? row.src_text : row.tgt_text, before: Array.from(change.old), after: Array.from(change.next) }]
        : [];
    }),
  };
}

/** The edit flagging a kept pair, its reason appended to the note. */
function flagEdit(store: ProjectStore, k: KeptPair): PairEdit {
  const { status, note } = store.getPair(k.pairId);
  const line = `resegment kept the old tokens: ${k.reason}`;
  return { pairId: k.pairId, before: { status, note }, after: { status: 'flagged', note: note ? `${note}\n${line}` : line } };
}

/** A corpus-words learner for one language, and the pair and side each sentence it was given came from. */
interface Learner {
  words: CorpusWords;
  from: { pairId: number; side: Side }[];
}

/** The learners of `sides`' languages (one per language, both sides sharing it when the languages are one). */
function learnersOf(meta: { srcLang: string; tgtLang: string }, sides: readonly Side[], mode: true | 'default'): Map<string, Learner> {
  const learners = new Map<string, Learner>();
  const learns = mode === 'default' ? learnsByDefault : learnsWords;
  for (const side of sides) {
    const lang = side === 'src' ? meta.srcLang : meta.tgtLang;
    const code = canonicalLang(lang) ?? lang;
    if (learns(code) && !learners.has(lang)) learners.set(lang, { words: new CorpusWords(code), from: [] });
  }
  return learners;
}

/** Whether an import of a project in these languages learns words unless told not to (learnWords 'default'). */
export function learnsOnImport(meta: { srcLang: string; tgtLang: string }): boolean {
  return learnersOf(meta, ['src', 'tgt'], 'default').size > 0;
}

/** Re-segments every pair of the project on `options.sides` (see the header). */
export async function resegmentProject(store: ProjectStore, options: ResegmentOptions): Promise<ResegmentReport> {
  const meta = store.meta();
  const langOf = (side: Side) => (side === 'src' ? meta.srcLang : meta.tgtLang);
  const textOf = (row: PairRow, side: Side) => (side === 'src' ? row.src_text : row.tgt_text);
  const learners = options.learnWords ? learnersOf(meta, options.sides, options.learnWords) : new Map<string, Learner>();
  const lists = options.pool && learners.size === 0 ? {} : await projectWordLists(store, options.words?.side);
  // made when a pair needs cutting: an import's own pairs (segmentedFrom) need none
  let ownPool: SegmentPool | null = null;
  const pool = () => options.pool ?? (ownPool ??= new SegmentPool({ wordLists: lists }));
  const cutBefore = options.segmentedFrom ?? Infinity;
  const total = countPairs(store, {});
  const candidates = new Map<number, Partial<Record<Side, SideChange>>>();
  const learned: LearnedWords[] = [];
  /** Records the new spans of one side of a pair: a change when they differ from its tokens. */
  const record = (row: PairRow, side: Side, fresh: Uint32Array) => {
    const changes = candidates.get(row.id) ?? {};
    const old = offsetsOf(side === 'src' ? row.src_tokens : row.tgt_tokens);
    if (!sameSpans(old, fresh)) changes[side] = { old, next: fresh, map: remapTokens(old, fresh) };
    else delete changes[side];
    if (changes.src || changes.tgt) candidates.set(row.id, changes);
    else candidates.delete(row.id);
  };
  let done = 0;
  try {
    for (const rows of iteratePairRows(store, {}, BATCH)) {
      checkCancelled(options.signal);
      const toCut = rows.filter((r) => r.id < cutBefore);
      // each row's first cut by side: cut now, or (a side not re-segmented, an import's own pair) its tokens
      const firsts: Record<Side, Uint32Array[]> = {
        src: rows.map((r) => offsetsOf(r.src_tokens)),
        tgt: rows.map((r) => offsetsOf(r.tgt_tokens)),
      };
      for (const side of options.sides) {
        const next = toCut.length
          ? await pool().segmentBatchOffsets(toCut.map((r) => ({ text: textOf(r, side), lang: langOf(side) })))
          : [];
        let cut = 0;
        rows.forEach((row, i) => {
          if (row.id >= cutBefore) return;
          firsts[side][i] = Uint32Array.from(next[cut++]);
          record(row, side, firsts[side][i]);
        });
      }
      // the learners learn from each side's first cut, with the pair's other side as its parallel
      // side where that is cut into words (written with spaces: a Thai side cut by ICU into
      // syllables would keep the syllables of a Lao word apart)
      for (const side of options.sides) {
        const learner = learners.get(langOf(side));
        if (!learner) continue;
        const other: Side = side === 'src' ? 'tgt' : 'src';
        const parallel = !usesIcu(canonicalLang(langOf(other)) ?? '');
        rows.forEach((row, i) => {
          learner.words.add(
            textOf(row, side),
            firsts[side][i],
            parallel ? { text: textOf(row, other), spans: firsts[other][i] } : undefined,
          );
          learner.from.push({ pairId: row.id, side });
        });
      }
      done += rows.length;
      options.progress?.({ done, total, message: 'resegmenting' });
    }
    // The pairs that hold a learned word get its pieces merged (text/corpus-words.ts mergeLearned).
    for (const [lang, learner] of learners) {
      checkCancelled(options.signal);
      const { words, sentences } = learner.words.learn(lists[lang], { parallel: options.learnWords === true });
      if (words.length === 0) continue;
      learned.push({ lang, words });
      const list = WordList.fromWords(
        words.map((w) => w.word),
        'merge-only',
      );
      for (const at of sentences) {
        const { pairId, side } = learner.from[at];
        const row = getPairRow(store, pairId);
        if (!row) continue;
        const first = candidates.get(pairId)?.[side]?.next ?? offsetsOf(side === 'src' ? row.src_tokens : row.tgt_tokens);
        record(row, side, Uint32Array.from(mergeLearned(side === 'src' ? row.src_text : row.tgt_text, first, list)));
      }
    }
  } finally {
    await (ownPool as SegmentPool | null)?.close();
  }
  checkCancelled(options.signal);
  const changedPairs = [...candidates].sort((a, b) => a[0] - b[0]).map(([pairId, changes]) => ({ pairId, changes }));
  const message = options.dryRun ? 'checking links' : `saving ${changedPairs.length} changed pairs`;
  // Each pair's links, marks and rejected links are read, and its edit written, in one
  // transaction that holds the write lock from its start: an edit made meanwhile (the app
  // open on the project) is never overwritten by an edit planned on what the pair held before it.
  const group = groupWriter(store, options.annotator, 'tokens.resegment');
  // A model's links on a token split in several go to none of the pieces (text/token-remap.ts).
  const models = new Set(
    alignmentSources(store)
      .filter((a) => a.origin === 'model')
      .map((a) => a.id),
  );
  const kept: KeptPair[] = [];
  const changes: ResegmentChange[] = [];
  let changed = 0;
  let moved = 0;
  let saved = 0;
  const save = (c: (typeof changedPairs)[number]) => {
    const row = getPairRow(store, c.pairId);
    const same = (side: Side) => {
      const change = c.changes[side];
      return !change || (row !== undefined && sameSpans(offsetsOf(side === 'src' ? row.src_tokens : row.tgt_tokens), change.old));
    };
    if (!row || !same('src') || !same('tgt')) moved++;
    else {
      const edit = pairEdit(store, row, c.changes, models);
      if ('reason' in edit) {
        kept.push(edit);
        if (options.flagKept && !options.dryRun) group.add(flagEdit(store, edit));
      } else {
        changed++;
        if (!options.dryRun) group.add(edit);
        if (changes.length < MAX_CHANGES) changes.push(changeOf(row, c.changes));
      }
    }
    saved++;
  };
  await writeInSlices(store, changedPairs, save, {
    signal: options.signal,
    readOnly: options.dryRun,
    onSlice: () => {
      group.checkNotUndone();
      options.progress?.({ done: saved, total: changedPairs.length, message });
    },
  });
  options.progress?.({ done: saved, total: changedPairs.length, message });
  const newWords = options.words && !options.dryRun ? addSideWords(store, options.words.side, options.words.from) : 0;
  if (!options.dryRun)
    for (const { lang, words } of learned)
      addLearnedWords(
        store,
        lang,
        words.map((w) => w.word),
      );
  return {
    pairs: total,
    changed,
    unchanged: total - changed - kept.length - moved,
    kept,
    moved,
    newWords,
    flagged: options.flagKept && !options.dryRun ? kept.length : 0,
    learned,
    dryRun: options.dryRun === true,
    changes,
  };
}

/**
 * After an import (the CLI's and the app's): learns words from the project's corpus and cuts
 * with them, as `learnWords` says (unset: 'default', which learns only where a side's language
 * learns by default); the import's own pairs, from id `segmentedFrom` on, are not cut again.
 * Null when nothing is learned.
 */
export async function learnAfterImport(
  store: ProjectStore,
  options: { learnWords?: boolean; segmentedFrom: number; annotator: string } & Partial<JobContext>,
): Promise<ResegmentReport | null> {
  const mode = options.learnWords ?? 'default';
  if (mode === false || (mode === 'default' && !learnsOnImport(store.meta()))) return null;
  return resegmentProject(store, {
    sides: ['src', 'tgt'],
    annotator: options.annotator,
    learnWords: mode,
    segmentedFrom: options.segmentedFrom,
    signal: options.signal,
    progress: options.progress,
  });
}

/** The report as the CLI prints it: counts, then one line per kept pair. */
export function formatResegmentReport(r: ResegmentReport): string {
  const head = `${r.dryRun ? 'would re-segment' : 're-segmented'} ${r.pairs} pairs: ${r.changed} changed, ${r.unchanged} unchanged, ${r.kept.length} kept their old tokens${r.flagged ? ' (flagged)' : ''}`;
  const words = r.newWords > 0 ? `; ${r.newWords} new words in the project's word lists` : '';
  const moved = r.moved > 0 ? `; ${r.moved} edited meanwhile, left alone (run again)` : '';
  const lines = r.kept.map((k) => `  kept pair ${k.pairId}: ${k.reason}`);
  const learned = r.learned.map(
    (l) =>
      `  learned ${l.words.length} ${l.lang} words from the corpus${r.dryRun ? '' : " (now in the project's word list)"}: ` +
      l.words
        .slice(0, 20)
        .map((w) => w.word)
        .join(' ') +
      (l.words.length > 20 ? ' …' : ''),
  );
  return [head + words + moved, ...learned, ...lines].join('\n');
}
