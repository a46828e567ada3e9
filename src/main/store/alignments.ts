// Alignment layers (gold per annotator, the adjudicated gold, model runs, imported files) and
// their links. The adjudicated gold is a gold layer of its own (alignments.adjudicated = 1,
// one per project, annotator 'adjudicated' as its label): adjudication writes it, never a
// compared annotator's gold, and training and merged-gold exports prefer it where it has a pair.
// A model alignment still being written (an import's, or an Align job's, written in short
// transactions under an unfinished import of its own: model-alignments.ts) is not seen: it
// is not listed, exported, nor found by id, and its links are not a pair's, until it is complete.
import type { AlignmentOrigin, Link } from '../../shared/domain.ts';
import type { LinkRef, RejectedLink } from '../../shared/link-set.ts';
import type { AlignmentInfo } from '../../shared/api.ts';
import type { Calibration } from '../../shared/calibration-report.ts';
import type { LinkCountCurve } from '../../shared/link-count-curve.ts';
import type { Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';
import { linkCount } from './link-summaries.ts';

/**
 * Alignment `a` is seen by readers: complete. An annotator's gold is always seen (their edits
 * go into it, even when an import that is still running created it).
 */
export const SEEN = `(a.origin = 'gold' OR a.import_id IS NULL OR a.import_id IN (SELECT id FROM imports WHERE state = 'done'))`;

export interface NewAlignment {
  origin: AlignmentOrigin;
  name: string;
  annotator?: string | null;
  modelId?: number | null;
  runId?: number | null;
  /** Set for alignments an import brings: they vanish with a failed import. */
  importId?: number | null;
  /** The project's adjudicated gold (origin 'gold'). */
  adjudicated?: boolean;
}

export function createAlignment(project: Project, a: NewAlignment): number {
  const db = dbOf(project);
  const r = db
    .prepare(
      `INSERT INTO alignments (origin, annotator, model_id, run_id, import_id, name, created_at, adjudicated)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      a.origin,
      a.annotator ?? null,
      a.modelId ?? null,
      a.runId ?? null,
      a.importId ?? null,
      a.name,
      new Date().toISOString(),
      a.adjudicated ? 1 : 0,
    );
  return Number(r.lastInsertRowid);
}

/**
 * The gold alignment of an annotator, created on first use. An import that creates it passes
 * its id, so that a failed import takes the new alignment with it (all or nothing).
 */
export function goldAlignmentOf(project: Project, annotator: string, importId: number | null = null): number {
  const db = dbOf(project);
  const row = db.prepare(`SELECT id FROM alignments WHERE origin = 'gold' AND annotator = ? AND adjudicated = 0`).get(annotator) as
    { id: number } | undefined;
  return row?.id ?? createAlignment(project, { origin: 'gold', name: `gold (${annotator})`, annotator, importId });
}

/** The label the adjudicated gold carries as its annotator and as its source in exports. */
export const ADJUDICATED = 'adjudicated';

/** The project's adjudicated gold, created on first use (by an adjudication, or by an import that carries one). */
export function adjudicatedGoldOf(project: Project, importId: number | null = null): number {
  const db = dbOf(project);
  const row = db.prepare(`SELECT id FROM alignments WHERE adjudicated = 1`).get() as { id: number } | undefined;
  return (
    row?.id ?? createAlignment(project, { origin: 'gold', name: 'adjudicated gold', annotator: ADJUDICATED, importId, adjudicated: true })
  );
}

/** The alignments that are seen, with their link counts (store/link-summaries.ts linkCount: kept, not read per call). */
export function listAlignments(project: Project): AlignmentInfo[] {
  const db = dbOf(project);
  const rows = db
    .prepare(
      `SELECT a.id, a.origin, a.name, a.annotator, a.run_id AS runId, a.calibration, a.adjudicated,
      (SELECT json_extract(m.config, '$.linkCurve') FROM models m WHERE m.id = a.model_id) AS linkCurve
    FROM alignments a WHERE ${SEEN} ORDER BY a.id`,
    )
    .all() as (Omit<AlignmentInfo, 'links' | 'calibration' | 'adjudicated' | 'linkCurve'> & {
    calibration: string | null;
    adjudicated: 0 | 1;
    linkCurve: string | null;
  })[];
  return rows.map((r) => ({
    ...r,
    links: linkCount(project, r.id),
    adjudicated: r.adjudicated === 1,
    calibration: r.calibration === null ? null : (JSON.parse(r.calibration) as Calibration),
    linkCurve: r.linkCurve === null ? null : (JSON.parse(r.linkCurve) as LinkCountCurve),
  }));
}

/**
 * The gold layers (every annotator's and the adjudicated one), without listAlignments' link
 * counts: a count reads every link of a layer (seconds for a model alignment of a million
 * pairs), and the editor asks on every call.
 */
export function goldLayers(project: Project): { id: number; annotator: string; adjudicated: boolean }[] {
  const db = dbOf(project);
  const rows = db
    .prepare(`SELECT a.id, a.annotator, a.adjudicated FROM alignments a WHERE a.origin = 'gold' AND ${SEEN} ORDER BY a.id`)
    .all() as {
    id: number;
    annotator: string;
    adjudicated: 0 | 1;
  }[];
  return rows.map((r) => ({ ...r, adjudicated: r.adjudicated === 1 }));
}

/** Records how a model alignment's scores were calibrated. */
export function setCalibration(project: Project, alignmentId: number, calibration: Calibration): void {
  const db = dbOf(project);
  db.prepare(`UPDATE alignments SET calibration = ? WHERE id = ?`).run(JSON.stringify(calibration), alignmentId);
}

/** Returns a function inserting links of one alignment; call it inside a transaction. */
export function linkInserter(project: Project, alignmentId: number): (pairId: number, links: readonly Link[]) => void {
  return insertLinks(dbOf(project), alignmentId);
}

function insertLinks(db: Db, alignmentId: number): (pairId: number, links: readonly Link[]) => void {
  const insert = db.prepare(`INSERT OR REPLACE INTO links (alignment_id, pair_id, s, t, kind, score, tag) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  return (pairId, links) => {
    for (const l of links) insert.run(alignmentId, pairId, l.s, l.t, l.kind, l.score, l.tag ?? null);
  };
}

interface LinkRow extends LinkRef {
  alignment_id: number;
  kind: Link['kind'];
  score: number | null;
  tag: string | null;
}

/** A stored link as the rest of the program sees it: `tag` only when the link has one. */
function linkOfRow(r: LinkRef & { kind: Link['kind']; score: number | null; tag: string | null }): Link {
  return r.tag === null ? { s: r.s, t: r.t, kind: r.kind, score: r.score } : { s: r.s, t: r.t, kind: r.kind, score: r.score, tag: r.tag };
}

/** All alignments' links of one pair, grouped by alignment, each sorted by (s, t). */
export function linksOfPair(project: Project, pairId: number): { alignmentId: number; links: Link[] }[] {
  const db = dbOf(project);
  const rows = db
    .prepare(
      `SELECT l.alignment_id, l.s, l.t, l.kind, l.score, l.tag FROM links l JOIN alignments a ON a.id = l.alignment_id
      WHERE l.pair_id = ? AND ${SEEN} ORDER BY l.alignment_id, l.s, l.t`,
    )
    .all(pairId) as LinkRow[];
  const groups = new Map<number, Link[]>();
  for (const r of rows) {
    let g = groups.get(r.alignment_id);
    if (!g) groups.set(r.alignment_id, (g = []));
    g.push(linkOfRow(r));
  }
  return [...groups].map(([alignmentId, links]) => ({ alignmentId, links }));
}

/** Replaces the links of one pair in one alignment. */
export function replacePairLinks(db: Db, alignmentId: number, pairId: number, links: readonly Link[]): void {
  db.prepare(`DELETE FROM links WHERE alignment_id = ? AND pair_id = ?`).run(alignmentId, pairId);
  insertLinks(db, alignmentId)(pairId, links);
}

/** A pair's rejected links: one annotator's, or (null) anyone's, each link once. */
export function rejectedOfPair(project: Project, pairId: number, annotator: string | null = null): LinkRef[] {
  const db = dbOf(project);
  const rows =
    annotator === null
      ? db.prepare(`SELECT DISTINCT s, t FROM rejected_links WHERE pair_id = ? ORDER BY s, t`).all(pairId)
      : db.prepare(`SELECT s, t FROM rejected_links WHERE pair_id = ? AND annotator = ? ORDER BY s, t`).all(pairId, annotator);
  return rows as LinkRef[];
}

/** Every pair's rejected links, keyed by pair: one annotator's, or (null) anyone's, each link once. */
export function rejectedLinksByPair(project: Project, annotator: string | null): Map<number, LinkRef[]> {
  const db = dbOf(project);
  const rows = (
    annotator === null
      ? db.prepare(`SELECT DISTINCT pair_id, s, t FROM rejected_links ORDER BY pair_id, s, t`).iterate()
      : db.prepare(`SELECT pair_id, s, t FROM rejected_links WHERE annotator = ? ORDER BY pair_id, s, t`).iterate(annotator)
  ) as IterableIterator<LinkRef & { pair_id: number }>;
  const out = new Map<number, LinkRef[]>();
  for (const { pair_id, s, t } of rows) {
    let list = out.get(pair_id);
    if (!list) out.set(pair_id, (list = []));
    list.push({ s, t });
  }
  return out;
}

/** Rows grouped by their pair, in the order they come. */
export function groupedByPair<R extends { pair_id: number }, V>(rows: Iterable<R>, value: (r: R) => V): Map<number, V[]> {
  const out = new Map<number, V[]>();
  for (const r of rows) {
    let list = out.get(r.pair_id);
    if (!list) out.set(r.pair_id, (list = []));
    list.push(value(r));
  }
  return out;
}

/**
 * SQL that `column` is one of `pairIds` (ascending), its parameters and the range's span when it reads a range, for the readers of a
 * batch of pairs (an export): ids that lie close together (an export of every pair, or most)
 * are read as their range, along the tables' keys, where a list of ids is a search per id
 * (links: about 30% less time); rows of pairs in the range but not in the batch are the
 * caller's to skip (it looks pairs up by id). Scattered ids are read as the list.
 */
export function pairIdsIn(column: string, pairIds: readonly number[]): { sql: string; params: unknown[]; span: number | null } {
  const first = pairIds[0] ?? 0;
  const last = pairIds[pairIds.length - 1] ?? -1;
  if (last - first < 2 * pairIds.length) return { sql: `${column} BETWEEN ? AND ?`, params: [first, last], span: last - first };
  return { sql: `${column} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(pairIds)], span: null };
}

/**
 * A link's (s, t, kind, whether it has a tag) as one integer: s · LINK_S + t · 4 + possible · 2 +
 * tagged. Token indices stay below 2^25 (a line is at most MAX_LINE_BYTES = 64 MB, two bytes
 * a token at the least), so the value stays below 2^53 and is exact.
 */
const LINK_S = 268435456;
const PACKED_LINK = `s * ${LINK_S} + t * 4 + (kind = 'possible') * 2 + (tag IS NOT NULL)`;

/**
 * The common batch's link whole in one integer, pair included (DENSE_LINK): the pair's place
 * in the batch's id range · 2^40 + s · 2^28 + t · 2^16 + possible · 2^15 + tagged · 2^14 +
 * the score as k of k / 10000 (DENSE_NULL for none), below 2^51. It holds when the range
 * spans fewer than DENSE_RANGE ids, every s and t is below 4096, and every score is exactly
 * the double k / 10000 (SQLite's division, IEEE as JavaScript's): the aligners store scores to
 * 4 decimals. A link outside that reads as −1, and its batch is read in columns instead.
 */
const DENSE_RANGE = 2048;
const DENSE_NULL = 16383;
const DENSE_LINK =
  `CASE WHEN s < 4096 AND t < 4096 AND (score IS NULL OR score = round(score * 10000) / 10000.0) ` +
  `THEN (pair_id - ?) * 1099511627776 + s * 268435456 + t * 65536 + (kind = 'possible') * 32768 + (tag IS NOT NULL) * 16384 ` +
  `+ coalesce(CAST(round(score * 10000) AS INTEGER), ${DENSE_NULL}) ELSE -1 END`;

/**
 * One alignment's links of a batch of pairs as read (linkColumnsOfPairs), in columns: pair
 * `id`'s links are at `from[k]`… (`count[k]` of them) in `s`, `t`, `flags` (possible · 2 +
 * tagged) and `score` (NaN for none), and its tagged links' tags are `tags[tagFrom[k]]`… in the
 * same order, where k = `at.get(id)`; a pair without links has no k.
 */
export interface LinkColumns {
  at: Map<number, number>;
  from: Int32Array;
  count: Int32Array;
  tagFrom: Int32Array;
  s: Int32Array;
  t: Int32Array;
  flags: Uint8Array;
  score: Float64Array;
  tags: string[];
}

/** Columns for `links` links of `pairs` pairs, to be filled. */
function emptyColumns(pairs: number, links: number): LinkColumns {
  return {
    at: new Map(),
    from: new Int32Array(pairs),
    count: new Int32Array(pairs),
    tagFrom: new Int32Array(pairs),
    s: new Int32Array(links),
    t: new Int32Array(links),
    flags: new Uint8Array(links),
    score: new Float64Array(links),
    tags: [],
  };
}

/**
 * The links of one alignment in pairs `pairIds` (ascending; pairIdsIn: others of their range
 * may come too), each pair's sorted by (s, t): one read for a batch of pairs (an export).
 * better-sqlite3 makes a JavaScript value for each value of a row and an array for each row of
 * a several-column read, so the links come plucked, one value a link: the common batch as one
 * read of DENSE_LINK (200k pairs, 2.48M links: 0.60–0.84 s of CPU), any other as three reads —
 * per pair its count, each link packed (PACKED_LINK), its score — 1.42–1.73 s; the tags are
 * read apart, and only when a link of the batch has one (0.15–0.20 s otherwise).
 */
export function linkColumnsOfPairs(project: Project, alignmentId: number, pairIds: readonly number[]): LinkColumns {
  const db = dbOf(project);
  const pairs = pairIdsIn('pair_id', pairIds);
  const from = `FROM links WHERE alignment_id = ? AND ${pairs.sql}`;
  const params = [alignmentId, ...pairs.params];
  const first = pairIds[0] ?? 0;
  const dense = pairs.span !== null && pairs.span < DENSE_RANGE;
  // one transaction: the reads see the same links, whatever another connection writes between them
  return db.transaction(() => {
    const values = dense
      ? (db
          .prepare(`SELECT ${DENSE_LINK} ${from} ORDER BY pair_id, s, t`)
          .pluck()
          .all(first, ...params) as number[])
      : null;
    const out = values && !values.includes(-1) ? denseColumns(values, first) : packedColumns(db, from, params);
    if (out.flags.some((f) => f & 1))
      out.tags = db
        .prepare(`SELECT tag ${from} AND tag IS NOT NULL ORDER BY pair_id, s, t`)
        .pluck()
        .all(...params) as string[];
    return out;
  })();
}

/** Columns of a batch read as DENSE_LINK values, pair ids counted from `first`. */
function denseColumns(values: number[], first: number): LinkColumns {
  let pairs = 0;
  for (let j = 0, last = -1; j < values.length; j++) {
    const at = Math.floor(values[j] / 1099511627776);
    if (at !== last) (pairs++, (last = at));
  }
  const out = emptyColumns(pairs, values.length);
  let k = -1;
  let last = -1;
  let tagged = 0;
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    const low = v % 268435456;
    const high = (v - low) / 268435456;
    const at = high >>> 12;
    if (at !== last) {
      k++;
      last = at;
      out.at.set(first + at, k);
      out.from[k] = j;
      out.tagFrom[k] = tagged;
    }
    out.count[k]++;
    out.s[j] = high & 4095;
    out.t[j] = low >>> 16;
    out.flags[j] = (low >>> 14) & 3;
    tagged += (low >>> 14) & 1;
    const score = low & 16383;
    out.score[j] = score === DENSE_NULL ? NaN : score / 10000;
  }
  return out;
}

/** Columns of a batch read as counts, PACKED_LINK values and scores (any batch). */
function packedColumns(db: Db, from: string, params: unknown[]): LinkColumns {
  const counts = db
    .prepare(`SELECT pair_id, count(*) ${from} GROUP BY pair_id ORDER BY pair_id`)
    .raw()
    .all(...params) as [number, number][];
  const packed = db
    .prepare(`SELECT ${PACKED_LINK} ${from} ORDER BY pair_id, s, t`)
    .pluck()
    .all(...params) as number[];
  const scores = db
    .prepare(`SELECT score ${from} ORDER BY pair_id, s, t`)
    .pluck()
    .all(...params) as (number | null)[];
  const out = emptyColumns(counts.length, packed.length);
  let first = 0;
  let tagged = 0;
  for (let k = 0; k < counts.length; k++) {
    const [pairId, n] = counts[k];
    out.at.set(pairId, k);
    out.from[k] = first;
    out.count[k] = n;
    out.tagFrom[k] = tagged;
    for (let j = first; j < first + n; j++) {
      const v = packed[j];
      const low = v % LINK_S;
      out.s[j] = (v - low) / LINK_S;
      out.t[j] = low >>> 2;
      out.flags[j] = low & 3;
      tagged += low & 1;
      const score = scores[j];
      out.score[j] = score === null ? NaN : score;
    }
    first += n;
  }
  return out;
}

/** Calls `visit` with each of pair `pairId`'s links in `c`, sorted by (s, t), without a Link object. */
export function forEachLinkIn(
  c: LinkColumns,
  pairId: number,
  visit: (s: number, t: number, kind: Link['kind'], score: number | null, tag: string | undefined) => void,
): void {
  const k = c.at.get(pairId);
  if (k === undefined) return;
  let tagged = c.tagFrom[k];
  for (let j = c.from[k], end = j + c.count[k]; j < end; j++) {
    const flags = c.flags[j];
    const score = c.score[j];
    visit(c.s[j], c.t[j], flags & 2 ? 'possible' : 'sure', score === score ? score : null, flags & 1 ? c.tags[tagged++] : undefined);
  }
}

/** Pair `pairId`'s links in `c` (none when it has none), sorted by (s, t). */
export function linksIn(c: LinkColumns, pairId: number): Link[] {
  const list: Link[] = [];
  forEachLinkIn(c, pairId, (s, t, kind, score, tag) => list.push(tag === undefined ? { s, t, kind, score } : { s, t, kind, score, tag }));
  return list;
}

/** The rejected links with who rejected them of pairs `pairIds` (ascending; pairIdsIn: others of their range may come too), by pair: one read for a batch of pairs (an export). */
export function rejectedWithAnnotatorOf(project: Project, pairIds: readonly number[]): Map<number, RejectedLink[]> {
  const pairs = pairIdsIn('pair_id', pairIds);
  const rows = dbOf(project)
    .prepare(`SELECT pair_id, s, t, annotator FROM rejected_links WHERE ${pairs.sql} ORDER BY pair_id, s, t, annotator`)
    .iterate(...pairs.params) as IterableIterator<RejectedLink & { pair_id: number }>;
  return groupedByPair(rows, ({ s, t, annotator }) => ({ s, t, annotator }));
}

/** A pair's rejected links with who rejected them (an edit's before-image, a re-segmentation). */
export function rejectedWithAnnotator(project: Project, pairId: number): RejectedLink[] {
  return rejectedWithAnnotatorOf(project, [pairId]).get(pairId) ?? [];
}

/** Returns a function adding "not translated" marks of one alignment; call it inside a transaction. */
export function untranslatedInserter(
  project: Project,
  alignmentId: number,
): (pairId: number, marks: { src: readonly number[]; tgt: readonly number[] }) => void {
  const db = dbOf(project);
  const insert = db.prepare(`INSERT OR IGNORE INTO untranslated (alignment_id, pair_id, side, idx) VALUES (?, ?, ?, ?)`);
  return (pairId, marks) => {
    for (const idx of marks.src) insert.run(alignmentId, pairId, 'src', idx);
    for (const idx of marks.tgt) insert.run(alignmentId, pairId, 'tgt', idx);
  };
}

/** Returns a function adding rejected links (an import's); call it inside a transaction. */
export function rejectedInserter(project: Project): (pairId: number, rejected: readonly RejectedLink[]) => void {
  const db = dbOf(project);
  const insert = db.prepare(`INSERT OR IGNORE INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, ?, ?, ?, ?)`);
  return (pairId, rejected) => {
    const at = new Date().toISOString();
    for (const r of rejected) insert.run(pairId, r.s, r.t, r.annotator, at);
  };
}

/** Whether alignment `id` exists in this project. */
export function alignmentExists(project: Project, id: number): boolean {
  const db = dbOf(project);
  return db.prepare(`SELECT 1 FROM alignments a WHERE a.id = ? AND ${SEEN}`).get(id) !== undefined;
}

/** Every alignment with the name an export gives its source (the annotator for gold, else its name), the adjudicated gold marked. */
export function alignmentSources(
  project: Project,
): { id: number; origin: AlignmentOrigin; source: string; name: string; adjudicated: boolean }[] {
  const db = dbOf(project);
  const rows = db
    .prepare(`SELECT a.id, a.origin, coalesce(a.annotator, a.name) AS source, a.name, a.adjudicated FROM alignments a WHERE ${SEEN}`)
    .all() as { id: number; origin: AlignmentOrigin; source: string; name: string; adjudicated: 0 | 1 }[];
  return rows.map((r) => ({ ...r, adjudicated: r.adjudicated === 1 }));
}

/** A reader of one pair's links in one alignment, sorted by (s, t); the statement is prepared once. */
export function pairLinksReader(project: Project): (alignmentId: number, pairId: number) => Link[] {
  const db = dbOf(project);
  const stmt = db.prepare(`SELECT s, t, kind, score, tag FROM links WHERE alignment_id = ? AND pair_id = ? ORDER BY s, t`);
  return (alignmentId, pairId) => (stmt.all(alignmentId, pairId) as LinkRow[]).map(linkOfRow);
}

/** One alignment's origin and its links grouped by pair, or null when there is no such alignment. */
export function alignmentLayer(project: Project, alignmentId: number): { origin: AlignmentOrigin; links: Map<number, Link[]> } | null {
  const db = dbOf(project);
  const a = db.prepare(`SELECT a.origin FROM alignments a WHERE a.id = ? AND ${SEEN}`).get(alignmentId) as
    { origin: AlignmentOrigin } | undefined;
  if (!a) return null;
  const links = new Map<number, Link[]>();
  for (const r of db
    .prepare('SELECT pair_id, s, t, kind, score, tag FROM links WHERE alignment_id = ?')
    .iterate(alignmentId) as IterableIterator<LinkRow & { pair_id: number }>) {
    let list = links.get(r.pair_id);
    if (!list) links.set(r.pair_id, (list = []));
    list.push(linkOfRow(r));
  }
  return { origin: a.origin, links };
}

/** One link of an alignment with its pair and score, as the review queue ranks them. */
export type ScoredLink = LinkRef & { pair_id: number; score: number | null };

/** All links of one alignment grouped by pair. */
export function scoredLinksByPair(project: Project, alignmentId: number): Map<number, ScoredLink[]> {
  const db = dbOf(project);
  const out = new Map<number, ScoredLink[]>();
  for (const r of db
    .prepare('SELECT pair_id, s, t, score FROM links WHERE alignment_id = ?')
    .iterate(alignmentId) as IterableIterator<ScoredLink>) {
    let list = out.get(r.pair_id);
    if (!list) out.set(r.pair_id, (list = []));
    list.push(r);
  }
  return out;
}

/** The newest model alignment, or null when the project has none. */
export function newestModelAlignment(project: Project): number | null {
  const db = dbOf(project);
  const row = db.prepare(`SELECT max(a.id) AS id FROM alignments a WHERE a.origin = 'model' AND ${SEEN}`).get() as { id: number | null };
  return row.id;
}
