// Sentence pairs: batch insertion for imports, filtered listing and counting for the
// pair list, one pair in full for the editor, and review-state updates. Only pairs of
// finished imports are visible (an import in progress or abandoned is not).
import { DamagedProjectError } from '../errors.ts';
import type { PairStatus, Split, Token } from '../../shared/domain.ts';
import type { PairFilter } from '../../shared/api.ts';
import type { PairSummary } from '../../shared/domain.ts';
import { checkOffsets, decodeTokens } from '../text/offsets.ts';
import { searchFold } from '../../shared/search-fold.ts';
import { dbOf, type Project } from './connection.ts';
import { reviewColumns, reviewParams } from './pair-reviews.ts';

export interface NewPair {
  src: string;
  tgt: string;
  srcOffsets: Uint32Array;
  tgtOffsets: Uint32Array;
  status?: PairStatus;
  split?: Split;
  note?: string;
}

export interface PairRow {
  id: number;
  src_text: string;
  tgt_text: string;
  src_tokens: Buffer;
  tgt_tokens: Buffer;
  status: PairStatus;
  split: Split;
  note: string;
  excluded: 0 | 1;
  /** the status and note as the reading annotator sees them (pair-reviews.ts), where a query asks */
  v_status?: PairStatus;
  v_note?: string;
  /** pair_scores' columns, where a query joins them (scoredRow) */
  ps_score?: number | null;
  ps_misaligned?: 0 | 1 | null;
  ps_rival_pair?: number | null;
  ps_rival_side?: 'source' | 'target' | null;
  ps_rival_score?: number | null;
}

/**
 * A pair row with its parallelism score and the status and note `viewer` sees (the pair's own
 * when null): `SELECT ${scoredRow(viewer)} FROM pairs p … ${SCORES_JOIN}`, binding reviewParams(viewer).
 */
function scoredRow(viewer: string | null): string {
  const review = reviewColumns(viewer);
  return `p.*, ${review.status} AS v_status, ${review.note} AS v_note, s.score AS ps_score, s.misaligned AS ps_misaligned,
  s.rival_pair AS ps_rival_pair, s.rival_side AS ps_rival_side, s.rival_score AS ps_rival_score`;
}
const SCORES_JOIN = 'LEFT JOIN pair_scores s ON s.pair_id = p.id';

/** SQL: pair `p` belongs to a finished import (an unfinished one's pairs are not seen). */
export const VISIBLE = `p.import_id IN (SELECT id FROM imports WHERE state = 'done')`;

export function blobOf(offsets: Uint32Array): Buffer {
  return Buffer.from(offsets.buffer, offsets.byteOffset, offsets.byteLength);
}

export function offsetsOf(blob: Buffer): Uint32Array {
  const copy = new Uint32Array(blob.byteLength / 4);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}

/**
 * The tokens of one side of pair `pairId`. A blob that does not fit its text (a damaged
 * file) is refused in one line naming the pair, not with a RangeError from deep inside.
 */
export function tokensOf(text: string, blob: Buffer, pairId: number, side: 'src' | 'tgt'): Token[] {
  return fitting(pairId, side, () => decodeTokens(text, offsetsOf(blob)));
}

/**
 * The token offsets of one side of pair `pairId` (start, end, …), checked as tokensOf checks
 * them, without Token objects: a view of the blob's memory where it lies on a 4-byte boundary
 * (a batch's blobs do, pairRowBatches), for a reader done with them before the next batch.
 */
export function tokenOffsetsOf(text: string, blob: Buffer, pairId: number, side: 'src' | 'tgt'): Uint32Array {
  return fitting(pairId, side, () => {
    const offsets =
      blob.byteOffset % 4 === 0 && blob.byteLength % 4 === 0
        ? new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4)
        : offsetsOf(blob);
    checkOffsets(text, offsets);
    return offsets;
  });
}

