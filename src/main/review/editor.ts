// The editor's view of one pair and its link edits: the annotator's gold layer (links and
// "not translated" marks) and the pair's rejected links are replaced as a whole, each
// change applied and logged as one undoable edit (edits.ts) before the result returns.
import type { EditorPair, TokenSide } from '../../shared/editor-api.ts';
import { linkKey, linkName, sortedLinks, type Link, type LinkRef } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { goldAlignmentOf, goldLayers, rejectedOfPair, rejectedWithAnnotator } from '../store/alignments.ts';
import { annotatorsShare } from '../store/annotation-mode.ts';
import { recordEdit, type PairPatch, type UntranslatedMark } from '../store/edits.ts';
import { goldIdOf, untranslatedOf } from '../store/gold-layer.ts';
import { linkTags } from '../store/project-link-tags.ts';
import { reviewViewer } from '../store/pair-reviews.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { deferCheckpoint } from '../store/wal-checkpoints.ts';

/**
 * The pair as `annotator` sees it in the editor. Unless the project's annotators share
 * their work, other annotators' gold and rejections are left out and the status and note
 * are the annotator's own (blind double annotation).
 */
export function editorPair(store: ProjectStore, annotator: string, pairId: number): EditorPair {
  const pair = store.getPair(pairId, reviewViewer(store, annotator));
  const goldId = goldIdOf(store, annotator);
  const gold = goldId === null ? [] : (pair.alignments.find((a) => a.alignmentId === goldId)?.links ?? []);
  const untranslated = goldId === null ? [] : untranslatedOf(store, goldId, pairId);
  if (annotatorsShare(store)) return { ...pair, goldId, gold, untranslated };
  const othersGold = new Set(
    goldLayers(store)
      .filter((a) => a.id !== goldId)
      .map((a) => a.id),
  );
  return {
    ...pair,
    alignments: pair.alignments.filter((a) => !othersGold.has(a.alignmentId)),
    rejected: rejectedOfPair(store, pairId, annotator),
    goldId,
    gold,
    untranslated,
  };
}

export function checkIndices(
  pair: Pick<EditorPair, 'id' | 'srcTokens' | 'tgtTokens'>,
  links: readonly LinkRef[],
  marks: readonly UntranslatedMark[],
): void {
  const bad = links.find((l) => l.s >= pair.srcTokens.length || l.t >= pair.tgtTokens.length);
  if (bad)
    throw new UserError(`pair ${pair.id}: link ${linkName(bad)} is outside its ${pair.srcTokens.length}×${pair.tgtTokens.length} tokens`);
  const badMark = marks.find((m) => m.index >= (m.side === 'src' ? pair.srcTokens : pair.tgtTokens).length);
  if (badMark) throw new UserError(`pair ${pair.id}: no ${badMark.side} token ${badMark.index}`);
}

/** A tag must be one of the project's, unless the link had it already (a tag dropped from the set stays where it was). */
function checkTags(store: ProjectStore, pair: EditorPair, links: readonly Link[]): void {
  const allowed = new Set(linkTags(store));
  const had = new Map(pair.gold.map((l) => [linkKey(l.s, l.t), l.tag]));
  const bad = links.find((l) => l.tag && !allowed.has(l.tag) && had.get(linkKey(l.s, l.t)) !== l.tag);
  if (bad) throw new UserError(`pair ${pair.id}: link ${linkName(bad)}: "${bad.tag}" is not one of the project's link tags`);
}

/** One link per cell (the last given), with only the fields a link has, sorted by (s, t). */
export function uniqueLinks(links: readonly Link[]): Link[] {
  const unique = new Map(
    links.map((l) => [
      linkKey(l.s, l.t),
      l.tag ? { s: l.s, t: l.t, kind: l.kind, score: l.score, tag: l.tag } : { s: l.s, t: l.t, kind: l.kind, score: l.score },
    ]),
  );
  return sortedLinks([...unique.values()]);
}

/** The cell of a "not translated" mark: its side and token. */
export function markKey(m: UntranslatedMark): string {
  return `${m.side}:${m.index}`;
}

export function sortedMarks(marks: readonly UntranslatedMark[]): UntranslatedMark[] {
  const unique = new Map(marks.map((m) => [markKey(m), { side: m.side, index: m.index }]));
  return [...unique.values()].sort((a, b) => a.side.localeCompare(b.side) || a.index - b.index);
}

