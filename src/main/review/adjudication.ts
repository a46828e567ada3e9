// Adjudication (INCEpTION-style curation) of one pair: two annotators' gold layers side by
// side with the adjudicator's own, which the merge is written to through the editor's
// setGold (one logged, undoable edit). Both layers are read whatever the project's
// annotation mode: comparing everyone's work is what adjudication is for.
import type { Adjudication, GoldLayerOf } from '../../shared/editor-api.ts';
import type { PairDetail } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import { listAlignments } from '../store/alignments.ts';
import { goldIdOf, untranslatedOf } from '../store/gold-layer.ts';
import type { ProjectStore } from '../store/project-store.ts';

function layerOf(store: ProjectStore, pair: PairDetail, alignmentId: number | null, annotator: string): GoldLayerOf {
  if (alignmentId === null) return { annotator, alignmentId, links: [], untranslated: [] };
  return {
    annotator,
    alignmentId,
    links: pair.alignments.find((a) => a.alignmentId === alignmentId)?.links ?? [],
    untranslated: untranslatedOf(store, alignmentId, pair.id),
  };
}

export function adjudication(store: ProjectStore, adjudicator: string, pairId: number, left: number, right: number): Adjudication {
  if (left === right) throw new UserError('adjudication compares two different annotators');
  const golds = new Map(
    listAlignments(store)
      .filter((a) => a.origin === 'gold')
      .map((a) => [a.id, a.annotator ?? a.name]),
  );
  for (const id of [left, right]) if (!golds.has(id)) throw new UserError(`alignment ${id} is not an annotator's gold`);
  const pair = store.getPair(pairId);
  return {
    pair,
    left: layerOf(store, pair, left, golds.get(left)!),
    right: layerOf(store, pair, right, golds.get(right)!),
    result: layerOf(store, pair, goldIdOf(store, adjudicator), adjudicator),
  };
}