/** `read()`, its RangeError (a blob that does not fit its text) turned into a DamagedProjectError naming the pair and side. */
function fitting<T>(pairId: number, side: 'src' | 'tgt', read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new DamagedProjectError(`pair ${pairId}, ${side === 'src' ? 'source' : 'target'} side: ${err.message}`);
  }
}

const ROWS_PER_INSERT = 100;

/**
 * Returns a function inserting a batch of pairs of one import (inside a transaction); it
 * returns their ids. Rows go in groups of ROWS_PER_INSERT per statement (a quarter less
 * CPU than one statement a row); SQLite numbers the rows of one statement consecutively.
 */
export function pairInserter(project: Project, importId: number): (pairs: NewPair[]) => number[] {
  const db = dbOf(project);
  const sql = (n: number) => `INSERT INTO pairs (import_id, src_text, tgt_text, src_tokens, tgt_tokens, status, split, note)
    VALUES ${Array(n).fill('(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
  const full = db.prepare(sql(ROWS_PER_INSERT));
  const one = db.prepare(sql(1));
  const params = (p: NewPair) => [
    importId,
    p.src,
    p.tgt,
    blobOf(p.srcOffsets),
    blobOf(p.tgtOffsets),
    p.status ?? 'new',
    p.split ?? 'train',
    p.note ?? '',
  ];
  return (pairs) => {
    const ids: number[] = [];
    let i = 0;
    for (; i + ROWS_PER_INSERT <= pairs.length; i += ROWS_PER_INSERT) {
      const last = Number(full.run(pairs.slice(i, i + ROWS_PER_INSERT).flatMap(params)).lastInsertRowid);
      for (let k = ROWS_PER_INSERT - 1; k >= 0; k--) ids.push(last - k);
    }
    for (; i < pairs.length; i++) ids.push(Number(one.run(params(pairs[i])).lastInsertRowid));
    return ids;
  };
}

/**
 * The WHERE clause and its parameters for a pair filter; a status filter matches the status
 * `viewer` sees (pair-reviews.ts), the pair's own when null. The parameters bind scoredRow(viewer) too.
 */
export function filterSql(filter: PairFilter, viewer: string | null = null): { where: string; params: unknown[] } {
  const clauses = [VISIBLE];
  const params: unknown[] = [];
  if (filter.status?.length) {
    clauses.push(`${reviewColumns(viewer).status} IN (${filter.status.map(() => '?').join(',')})`);
    params.push(...filter.status);
  }
  if (filter.split?.length) {
    clauses.push(`p.split IN (${filter.split.map(() => '?').join(',')})`);
    params.push(...filter.split);
  }
  const goTo = filter.text ? /^\s*#(\d+)\s*$/.exec(filter.text) : null;
  if (goTo) {
    // "#94" goes to pair 94.
    clauses.push('p.id = ?');
    params.push(Number(goTo[1]));
  } else if (filter.text && searchFold(filter.text)) {
    clauses.push(`(instr(mekong_fold(p.src_text), ?) > 0 OR instr(mekong_fold(p.tgt_text), ?) > 0)`);
    const q = searchFold(filter.text);
    params.push(q, q);
  }
  if (filter.misaligned !== undefined) {
    clauses.push(`${filter.misaligned ? '' : 'NOT '}EXISTS (SELECT 1 FROM pair_scores ms WHERE ms.pair_id = p.id AND ms.misaligned = 1)`);
  }
  if (filter.excluded !== undefined) {
    clauses.push('p.excluded = ?');
    params.push(filter.excluded ? 1 : 0);
  }
  if (filter.alignmentId !== undefined) {
    clauses.push(`EXISTS (SELECT 1 FROM links l WHERE l.pair_id = p.id AND l.alignment_id = ?)`);
    params.push(filter.alignmentId);
  }
  if (filter.assignedTo !== undefined) {
    // one annotator's assignment (store/assignments.ts)
    clauses.push(`EXISTS (SELECT 1 FROM assignments asg WHERE asg.pair_id = p.id AND asg.annotator = ?)`);
    params.push(filter.assignedTo);
  }
  // The named @viewer last (better-sqlite3 binds it wherever it stands; unused, it is ignored).
  params.push(...reviewParams(viewer));
  return { where: clauses.join(' AND '), params };
}

/**
 * How `viewer`'s statuses move the pairs' own counts by status: for each status, how many
 * visible pairs someone reviewed (pair-reviews.ts) `viewer` sees in it, less how many of them
 * are in it by their own status. Only reviewed pairs are read, so the counts of a large
 * corpus stay index counts.
 */
export function reviewedStatusShift(project: Project, viewer: string): Map<PairStatus, number> {
  const db = dbOf(project);
  const rows = db
    .prepare(
      `SELECT p.status AS own, coalesce(r.status, 'new') AS seen FROM (SELECT DISTINCT pair_id FROM pair_reviews) x
      JOIN pairs p ON p.id = x.pair_id LEFT JOIN pair_reviews r ON r.pair_id = p.id AND r.annotator = ? WHERE ${VISIBLE}`,
    )
    .all(viewer) as { own: PairStatus; seen: PairStatus }[];
  const shift = new Map<PairStatus, number>();
  for (const r of rows) {
    shift.set(r.own, (shift.get(r.own) ?? 0) - 1);
    shift.set(r.seen, (shift.get(r.seen) ?? 0) + 1);
  }
  return shift;
}

/** The id the next pair written gets at the least: one above every pair's, whatever its import's state. */
export function nextPairId(project: Project): number {
  return (dbOf(project).prepare(`SELECT coalesce(max(id), 0) + 1 AS n FROM pairs`).get() as { n: number }).n;
}

export function countPairs(project: Project, filter: PairFilter, viewer: string | null = null): number {
  const db = dbOf(project);
  const { where, params } = filterSql(filter, viewer);
  return (db.prepare(`SELECT count(*) AS n FROM pairs p WHERE ${where}`).get(...params) as { n: number }).n;
}

/**
 * Where a page of the list starts: at a list position (offset), or right after / before a
 * pair already on screen (keyset: the neighbouring page's last / first id).
 */
export type PageStart = { offset: number } | { afterId: number } | { beforeId: number };

/**
 * One page of the pairs matching `filter`, in id order. Keyset starts read only the page's
 * rows along the primary key (1.1 ms at any depth of 1M pairs); an offset first finds the
 * id at that position from the primary key alone (91 ms at 500k of 1M) and reads on from
 * it, instead of stepping over every full row before it (272 ms). NOT INDEXED keeps the
 * scan in id order: the pairs_visible index would make SQLite sort the matches (50 ms a page).
 */
export function listPairs(
  project: Project,
  filter: PairFilter,
  start: PageStart,
  limit: number,
  viewer: string | null = null,
): PairSummary[] {
  const db = dbOf(project);
  const { where, params } = filterSql(filter, viewer);
  const columns = scoredRow(viewer);
  if (filter.order === 'parallelism') {
    // Least parallel first, unscored pairs last; pages by list position (no keyset on a score).
    const offset = 'offset' in start ? start.offset : 0;
    const sql = `SELECT ${columns} FROM pairs p ${SCORES_JOIN} WHERE ${where}
      ORDER BY s.score IS NULL, s.score, p.id LIMIT ? OFFSET ?`;
    return (db.prepare(sql).all(...params, limit, offset) as PairRow[]).map(summaryOf);
  }
  const from = `FROM pairs p NOT INDEXED ${SCORES_JOIN} WHERE ${where}`;
  let rows: PairRow[];
  if ('beforeId' in start) {
    rows = db
      .prepare(`SELECT ${columns} ${from} AND p.id < ? ORDER BY p.id DESC LIMIT ?`)
      .all(...params, start.beforeId, limit) as PairRow[];
    rows.reverse();
  } else {
    let after = 'afterId' in start ? start.afterId : 0;
    if ('offset' in start && start.offset > 0) {
      const first = db
        .prepare(`SELECT p.id ${from} ORDER BY p.id LIMIT 1 OFFSET ?`)
        .pluck()
        .get(...params, start.offset) as number | undefined;
      if (first === undefined) return [];
      after = first - 1;
    }
    rows = db.prepare(`SELECT ${columns} ${from} AND p.id > ? ORDER BY p.id LIMIT ?`).all(...params, after, limit) as PairRow[];
  }
  return rows.map(summaryOf);
}

/** The pairs of the train split (the ones whose gold a training run learns from). */
export function trainSplitPairs(project: Project): Set<number> {
  const db = dbOf(project);
  return new Set(db.prepare(`SELECT id FROM pairs WHERE split = 'train'`).pluck().all() as number[]);
}

/** One visible pair's row, with the status and note `viewer` sees (the pair's own when null). */
export function getPairRow(project: Project, id: number, viewer: string | null = null): PairRow | undefined {
  const db = dbOf(project);
  return db
    .prepare(`SELECT ${scoredRow(viewer)} FROM pairs p ${SCORES_JOIN} WHERE p.id = ? AND ${VISIBLE}`)
    .get(id, ...reviewParams(viewer)) as PairRow | undefined;
}

export function summaryOf(row: PairRow): PairSummary {
  return {
    id: row.id,
    src: row.src_text,
    tgt: row.tgt_text,
    srcTokens: tokensOf(row.src_text, row.src_tokens, row.id, 'src'),
    tgtTokens: tokensOf(row.tgt_text, row.tgt_tokens, row.id, 'tgt'),
    status: row.v_status ?? row.status,
    split: row.split,
    note: row.v_note ?? row.note,
    excluded: row.excluded === 1,
    parallelism:
      row.ps_score === undefined || row.ps_score === null
        ? null
        : {
            score: row.ps_score,
            misaligned: row.ps_misaligned === 1,
            rival:
              row.ps_rival_pair !== null && row.ps_rival_pair !== undefined
                ? { pairId: row.ps_rival_pair, side: row.ps_rival_side ?? 'target', score: row.ps_rival_score ?? 0 }
                : null,
          },
  };
}

/** Visible pairs matching `filter` in id order, read in batches (keyset pagination). */
export function iteratePairRows(project: Project, filter: PairFilter, batch = 1000): Generator<PairRow[]> {
  const { where, params } = filterSql(filter);
  return pairRowBatches(project, where, params, batch);
}

/**
 * The pairs above `afterId` WHERE `where` holds, in id order, `batch` rows a read, each read
 * going on along the primary key from the last id: NOT INDEXED, as the pairs_visible index
 * would make SQLite read and sort every pair after it for each batch (a whole export of a
 * million pairs: minutes). The token blobs of a batch come as one blob a side (group_concat
 * of the blobs in id order: SQLite concatenates a blob's bytes as they are), cut into the rows'
 * views of it by their lengths: better-sqlite3 makes each blob a Buffer of its own memory, and
 * 400k of them (a batch of 200 reads of 1,000 pairs) took 1.39–1.52 s of CPU, their lengths
 * and 400 concatenations 0.38–0.55 s. The views share the batch's memory: a caller keeping a
 * side's offsets copies them (offsetsOf).
 */
function* pairRowBatches(project: Project, where: string, params: unknown[], batch: number, afterId = 0): Generator<PairRow[]> {
  const db = dbOf(project);
  const rowsStmt = db
    .prepare(
      `SELECT p.id, p.src_text, p.tgt_text, p.status, p.split, p.note, p.excluded, octet_length(p.src_tokens), octet_length(p.tgt_tokens)
       FROM pairs p NOT INDEXED WHERE ${where} AND p.id > ? ORDER BY p.id LIMIT ?`,
    )
    .raw();
  const blobsStmt = db
    .prepare(
      `SELECT CAST(group_concat(p.src_tokens, x'' ORDER BY p.id) AS BLOB), CAST(group_concat(p.tgt_tokens, x'' ORDER BY p.id) AS BLOB)
       FROM pairs p NOT INDEXED WHERE ${where} AND p.id BETWEEN ? AND ?`,
    )
    .raw();
  // one transaction a batch: the blobs are those of the rows read, whatever another connection writes
  const read = db.transaction((last: number): PairRow[] => {
    const raw = rowsStmt.all(...params, last, batch) as [number, string, string, PairStatus, Split, string, 0 | 1, number, number][];
    if (raw.length === 0) return [];
    const [srcAll, tgtAll] = blobsStmt.get(...params, raw[0][0], raw[raw.length - 1][0]) as [Buffer | null, Buffer | null];
    const rows: PairRow[] = new Array(raw.length);
    let atSrc = 0;
    let atTgt = 0;
    for (let k = 0; k < raw.length; k++) {
      const [id, src_text, tgt_text, status, split, note, excluded, nSrc, nTgt] = raw[k];
      rows[k] = {
        id,
        src_text,
        tgt_text,
        src_tokens: srcAll ? srcAll.subarray(atSrc, (atSrc += nSrc)) : EMPTY,
        tgt_tokens: tgtAll ? tgtAll.subarray(atTgt, (atTgt += nTgt)) : EMPTY,
        status,
        split,
        note,
        excluded,
      };
    }
    return rows;
  });
  for (let last = afterId; ;) {
    const rows = read(last);
    if (rows.length === 0) return;
    yield rows;
    last = rows[rows.length - 1].id;
  }
}

const EMPTY = Buffer.alloc(0);

/** Lowercase character → the characters whose toLowerCase() is it, itself first (built on first use). */
let casings: Map<string, string[]> | null = null;

function casingsOf(c: string): string[] {
  if (!casings) {
    casings = new Map();
    // every cased script's capitals lie below U+1F000 (Adlam, the last, ends at U+1E921)
    for (let cp = 0; cp < 0x1f000; cp++) {
      const upper = String.fromCodePoint(cp);
      const lower = upper.toLowerCase();
      if (lower === upper || [...lower].length !== 1) continue;
      (casings.get(lower) ?? casings.set(lower, [lower]).get(lower)!).push(upper);
    }
    // Σ lowercases to σ or, ending a word, ς: either may stand for it
    const sigma = [...new Set(['σ', 'ς', ...casings.get('σ')!])];
    casings.set('σ', sigma).set('ς', sigma);
  }
  return casings.get(c) ?? [c];
}

/**
 * A pattern that every text holding a token whose toLowerCase() is `word` matches (and some
 * others), as SQL: LIKE when every letter of the word has no casing but its ASCII capital
 * (LIKE folds ASCII only; a quarter of GLOB's time), else GLOB with each character as the
 * class of the characters that lowercase to it. Null when no pattern is sure to (a dot above
 * after i: İ lowercases to i and the dot, two characters).
 */
export function caseBlindPattern(word: string): { like: string } | { glob: string } | null {
  const lower = word.toLowerCase();
  if (lower.includes('\u0307')) return null;
  const chars = [...lower];
  const asciiOnly = chars.every((c) => {
    const all = casingsOf(c);
    return all.length === 1 || (all.length === 2 && all[1] === c.toUpperCase() && c < '\u0080');
  });
  if (asciiOnly) return { like: `%${chars.map((c) => ('%_\\'.includes(c) ? `\\${c}` : c)).join('')}%` };
  let glob = '*';
  for (const c of chars) {
    const all = casingsOf(c);
    glob += all.length > 1 ? `[${all.join('')}]` : '*?['.includes(c) ? `[${c}]` : c;
  }
  return { glob: glob + '*' };
}

/**
 * Visible pairs above `afterId` whose source text may hold `src` and whose target text may
 * hold `tgt`, as tokens compared case-folded: a superset (the caller checks the tokens), found
 * by SQLite in the texts so that the rows of pairs holding neither are never read into JavaScript.
 */
export function iteratePairRowsHolding(project: Project, src: string, tgt: string, batch = 1000, afterId = 0): Generator<PairRow[]> {
  const { where, params } = filterSql({});
  const clauses = [where];
  for (const [column, word] of [
    ['p.src_text', src],
    ['p.tgt_text', tgt],
  ] as const) {
    const pattern = caseBlindPattern(word);
    if (pattern === null) continue;
    clauses.push('like' in pattern ? `${column} LIKE ? ESCAPE '\\'` : `${column} GLOB ?`);
    params.push('like' in pattern ? pattern.like : pattern.glob);
  }
  return pairRowBatches(project, clauses.join(' AND '), params, batch, afterId);
}

/** A reader of one visible pair's row by id (undefined when there is none). */
export function pairRowReader(project: Project): (id: number) => PairRow | undefined {
  const stmt = dbOf(project).prepare(`SELECT p.* FROM pairs p WHERE p.id = ? AND ${VISIBLE}`);
  return (id) => stmt.get(id) as PairRow | undefined;
}

/** The pairs the review queue may rank, in columns: pair `ids[k]` has `ns[k]` source and `nt[k]` target tokens. */
export interface QueueCandidates {
  ids: number[];
  ns: Int32Array;
  nt: Int32Array;
}

/** Token counts up to this are packed with the pair id in one integer; a pair with more is read again. */
const PACKED_COUNT = 2047;

/**
 * The visible pairs matching `filter` as `viewer` sees their status (pair-reviews.ts) and,
 * with `annotator`, that they edited, in no set order, with token counts. The counts come
 * from the pairs_queue index (migration 16: the lengths of the token blobs), so the common
 * query reads that index alone, not the texts; each row comes as one integer, the pair id and
 * both counts packed (ids < 2^31 keep it below 2^53), since a million rows as objects cost
 * more than the query.
 */
export function queueCandidates(project: Project, filter: PairFilter, viewer: string | null, annotator?: string): QueueCandidates {
  const db = dbOf(project);
  const { where, params } = filterSql(filter, viewer);
  const byAnnotator = annotator ? ' AND EXISTS (SELECT 1 FROM edit_events e WHERE e.pair_id = p.id AND e.annotator = ?)' : '';
  const packed = db
    .prepare(
      `SELECT (p.id << 22) | (min(length(p.src_tokens) / 8, ${PACKED_COUNT}) << 11) | min(length(p.tgt_tokens) / 8, ${PACKED_COUNT})
    FROM pairs p WHERE ${where}${byAnnotator}`,
    )
    .pluck()
    .all(...params, ...(annotator ? [annotator] : [])) as number[];
  const n = packed.length;
  const out: QueueCandidates = { ids: new Array<number>(n), ns: new Int32Array(n), nt: new Int32Array(n) };
  const exact = db.prepare(`SELECT length(src_tokens) / 8 AS ns, length(tgt_tokens) / 8 AS nt FROM pairs WHERE id = ?`);
  for (let k = 0; k < n; k++) {
    const v = packed[k];
    out.ids[k] = Math.floor(v / 4194304);
    out.ns[k] = Math.floor(v / 2048) % 2048;
    out.nt[k] = v % 2048;
    if (out.ns[k] === PACKED_COUNT || out.nt[k] === PACKED_COUNT) {
      const c = exact.get(out.ids[k]) as { ns: number; nt: number };
      [out.ns[k], out.nt[k]] = [c.ns, c.nt];
    }
  }
  return out;
}
