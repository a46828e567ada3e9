// A project's pairs as token lists for the aligners (statistical Align job, Models-page
// training and re-alignment), and the linguists' corrections per pair in the same order:
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
import { iteratePairRows, offsetsOf } from './pairs.ts';
import { dbOf, type Project } from './connection.ts';
import { adjudicatedGoldId } from './gold-layer.ts';

export interface ProjectCorpus {
  ids: number[];
  src: string[][];
  tgt: string[][];
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

/** The visible pairs a job learns from (excluded pairs left out unless asked for), in id order, as token texts. */
export function loadCorpus(project: Project, lowercase: boolean, o: { withExcluded?: boolean } = {}): ProjectCorpus {
  const c: ProjectCorpus = { ids: [], src: [], tgt: [], split: [] };
  for (const rows of iteratePairRows(project, o.withExcluded ? {} : { excluded: false }, 5000)) {
    for (const r of rows) {
      c.ids.push(r.id);
      c.src.push(tokenTexts(r.src_text, offsetsOf(r.src_tokens), lowercase));
      c.tgt.push(tokenTexts(r.tgt_text, offsetsOf(r.tgt_tokens), lowercase));
      c.split.push(r.split);
    }
  }
  return c;
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
