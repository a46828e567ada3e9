// The training set of a Models-page run, read from the project: every visible pair's
// tokens (lowercased if asked); per pair, word-level supervision (the union of all
// annotators' gold links for gold pairs not held out — a pair is a gold pair when it is In
// review or Done, store/pair-corpus.ts; partial gold elsewhere is counted apart and not used
// — else the links of a pseudo alignment
// scoring at least the threshold, together with the one-to-one matches of the project's
// attached dictionaries: align/dictionary-links.ts, as `--dict` supervises in the CLI,
// method.ts) and rejected links as hard negatives. The held-out pairs (models/bilstm/held-out.ts,
// the CLI's rule too: the dev and test pairs with gold where the project marks any, else an
// evenly spread share of the pairs with gold) are the evaluation set: their sentences still
// train the model unsupervised, but neither their gold, rejected nor pseudo links do.
import type { TrainOptions } from '../../shared/models-api.ts';
import { alignedRefs, keySet, linkKey, type AlignedPair, type LinkRef } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { alignmentExists } from '../store/alignments.ts';
import {
  confidentLinksByPair,
  goldByPair,
  loadCorpus,
  partialGoldPairCount,
  type ProjectCorpus,
  rejectedByPair,
} from '../store/pair-corpus.ts';
import type { RunStats } from '../store/training-runs.ts';
import { projectDictionary } from '../aligners/app-jobs.ts';
import { dictionaryIndex, dictionaryLinks } from '../align/dictionary-links.ts';
import { HELD_OUT_SHARE, heldOutPairs } from '../models/bilstm/held-out.ts';

export interface TrainingSet {
  corpus: ProjectCorpus;
  supervision: (LinkRef[] | undefined)[];
  rejected: (LinkRef[] | undefined)[];
  /** indices into corpus of the evaluation pairs, and their gold */
  evalIndex: number[];
  evalGold: AlignedPair[];
  stats: RunStats;
}

/** Links of an alignment scoring at least `threshold` (a link without a score counts as certain). */
function confidentLinks(store: ProjectStore, ids: number[], alignmentId: number, threshold: number): (LinkRef[] | undefined)[] {
  if (!alignmentExists(store, alignmentId)) throw new UserError(`no alignment ${alignmentId} in this project`);
  return confidentLinksByPair(store, ids, alignmentId, threshold);
}

export function trainingSet(store: ProjectStore, o: TrainOptions): TrainingSet {
  const corpus = loadCorpus(store, o.lowercase);
  const trainable = corpus.src.filter((s, k) => s.length && corpus.tgt[k].length).length;
  if (!trainable) throw new UserError('the project has no sentence pairs to train on (import a corpus first)');
  const gold = goldByPair(store, corpus.ids, 'counting');
  const pseudo = o.pseudoAlignmentId === undefined ? [] : confidentLinks(store, corpus.ids, o.pseudoAlignmentId, o.threshold);
  const rejected = o.useRejected ? rejectedByPair(store, corpus.ids) : [];
  const { entries } = projectDictionary(store, o.lowercase);
  const dictionary = entries.length ? dictionaryLinks(corpus.src, corpus.tgt, dictionaryIndex(entries)) : [];
  const set: TrainingSet = {
    corpus,
    supervision: new Array(corpus.ids.length),
    rejected: new Array(corpus.ids.length),
    evalIndex: [],
    evalGold: [],
    stats: {
      pairs: trainable,
      goldPairs: 0,
      partialGoldPairs: o.useGold ? partialGoldPairCount(store, corpus.ids) : 0,
      pseudoPairs: 0,
      dictionaryPairs: 0,
      evalPairs: 0,
    },
  };
  const held = heldOutPairs(
    gold.map((g) => g && alignedRefs(g)),
    HELD_OUT_SHARE,
    corpus.split,
  );
  corpus.ids.forEach((_, k) => {
    const g = gold[k];
    if (g && held[k]) {
      set.evalIndex.push(k);
      set.evalGold.push(g);
      return;
    }
    set.rejected[k] = rejected[k];
    if (g && o.useGold) {
      set.supervision[k] = alignedRefs(g);
      set.stats.goldPairs++;
    } else {
      const have = keySet(pseudo[k] ?? []);
      const fromDictionary = dictionary[k]?.filter((l) => !have.has(linkKey(l.s, l.t))) ?? [];
      if (pseudo[k]?.length) set.stats.pseudoPairs++;
      if (fromDictionary.length) set.stats.dictionaryPairs!++;
      const links = [...(pseudo[k] ?? []), ...fromDictionary];
      if (links.length) set.supervision[k] = links;
    }
  });
  set.stats.evalPairs = set.evalIndex.length;
  return set;
}
