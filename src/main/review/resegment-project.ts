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
import type { Token } from '../../shared/domain.ts';
import type { Link, LinkRef } from '../../shared/link-set.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import { alignmentSources, linksOfPair, rejectedWithAnnotator } from '../store/alignments.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { groupWriter, type PairEdit, type PairPatch, type UntranslatedMark } from '../store/edits.ts';
import { marksOfPair } from '../store/gold-layer.ts';
import { countPairs, getPairRow, iteratePairRows, offsetsOf, type PairRow } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { addSideWords, projectWordLists, type SideWords } from '../store/word-lists.ts';
import { decodeTokens } from '../text/offsets.ts';
import { SegmentPool } from '../text/segment-pool.ts';
import { identityMap, remapLinks, remapTokens } from '../text/token-remap.ts';

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
  dryRun: boolean;
}

const BATCH = 2000;

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

/** The edit flagging a kept pair, its reason appended to the note. */
function flagEdit(store: ProjectStore, k: KeptPair): PairEdit {
  const { status, note } = store.getPair(k.pairId);
  const line = `resegment kept the old tokens: ${k.reason}`;
  return { pairId: k.pairId, before: { status, note }, after: { status: 'flagged', note: note ? `${note}\n${line}` : line } };
}

/** Re-segments every pair of the project on `options.sides` (see the header). */
export async function resegmentProject(store: ProjectStore, options: ResegmentOptions): Promise<ResegmentReport> {
  const meta = store.meta();
  const ownPool = options.pool ? null : new SegmentPool({ wordLists: await projectWordLists(store, options.words?.side) });
  const pool = (options.pool ?? ownPool)!;
  const total = countPairs(store, {});
  const candidates: { pairId: number; changes: Partial<Record<Side, SideChange>> }[] = [];
  let done = 0;
  try {
    for (const rows of iteratePairRows(store, {}, BATCH)) {
      checkCancelled(options.signal);
      const next: Partial<Record<Side, Uint32Array[]>> = {};
      for (const side of options.sides) {
        const lang = side === 'src' ? meta.srcLang : meta.tgtLang;
        next[side] = await pool.segmentBatchOffsets(rows.map((r) => ({ text: side === 'src' ? r.src_text : r.tgt_text, lang })));
      }
      rows.forEach((row, k) => {
        const changes: Partial<Record<Side, SideChange>> = {};
        for (const side of options.sides) {
          const old = offsetsOf(side === 'src' ? row.src_tokens : row.tgt_tokens);
          const fresh = Uint32Array.from(next[side]![k]);
          if (!sameSpans(old, fresh)) changes[side] = { old, next: fresh, map: remapTokens(old, fresh) };
        }
        if (changes.src || changes.tgt) candidates.push({ pairId: row.id, changes });
      });
      done += rows.length;
      options.progress?.({ done, total, message: 'resegmenting' });
    }
  } finally {
    await ownPool?.close();
  }
  checkCancelled(options.signal);
  const message = options.dryRun ? 'checking links' : `saving ${candidates.length} changed pairs`;
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
  let changed = 0;
  let moved = 0;
  let saved = 0;
  const save = (c: (typeof candidates)[number]) => {
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
      }
    }
    saved++;
  };
  await writeInSlices(store, candidates, save, {
    signal: options.signal,
    readOnly: options.dryRun,
    onSlice: () => {
      group.checkNotUndone();
      options.progress?.({ done: saved, total: candidates.length, message });
    },
  });
  options.progress?.({ done: saved, total: candidates.length, message });
  const newWords = options.words && !options.dryRun ? addSideWords(store, options.words.side, options.words.from) : 0;
  return {
    pairs: total,
    changed,
    unchanged: total - changed - kept.length - moved,
    kept,
    moved,
    newWords,
    flagged: options.flagKept && !options.dryRun ? kept.length : 0,
    dryRun: options.dryRun === true,
  };
}

/** The report as the CLI prints it: counts, then one line per kept pair. */
export function formatResegmentReport(r: ResegmentReport): string {
  const head = `${r.dryRun ? 'would re-segment' : 're-segmented'} ${r.pairs} pairs: ${r.changed} changed, ${r.unchanged} unchanged, ${r.kept.length} kept their old tokens${r.flagged ? ' (flagged)' : ''}`;
  const words = r.newWords > 0 ? `; ${r.newWords} new words in the project's word lists` : '';
  const moved = r.moved > 0 ? `; ${r.moved} edited meanwhile, left alone (run again)` : '';
  const lines = r.kept.map((k) => `  kept pair ${k.pairId}: ${k.reason}`);
  return [head + words + moved, ...lines].join('\n');
}
