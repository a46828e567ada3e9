// Adjudication (INCEpTION-style curation) of one pair: two annotators' gold layers side by
// side with the project's adjudicated gold, which the merge is written to (one logged edit
// in the adjudicator's undo stack). The adjudicated gold is a layer of its own
// (store/alignments.ts), so adjudicating as one of the two compared annotators never writes
// over that annotator's gold. Both layers are read whatever the project's annotation mode:
// comparing everyone's work is what adjudication is for.
import type { Adjudication, GoldLayerOf } from '../../shared/editor-api.ts';
import type { PairDetail } from '../../shared/domain.ts';
import { linkKey, linkName, rebaseCells, type Link } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { ADJUDICATED, adjudicatedGoldOf, goldLayers } from '../store/alignments.ts';
import { recordEdit, type UntranslatedMark } from '../store/edits.ts';
import { adjudicatedGoldId, untranslatedOf } from '../store/gold-layer.ts';
import { linkTags } from '../store/project-link-tags.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { deferCheckpoint } from '../store/wal-checkpoints.ts';
import { checkIndices, markKey, sortedMarks, uniqueLinks } from './editor.ts';

function layerOf(store: ProjectStore, pair: PairDetail, alignmentId: number | null, annotator: string): GoldLayerOf {
  if (alignmentId === null) return { annotator, alignmentId, links: [], untranslated: [] };
  return {
    annotator,
    alignmentId,
    links: pair.alignments.find((a) => a.alignmentId === alignmentId)?.links ?? [],
    untranslated: untranslatedOf(store, alignmentId, pair.id),
  };
}

/** The adjudicated gold's layer of one pair. */
function adjudicatedLayer(store: ProjectStore, pair: PairDetail): GoldLayerOf {
  return layerOf(store, pair, adjudicatedGoldId(store), ADJUDICATED);
}

/** Two annotators' gold (alignments `left`, `right`) of one pair and its adjudicated gold. */
export function adjudication(store: ProjectStore, pairId: number, left: number, right: number): Adjudication {
  if (left === right) throw new UserError('adjudication compares two different annotators');
  const golds = new Map(
    goldLayers(store)
      .filter((a) => !a.adjudicated)
      .map((a) => [a.id, a.annotator]),
  );
  for (const id of [left, right]) if (!golds.has(id)) throw new UserError(`alignment ${id} is not an annotator's gold`);
  const pair = store.getPair(pairId);
  return {
    pair,
    left: layerOf(store, pair, left, golds.get(left)!),
    right: layerOf(store, pair, right, golds.get(right)!),
    result: adjudicatedLayer(store, pair),
  };
}

/**
 * Writes the adjudicated gold of one pair (links and "not translated" marks), as one edit
 * logged under `adjudicator` (their undo reverses it). A tag must be one of the project's
 * or one a gold layer of the pair already gives that link. With `base`, the layer the page
 * started from, only the cells changed from it are written (rebaseCells): another
 * adjudicator's save in between keeps its cells; without it the layer is replaced whole.
 * Returns the layer as stored.
 */
export function setAdjudicated(
  store: ProjectStore,
  adjudicator: string,
  pairId: number,
  links: readonly Link[],
  marks: readonly UntranslatedMark[],
  base?: { links: readonly Link[]; untranslated: readonly UntranslatedMark[] },
): GoldLayerOf {
  const pair = store.getPair(pairId);
  checkIndices(pair, links, marks);
  const golds = new Set(goldLayers(store).map((a) => a.id));
  const tagged = new Set(
    pair.alignments.filter((a) => golds.has(a.alignmentId)).flatMap((a) => a.links.map((l) => `${linkKey(l.s, l.t)}:${l.tag}`)),
  );
  const allowed = new Set(linkTags(store));
  const bad = links.find((l) => l.tag && !allowed.has(l.tag) && !tagged.has(`${linkKey(l.s, l.t)}:${l.tag}`));
  if (bad) throw new UserError(`pair ${pairId}: link ${linkName(bad)}: "${bad.tag}" is not one of the project's link tags`);
  const current = adjudicatedLayer(store, pair);
  const nextLinks = base
    ? uniqueLinks(rebaseCells(current.links, uniqueLinks(base.links), uniqueLinks(links), (l) => linkKey(l.s, l.t)))
    : uniqueLinks(links);
  const nextMarks = base
    ? sortedMarks(rebaseCells(current.untranslated, sortedMarks(base.untranslated), sortedMarks(marks), markKey))
    : sortedMarks(marks);
  if (JSON.stringify(nextLinks) === JSON.stringify(current.links) && JSON.stringify(nextMarks) === JSON.stringify(current.untranslated))
    return current;
  store.transaction(() => {
    const key = String(adjudicatedGoldOf(store));
    recordEdit(
      store,
      adjudicator,
      pairId,
      'adjudication.set',
      { links: { [key]: current.links }, untranslated: { [key]: current.untranslated } },
      { links: { [key]: nextLinks }, untranslated: { [key]: nextMarks } },
    );
  }, 'immediate');
  deferCheckpoint(store);
  return adjudicatedLayer(store, store.getPair(pairId));
}
