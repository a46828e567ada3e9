// The training set of a Models-page run, read from the project: every visible pair's
// tokens (lowercased if asked); per pair, word-level supervision (the union of all
// annotators' gold links for train-split pairs, else the links of a pseudo alignment
// scoring at least the threshold, together with the one-to-one matches of the project's
// attached dictionaries: align/dictionary-links.ts, as `--dict` supervises in the CLI,
// method.ts) and rejected links as hard negatives. Pairs of the dev
// and test splits that have gold are the evaluation set: their sentences still train the
// model unsupervised, but neither their gold, rejected nor pseudo links do.
import type { TrainOptions } from '../../shared/models-api.ts';
import type { AlignedPair } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import type { Db } from '../store/database.ts';
import { alignmentExists } from '../store/alignments.ts';
import {
  byPair,
  goldByPair,
  goldLinks,
  type Links,
  loadCorpus,
  type ProjectCorpus,
  pushLink,
  rejectedByPair,
} from '../store/pair-corpus.ts';
import type { RunStats } from '../store/training-runs.ts';
import { attachedDictionaryTexts } from '../store/dictionaries.ts';
import { attachedEntries } from '../align/project-align.ts';
import { dictionaryIndex, dictionaryLinks } from '../align/dictionary-links.ts';

export interface TrainingSet {
  corpus: ProjectCorpus;
  supervision: (Links | undefined)[];
  rejected: (Links | undefined)[];
  /** indices into corpus of the evaluation pairs, and their gold */
  evalIndex: number[];
  evalGold: AlignedPair[];
  stats: RunStats;
}

/** Links of an alignment scoring at least `threshold` (a link without a score counts as certain). */
function confidentLinks(db: Db, ids: number[], alignmentId: number, threshold: number): (Links | undefined)[] {
  if (!alignmentExists(db, alignmentId)) throw new UserError(`no alignment ${alignmentId} in this project`);
  return byPair(
    db,
    ids,
    `SELECT pair_id, s, t FROM links WHERE alignment_id = ? AND coalesce(score, 1) >= ?`,
    [alignmentId, threshold],
    pushLink,
  );
}

export function trainingSet(db: Db, o: TrainOptions): TrainingSet {
  const corpus = loadCorpus(db, o.lowercase);
  const trainable = corpus.src.filter((s, k) => s.length && corpus.tgt[k].length).length;
  if (!trainable) throw new UserError('the project has no sentence pairs to train on (import a corpus first)');
  const gold = goldByPair(db, corpus.ids);
  const pseudo = o.pseudoAlignmentId === undefined ? [] : confidentLinks(db, corpus.ids, o.pseudoAlignmentId, o.threshold);
  const rejected = o.useRejected ? rejectedByPair(db, corpus.ids) : [];
  const entries = attachedEntries(attachedDictionaryTexts(db), o.lowercase);
  const dictionary = entries.length ? dictionaryLinks(corpus.src, corpus.tgt, dictionaryIndex(entries)) : [];
  const set: TrainingSet = {
    corpus,
    supervision: new Array(corpus.ids.length),
    rejected: new Array(corpus.ids.length),
    evalIndex: [],
    evalGold: [],
    stats: { pairs: trainable, goldPairs: 0, pseudoPairs: 0, dictionaryPairs: 0, evalPairs: 0 },
  };
  corpus.ids.forEach((_, k) => {
    const g = gold[k];
    if (g && corpus.split[k] !== 'train') {
      set.evalIndex.push(k);
      set.evalGold.push(g);
      return;
    }
    set.rejected[k] = rejected[k];
    if (g && o.useGold) {
      set.supervision[k] = goldLinks(g);
      set.stats.goldPairs++;
    } else {
      const fromDictionary = dictionary[k]?.filter((l) => !pseudo[k]?.some((p) => p.s === l.s && p.t === l.t)) ?? [];
      if (pseudo[k]?.length) set.stats.pseudoPairs++;
      if (fromDictionary.length) set.stats.dictionaryPairs!++;
      const links = [...(pseudo[k] ?? []), ...fromDictionary];
      if (links.length) set.supervision[k] = links;
    }
  });
  set.stats.evalPairs = set.evalIndex.length;
  return set;
}
