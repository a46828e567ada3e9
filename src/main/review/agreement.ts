// Agreement between two alignment layers of a project (two annotators' gold, or an
// annotator and a model): the reference layer's links are the gold (sure and possible),
// the candidate's are the prediction, scored with the AER scorer (aer.ts) per pair and
// over all pairs (micro-averaged). Pairs count when the reference has links there; when
// both layers are gold, only pairs both annotators linked count. A gold layer counts only on
// the gold pairs (In review or Done: the one rule, store/pair-corpus.ts); its partial gold
// elsewhere is left out, and the report says how many pairs that is. When one layer comes
// from a model trained on gold, the report says so and scores the held-out pairs apart.
// With `overlap`, two annotators' gold is compared on their double annotation only: the pairs
// assigned to both (store/assignments.ts), the pairs adjudication works on.
import type { AgreementReport, AgreementScore } from '../../shared/editor-api.ts';
import { alignedPair, linkKey, pairKeySet, type AlignedPair, type Link } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { scoreAer } from '../eval/aer.ts';
import { alignmentLayer, alignmentSources } from '../store/alignments.ts';
import { sharedPairIds } from '../store/assignments.ts';
import { goldCountingPairIds } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { trainSplitPairs } from '../store/pairs.ts';
import { goldTrainedRunOf } from '../store/training-runs.ts';

function layer(store: ProjectStore, alignmentId: number): { origin: string; links: Map<number, Link[]> } {
  const found = alignmentLayer(store, alignmentId);
  if (!found) throw new UserError(`no alignment ${alignmentId} in this project`);
  return found;
}

function score(gold: AlignedPair[], pred: [number, number][][]): AgreementScore {
  const { precision, recall, aer } = scoreAer(gold, pred);
  const ref = gold.reduce((n, g) => n + g.sure.length + g.possible.length, 0);
  const cand = pred.reduce((n, p) => n + p.length, 0);
  let both = 0;
  gold.forEach((g, k) => {
    const keys = pairKeySet([...g.sure, ...g.possible]);
    both += pred[k].filter(([s, t]) => keys.has(linkKey(s, t))).length;
  });
  return { precision, recall, aer, reference: ref, candidate: cand, both };
}

/** The pairs assigned to both annotators whose gold layers `a` and `b` are; an error for any other layer. */
function overlapOf(store: ProjectStore, a: number, b: number): Set<number> {
  const golds = new Map(
    alignmentSources(store)
      .filter((x) => x.origin === 'gold' && !x.adjudicated)
      .map((x) => [x.id, x.source]),
  );
  const [left, right] = [golds.get(a), golds.get(b)];
  if (left === undefined || right === undefined) throw new UserError("the assigned overlap is compared between two annotators' gold");
  return new Set(sharedPairIds(store, left, right));
}

export function agreementReport(
  store: ProjectStore,
  referenceId: number,
  candidateId: number,
  options: { overlap?: boolean } = {},
): AgreementReport {
  const ref = layer(store, referenceId);
  const cand = layer(store, candidateId);
  const overlap = options.overlap ? overlapOf(store, referenceId, candidateId) : null;
  // With a gold layer compared, only the gold pairs count; the other pairs its links are on are partial gold.
  const golds = [ref, cand].filter((l) => l.origin === 'gold');
  const counting = golds.length ? goldCountingPairIds(store) : null;
  const partial = new Set(golds.flatMap((l) => [...l.links.keys()]).filter((id) => counting && !counting.has(id)));
  const bothGold = ref.origin === 'gold' && cand.origin === 'gold';
  const ids = [...ref.links.keys()]
    .filter((id) => !partial.has(id) && (!bothGold || cand.links.has(id)) && (!overlap || overlap.has(id)))
    .sort((a, b) => a - b);
  const gold = ids.map((id) => alignedPair(ref.links.get(id) ?? []));
  const pred = ids.map((id) => (cand.links.get(id) ?? []).map((l): [number, number] => [l.s, l.t]));
  const report: AgreementReport = {
    overall: { ...score(gold, pred), pairs: ids.length },
    partialGoldPairs: partial.size,
    pairs: ids.map((pairId, k) => ({ pairId, ...score([gold[k]], [pred[k]]) })),
  };
  const runId = goldTrainedRunOf(store, candidateId) ?? goldTrainedRunOf(store, referenceId);
  if (runId !== null) {
    const train = trainSplitPairs(store);
    const held = ids.map((id, k) => (train.has(id) ? -1 : k)).filter((k) => k >= 0);
    report.trained = {
      runId,
      trainPairs: ids.length - held.length,
      heldOut: {
        ...score(
          held.map((k) => gold[k]),
          held.map((k) => pred[k]),
        ),
        pairs: held.length,
      },
    };
  }
  return report;
}
