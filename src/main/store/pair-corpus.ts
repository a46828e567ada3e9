// A project's pairs as token lists for the aligners (statistical Align job, Models-page
// training and re-alignment), and the linguists' corrections per pair in the same order:
// the union of all annotators' gold links, and rejected links.
import type { Split } from '../../shared/domain.ts';
import type { AlignedPair, LinkRef } from '../../shared/link-set.ts';
import type { Db } from './database.ts';
import { iteratePairRows, offsetsOf } from './pairs.ts';
import { dbOf, type Project } from './connection.ts';

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

/** Gold of every pair: the union over annotators, a link sure if any annotator made it sure. */
export function goldByPair(project: Project, ids: number[]): (AlignedPair | undefined)[] {
  const db = dbOf(project);
  const sql = `SELECT l.pair_id, l.s, l.t, max(l.kind = 'sure') AS sure FROM links l JOIN alignments a ON a.id = l.alignment_id
    WHERE a.origin = 'gold' GROUP BY l.pair_id, l.s, l.t`;
  return byPair<Row & { sure: number }, AlignedPair>(db, ids, sql, [], (into, r) => {
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
