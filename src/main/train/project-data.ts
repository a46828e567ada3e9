// The training set of a Models-page run, read from the project: every visible pair's
// tokens (lowercased if asked); per pair, word-level supervision (the union of all
// annotators' gold links for train-split pairs, else the links of a pseudo alignment
// scoring at least the threshold) and rejected links as hard negatives. Pairs of the dev
// and test splits that have gold are the evaluation set: their sentences still train the
// model unsupervised, but neither their gold, rejected nor pseudo links do.
import type { Split } from '../../shared/domain.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import type { AlignedPair } from '../eval/pharaoh.ts';
import { UserError } from '../errors.ts';
import type { Db } from '../store/database.ts';
import { iteratePairRows, offsetsOf } from '../store/pairs.ts';
import type { RunStats } from '../store/training-runs.ts';

type Links = { s: number; t: number }[];

export interface ProjectCorpus {
  ids: number[];
  src: string[][];
  tgt: string[][];
  split: Split[];
}

export interface TrainingSet {
  corpus: ProjectCorpus;
  supervision: (Links | undefined)[];
  rejected: (Links | undefined)[];
  /** indices into corpus of the evaluation pairs, and their gold */
  evalIndex: number[];
  evalGold: AlignedPair[];
  stats: RunStats;
}

function tokenTexts(text: string, blob: Buffer, lowercase: boolean): string[] {
  const o = offsetsOf(blob);
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) {
    const w = text.slice(o[2 * i], o[2 * i + 1]);
    out[i] = lowercase ? w.toLowerCase() : w;
  }
  return out;
}

export function loadCorpus(db: Db, lowercase: boolean): ProjectCorpus {
  const c: ProjectCorpus = { ids: [], src: [], tgt: [], split: [] };
  for (const rows of iteratePairRows(db, {}, 5000)) {
    for (const r of rows) {
      c.ids.push(r.id);
      c.src.push(tokenTexts(r.src_text, r.src_tokens, lowercase));
      c.tgt.push(tokenTexts(r.tgt_text, r.tgt_tokens, lowercase));
      c.split.push(r.split);
    }
  }
  return c;
}

type Row = { pair_id: number; s: number; t: number };

/** Per pair (in `ids` order), the rows of `sql`, grouped with `add`. */
function byPair<R extends Row, X>(db: Db, ids: number[], sql: string, params: unknown[], add: (into: X | undefined, r: R) => X): (X | undefined)[] {
  const index = new Map(ids.map((id, k) => [id, k]));
  const out: (X | undefined)[] = new Array(ids.length);
  for (const r of db.prepare(sql).iterate(...params) as IterableIterator<R>) {
    const k = index.get(r.pair_id);
    if (k !== undefined) out[k] = add(out[k], r);
  }
  return out;
}

function pushLink(into: Links | undefined, r: Row): Links {
  const links = into ?? [];
  links.push({ s: r.s, t: r.t });
  return links;
}

/** Gold of every pair: the union over annotators, a link sure if any annotator made it sure. */
export function goldByPair(db: Db, ids: number[]): (AlignedPair | undefined)[] {
  const sql = `SELECT l.pair_id, l.s, l.t, max(l.kind = 'sure') AS sure FROM links l JOIN alignments a ON a.id = l.alignment_id
    WHERE a.origin = 'gold' GROUP BY l.pair_id, l.s, l.t`;
  return byPair<Row & { sure: number }, AlignedPair>(db, ids, sql, [], (into, r) => {
    const g = into ?? { sure: [], possible: [] };
    (r.sure ? g.sure : g.possible).push([r.s, r.t]);
    return g;
  });
}

export function rejectedByPair(db: Db, ids: number[]): (Links | undefined)[] {
  return byPair(db, ids, `SELECT pair_id, s, t FROM rejected_links`, [], pushLink);
}

/** Links of an alignment scoring at least `threshold` (a link without a score counts as certain). */
function confidentLinks(db: Db, ids: number[], alignmentId: number, threshold: number): (Links | undefined)[] {
  if (!db.prepare(`SELECT 1 FROM alignments WHERE id = ?`).get(alignmentId)) throw new UserError(`no alignment ${alignmentId} in this project`);
  return byPair(db, ids, `SELECT pair_id, s, t FROM links WHERE alignment_id = ? AND coalesce(score, 1) >= ?`, [alignmentId, threshold], pushLink);
}

const goldLinks = (g: AlignedPair): Links => [...g.sure, ...g.possible].map(([s, t]) => ({ s, t }));

export function trainingSet(db: Db, o: TrainOptions): TrainingSet {
  const corpus = loadCorpus(db, o.lowercase);
  const trainable = corpus.src.filter((s, k) => s.length && corpus.tgt[k].length).length;
  if (!trainable) throw new UserError('the project has no sentence pairs to train on (import a corpus first)');
  const gold = goldByPair(db, corpus.ids);
  const pseudo = o.pseudoAlignmentId === undefined ? [] : confidentLinks(db, corpus.ids, o.pseudoAlignmentId, o.threshold);
  const rejected = o.useRejected ? rejectedByPair(db, corpus.ids) : [];
  const set: TrainingSet = {
    corpus, supervision: new Array(corpus.ids.length), rejected: new Array(corpus.ids.length), evalIndex: [], evalGold: [],
    stats: { pairs: trainable, goldPairs: 0, pseudoPairs: 0, evalPairs: 0 },
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
    } else if (pseudo[k]?.length) {
      set.supervision[k] = pseudo[k];
      set.stats.pseudoPairs++;
    }
  });
  set.stats.evalPairs = set.evalIndex.length;
  return set;
}