/** Replaces the annotator's gold links and "not translated" marks of one pair, as one logged edit. */
export function setGold(
  store: ProjectStore,
  annotator: string,
  pairId: number,
  links: readonly Link[],
  marks: readonly UntranslatedMark[],
): EditorPair {
  const current = editorPair(store, annotator, pairId);
  checkIndices(current, links, marks);
  checkTags(store, current, links);
  const nextLinks = uniqueLinks(links);
  const nextMarks = sortedMarks(marks);
  if (JSON.stringify(nextLinks) === JSON.stringify(current.gold) && JSON.stringify(nextMarks) === JSON.stringify(current.untranslated))
    return current;
  // Takes the write lock at its start: a transaction that read first would fail at once, not
  // wait, when another connection is writing (store/edits.ts).
  store.transaction(() => {
    const key = String(goldAlignmentOf(store, annotator));
    const before: PairPatch = { links: { [key]: current.gold }, untranslated: { [key]: current.untranslated } };
    const after: PairPatch = { links: { [key]: nextLinks }, untranslated: { [key]: nextMarks } };
    recordEdit(store, annotator, pairId, 'links.set', before, after);
  }, 'immediate');
  deferCheckpoint(store);
  return editorPair(store, annotator, pairId);
}

/** Replaces the pair's rejected links (never suggested again), as one logged edit. */
export function setRejected(store: ProjectStore, annotator: string, pairId: number, rejected: readonly LinkRef[]): EditorPair {
  const current = editorPair(store, annotator, pairId);
  checkIndices(current, rejected, []);
  const next = sortedLinks([...new Map(rejected.map((r) => [linkKey(r.s, r.t), { s: r.s, t: r.t }])).values()]);
  if (JSON.stringify(next) === JSON.stringify(current.rejected)) return current;
  if (annotatorsShare(store)) {
    // The annotator saw everyone's rejections: the pair's set is replaced, each kept rejection keeping who made it.
    const before = rejectedWithAnnotator(store, pairId);
    const by = new Map(before.map((r) => [linkKey(r.s, r.t), r.annotator]));
    const after = next.map((r) => ({ ...r, annotator: by.get(linkKey(r.s, r.t)) ?? annotator }));
    recordEdit(store, annotator, pairId, 'links.reject', { rejectedAll: before }, { rejectedAll: after });
  } else recordEdit(store, annotator, pairId, 'links.reject', { rejected: current.rejected }, { rejected: next });
  deferCheckpoint(store);
  return editorPair(store, annotator, pairId);
}

/** Rejected links, one per cell and annotator (the last given). */
function byAnnotator<R extends LinkRef & { annotator: string }>(rejected: readonly R[]): R[] {
  const cells = new Map<number, Map<string, R>>();
  for (const r of rejected) {
    const key = linkKey(r.s, r.t);
    (cells.get(key) ?? cells.set(key, new Map()).get(key)!).set(r.annotator, r);
  }
  return [...cells.values()].flatMap((byWho) => [...byWho.values()]);
}

/** A token index on `side` after a split of token `at` (into at, at+1) or a merge of at and at+1 (into at). */
function reindex(i: number, kind: 'split' | 'merge', at: number): number[] {
  if (kind === 'split') return i < at ? [i] : i > at ? [i + 1] : [at, at + 1];
  return i <= at ? [i] : [i - 1];
}

/** Marks and rejected links re-indexed after a token split or merge on `side` (duplicates dropped). */
export function reindexAfterTokenEdit<R extends LinkRef & { annotator: string }>(
  kind: 'split' | 'merge',
  side: TokenSide,
  at: number,
  marks: Record<string, UntranslatedMark[]>,
  rejected: readonly R[],
): {
  untranslated: Record<string, UntranslatedMark[]>;
  rejectedAll: R[];
} {
  const untranslated = Object.fromEntries(
    Object.entries(marks).map(([id, list]) => [
      id,
      sortedMarks(list.flatMap((m) => (m.side === side ? reindex(m.index, kind, at).map((index) => ({ side, index })) : [m]))),
    ]),
  );
  const moved = rejected.flatMap((r) =>
    side === 'src' ? reindex(r.s, kind, at).map((s) => ({ ...r, s })) : reindex(r.t, kind, at).map((t) => ({ ...r, t })),
  );
  return {
    untranslated,
    rejectedAll: sortedLinks(byAnnotator(moved)),
  };
}
