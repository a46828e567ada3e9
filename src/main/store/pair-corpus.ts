// A project's pairs for the aligners — each side held compactly for the Align job (PairSide),
// as token lists for Models-page training and re-alignment — and the linguists' corrections
// per pair in the same order:
// the union of all annotators' gold links (every link, or only those of the pairs that count
// as gold pairs) — or, on a pair the adjudicated gold has links on, those alone — and rejected links.
//
// Which pairs count as gold is one rule, here, for every counter (training's gold pairs and
// its held-out evaluation, re-alignment's calibration, agreement against a gold layer, the
// Models page's counts): a pair is a gold pair when it holds gold links and its status is In
// review or Done (GOLD_PAIR_STATUSES; the pair's status, the last one anyone set). Gold links
// on a pair in any other status — a "Link all" from the lexicon on pairs nobody reviewed, a
// pair started and left — are partial gold: every link stays (the editor shows it, an Align
// keeps it, exports write it), but the pair is neither counted as gold nor scored against.
import type { PairStatus, Split } from '../../shared/domain.ts';
import type { AlignedPair, LinkRef } from '../../shared/link-set.ts';
import type { Db } from './database.ts';
import { iteratePairRows } from './pairs.ts';
import { type Sentences, toArrays } from '../align/sentences.ts';
import { dbOf, type Project } from './connection.ts';
import { adjudicatedGoldId } from './gold-layer.ts';
import { grownFor } from '../grown-array.ts';

export interface ProjectCorpus {
  ids: number[];
  src: string[][];
  tgt: string[][];
  split: Split[];
}

/** The same pairs with each side held compactly (PairSide): what the Align job reads. */
export interface PairSides {
  ids: number[];
  src: PairSide;
  tgt: PairSide;
  split: Split[];
}

/** The token texts of `text` cut at `o` (offsets.ts), lowercased when asked. */
export function tokenTexts(text: string, o: Uint32Array, lowercase: boolean): string[] {
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) {
    const w = text.slice(o[2 * i], o[2 * i + 1]);
    out[i] = lowercase ? w.toLowerCase() : w;
  }
  return out;
}

/**
 * One side of a project's pairs as Sentences (align/sentences.ts): each pair's text and its
 * token offsets, all in one array, a pair's token list made when it is asked for. The token
 * strings of both sides, held as lists, took 331 MB of the Align worker's RSS at 200k pairs
 * (~1.1 GB at 1M); this is the texts and 8 bytes a token.
 */
export class PairSide implements Sentences {
  private readonly texts: string[] = [];
  /** pair k's tokens are offsets[2·starts[k]] … offsets[2·starts[k + 1]] */
  private starts = new Uint32Array(256);
  private offsets = new Uint32Array(4096);
  private tokenCount = 0;

  constructor(private readonly lowercase: boolean) {}

  get length(): number {
    return this.texts.length;
  }

  /** Appends a pair's side: its text and its stored token offsets (a blob of start, end, … as uint32). */
  push(text: string, blob: Uint8Array): void {
    const k = this.texts.length;
    const n = blob.byteLength / 8;
    this.starts = grownFor(this.starts, k + 2);
    this.offsets = grownFor(this.offsets, 2 * (this.tokenCount + n));
    new Uint8Array(this.offsets.buffer, 8 * this.tokenCount, blob.byteLength).set(blob);
    this.texts.push(text);
    this.tokenCount += n;
    this.starts[k + 1] = this.tokenCount;
  }

  size(k: number): number {
    return this.starts[k + 1] - this.starts[k];
  }

  tokens(k: number): string[] {
    return tokenTexts(this.texts[k], this.offsets.subarray(2 * this.starts[k], 2 * this.starts[k + 1]), this.lowercase);
  }
}

/** The visible pairs a job learns from (excluded pairs left out unless asked for), in id order, each side held compactly. */
export function loadPairSides(project: Project, lowercase: boolean, o: { withExcluded?: boolean } = {}): PairSides {
  const c: PairSides = { ids: [], src: new PairSide(lowercase), tgt: new PairSide(lowercase), split: [] };
  for (const rows of iteratePairRows(project, o.withExcluded ? {} : { excluded: false }, 5000)) {
    for (const r of rows) {
      c.ids.push(r.id);
      c.src.push(r.src_text, r.src_tokens);
      c.tgt.push(r.tgt_text, r.tgt_tokens);
      c.split.push(r.split);
    }
  }
  return c;
}

/** The same pairs with every side as token lists, for the jobs that keep or send them all (training, curation, the encoders). */
export function loadCorpus(project: Project, lowercase: boolean, o: { withExcluded?: boolean } = {}): ProjectCorpus {
  const { ids, src, tgt, split } = loadPairSides(project, lowercase, o);
  return { ids, src: toArrays(src), tgt: toArrays(tgt), split };
}

export type Row = LinkRef & { pair_id: number };

/** Per pair (in `ids` order), the rows of `sql`, grouped with `add`. */
function byPair<R extends Row, X>(
  db: Db,
  ids: number[],
  sql: string,
  params: unknown[],
  add: (into: X | undefined, r: R) => X,
): (X | undefined)[] {
  const index = new Map(ids.map((id, k) => [id, k]));
  const out: (X | undefined)[] = new Array(ids.length);
  for (const r of db.prepare(sql).iterate(...params) as IterableIterator<R>) {
    const k = index.get(r.pair_id);
    if (k !== undefined) out[k] = add(out[k], r);
  }
  return out;
}

function pushLink(into: LinkRef[] | undefined, r: Row): LinkRef[] {
  const links = into ?? [];
  links.push({ s: r.s, t: r.t });
  return links;
}

/** The statuses in which a pair's gold counts: the pair is a gold pair (see the header). */
export const GOLD_PAIR_STATUSES: readonly PairStatus[] = ['in-review', 'done'];

/** SQL: pair `p` is in a status where its gold counts. */
const COUNTS_AS_GOLD = `p.status IN (${GOLD_PAIR_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** The pairs whose gold counts: In review or Done (whether or not they hold gold links yet). */
export function goldCountingPairIds(project: Project): Set<number> {
  const db = dbOf(project);
  return new Set(db.prepare(`SELECT p.id FROM pairs p WHERE ${COUNTS_AS_GOLD}`).pluck().all() as number[]);
}

/** How many of `ids` hold gold links of anyone but are not gold pairs (partial gold). */
export function partialGoldPairCount(project: Project, ids: number[]): number {
  const db = dbOf(project);
  const sql = `SELECT DISTINCT l.pair_id FROM links l JOIN alignments a ON a.id = l.alignment_id JOIN pairs p ON p.id = l.pair_id
    WHERE a.origin = 'gold' AND NOT ${COUNTS_AS_GOLD}`;
  const wanted = new Set(ids);
  return (db.prepare(sql).pluck().all() as number[]).filter((id) => wanted.has(id)).length;
}

/**
 * Gold per pair, the union over annotators (a link sure if any annotator made it sure): of
 * the gold pairs only (`counting`, every counter's rule: see the header), or every gold link
 * (`all`: the links an Align keeps as they are, partial gold included).
 */
export function goldByPair(project: Project, ids: number[], which: 'counting' | 'all'): (AlignedPair | undefined)[] {
  const db = dbOf(project);
  // Where the adjudicated gold has links on a pair, they are the pair's gold, not the union.
  const adjudicated = adjudicatedGoldId(project);
  const preferAdjudicated =
    adjudicated === null
      ? ''
      : `AND (l.alignment_id = ? OR NOT EXISTS (SELECT 1 FROM links x WHERE x.alignment_id = ? AND x.pair_id = l.pair_id))`;
  const sql = `SELECT l.pair_id, l.s, l.t, max(l.kind = 'sure') AS sure FROM links l JOIN alignments a ON a.id = l.alignment_id
    ${which === 'counting' ? `JOIN pairs p ON p.id = l.pair_id WHERE a.origin = 'gold' AND ${COUNTS_AS_GOLD}` : `WHERE a.origin = 'gold'`}
    ${preferAdjudicated}
    GROUP BY l.pair_id, l.s, l.t`;
  const params = adjudicated === null ? [] : [adjudicated, adjudicated];
  return byPair<Row & { sure: number }, AlignedPair>(db, ids, sql, params, (into, r) => {
    const g = into ?? { sure: [], possible: [] };
    (r.sure ? g.sure : g.possible).push([r.s, r.t]);
    return g;
  });
}

export function rejectedByPair(project: Project, ids: number[]): (LinkRef[] | undefined)[] {
  const db = dbOf(project);
  return byPair(db, ids, `SELECT DISTINCT pair_id, s, t FROM rejected_links`, [], pushLink);
}

/** Per pair, the links of an alignment scoring at least `threshold` (a link without a score counts as certain). */
export function confidentLinksByPair(project: Project, ids: number[], alignmentId: number, threshold: number): (LinkRef[] | undefined)[] {
  return byPair(
    dbOf(project),
    ids,
    `SELECT pair_id, s, t FROM links WHERE alignment_id = ? AND coalesce(score, 1) >= ?`,
    [alignmentId, threshold],
    pushLink,
  );
}
