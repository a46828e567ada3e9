// The word index (migration 17): each visible pair's words, lowercased as the concordance
// compares them (review/concordance.ts), in an FTS5 table keyed by pair id, so that the
// concordance of a word pair reads the pairs holding both words instead of matching LIKE
// patterns against every text (5.7 s for the / die at 1M pairs: docs/experiments.md).
//
// An insert trigger does not fill it: an FTS5 insert trigger on pairs made imports 10–20×
// slower. `mekong import` fills it once its pairs are in, in long slices (bounded-writes.ts:
// another process's editor still gets the lock between them), so that the app serving the
// project next has nothing left to index; the process that serves a project fills what is
// left after the fact (keepWordIndex: an import in the app, or one the CLI left unfinished), in
// short slices (`interleaved`: it runs on the thread that answers the editor, where an edit
// waits for the slice under way, and a slice's FTS5 commit can outlast its plan: at 1M pairs
// slices planned at 15 ms held the thread 18.5 ms at the median, 45 ms at the 99th percentile
// and up to 316 ms, docs/experiments.md), up to pair_words_state.indexed_to. Every pair below
// that is indexed with its words, except the stale ones, whose words changed since (migration
// 17's trigger lists them on any UPDATE of their texts or tokens, by any connection; the
// indexer replaces their words); a deleted pair leaves the index by trigger. So the
// concordance is complete at every moment: index hits less the stale pairs, plus the stale
// pairs and the pairs above indexed_to checked as before (wordCandidates).
//
// Terms: a source word w is 's' + w, a target word 't' + w. The tokenizer splits only at ASCII
// white space and control characters, so a word with none of them is one term, and a pair the
// index finds for two such words holds both exactly. A word with them (a merged token "new
// york") is indexed as its pieces, each 'p' + piece on the source side and 'q' + piece on the
// target side (so that "new" alone never finds it), and looked up as all of them, each hit checked.
import { dbOf, type Project } from './connection.ts';
import type { Db } from './database.ts';
import { offsetsOf } from './pairs.ts';
import { writeInSlices } from './bounded-writes.ts';
import { deferCheckpoint } from './wal-checkpoints.ts';

/** The words of one side of a pair (tokens cut out of `text` by `blob`), lowercased: how the concordance compares them. */
export function pairWords(text: string, blob: Buffer): string[] {
  const o = offsetsOf(blob);
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(o[2 * i], o[2 * i + 1]).toLowerCase();
  return out;
}

/** Where the index's tokenizer splits (migration 17): ASCII white space and control characters. */
const SEPARATORS = /[\x00-\x20\x7f]+/;

/** The prefixes of a side's terms: a whole word's, and a piece's of a word holding a separator. */
const PREFIX = { src: { word: 's', piece: 'p' }, tgt: { word: 't', piece: 'q' } } as const;

/** The index terms of word `w` (lowercased) on side `side`: the word, or the pieces of a word holding separators. */
function termsOf(side: 'src' | 'tgt', w: string): { terms: string[]; whole: boolean } {
  const pieces = w.split(SEPARATORS).filter((piece) => piece !== '');
  if (pieces.length === 1 && pieces[0] === w) return { terms: [PREFIX[side].word + w], whole: true };
  return { terms: pieces.map((piece) => PREFIX[side].piece + piece), whole: false };
}

function documentOf(src: string[], tgt: string[]): string {
  return [...src.flatMap((w) => termsOf('src', w).terms), ...tgt.flatMap((w) => termsOf('tgt', w).terms)].join(' ');
}

/** Pairs indexed per step of the indexer's slices: about 2 ms of work, well inside a 15 ms slice. */
const STEP_PAIRS = 100;

interface TextRow {
  id: number;
  src_text: string;
  tgt_text: string;
  src_tokens: Buffer;
  tgt_tokens: Buffer;
}

/**
 * The highest pair id the index may cover now: every pair at or below it is visible (the pairs
 * of an import still running, whose ids come after, are not, and are deleted if it fails).
 */
function indexableTo(db: Db): number {
  const running = db
    .prepare(`SELECT min(id) FROM pairs WHERE import_id IN (SELECT id FROM imports WHERE state = 'running')`)
    .pluck()
    .get() as number | null;
  if (running !== null) return running - 1;
  return db.prepare(`SELECT coalesce(max(id), 0) FROM pairs`).pluck().get() as number;
}

/**
 * A step of the indexer, its statements prepared once: indexes up to STEP_PAIRS pairs (stale
 * ones first, then the next above indexed_to) and says whether any are left; `reached` is told
 * how much of the id range above indexed_to as the first step found it is indexed, of how
 * much. Run inside a write transaction.
 */
function indexer(db: Db, reached: (done: number, of: number) => void): () => boolean {
  const insert = db.prepare(`INSERT INTO pair_words (rowid, words) VALUES (?, ?)`);
  const staleIds = db.prepare(`SELECT pair_id FROM pair_words_stale LIMIT ?`).pluck();
  const row = db.prepare(`SELECT id, src_text, tgt_text, src_tokens, tgt_tokens FROM pairs WHERE id = ?`);
  const old = db.prepare(`DELETE FROM pair_words WHERE rowid = ?`);
  const done = db.prepare(`DELETE FROM pair_words_stale WHERE pair_id = ?`);
  const indexedTo = db.prepare(`SELECT indexed_to FROM pair_words_state`).pluck();
  const next = db.prepare(`SELECT id, src_text, tgt_text, src_tokens, tgt_tokens FROM pairs WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`);
  const reach = db.prepare(`UPDATE pair_words_state SET indexed_to = ?`);
  const add = (r: TextRow) => insert.run(r.id, documentOf(pairWords(r.src_text, r.src_tokens), pairWords(r.tgt_text, r.tgt_tokens)));
  let start: number | undefined;
  return () => {
    const stale = staleIds.all(STEP_PAIRS) as number[];
    if (stale.length > 0) {
      for (const id of stale) {
        old.run(id);
        const r = row.get(id) as TextRow | undefined;
        if (r) add(r);
        done.run(id);
      }
      return true;
    }
    const from = indexedTo.get() as number;
    const to = indexableTo(db);
    if (to <= from) return false;
    start ??= from;
    const rows = next.all(from, to, STEP_PAIRS) as TextRow[];
    for (const r of rows) add(r);
    const now = rows.length === STEP_PAIRS ? rows[rows.length - 1].id : to;
    reach.run(now);
    reached(now - start, to - start);
    return now < to;
  };
}

export interface IndexOptions {
  signal?: AbortSignal;
  /** A process that serves no editor (`mekong import`): long slices, and no checkpoint deferred. */
  noEditor?: boolean;
  /** Told, after each step, how much of the pair ids above indexed_to (as it was when the first step began) is indexed, of how much. */
  progress?: (done: number, of: number) => void;
}

/**
 * Brings the index up to date: the stale pairs and every visible pair above indexed_to, in
 * slices (its reads and writes in the same transaction, so a pair's words are never read in
 * one slice and written in another after an edit): interleaved ones on the thread that serves
 * the editor, long ones with `noEditor`. Resolves with the slices.
 */
export async function updateWordIndex(project: Project, o: IndexOptions = {}): Promise<number> {
  const step = indexer(dbOf(project), o.progress ?? (() => {}));
  let more = true;
  function* steps() {
    while (more) yield;
  }
  const run = () => writeInSlices(project, steps(), () => (more = step()), { interleaved: !o.noEditor, signal: o.signal });
  if (o.noEditor) return run();
  // its commits are the serving thread's: no automatic checkpoint inside them; the WAL is copied once edits and slices pause (wal-checkpoints.ts)
  deferCheckpoint(project);
  try {
    return await run();
  } finally {
    deferCheckpoint(project);
  }
}

/** Whether the index lacks pairs: stale ones, or visible ones above indexed_to. */
export function wordIndexBehind(project: Project): boolean {
  const db = dbOf(project);
  if (db.prepare(`SELECT EXISTS (SELECT 1 FROM pair_words_stale)`).pluck().get()) return true;
  return indexableTo(db) > (db.prepare(`SELECT indexed_to FROM pair_words_state`).pluck().get() as number);
}

const indexing = new WeakSet<Project>();

/**
 * Starts bringing the index of `project` up to date in the background of this process, unless
 * it is already under way or the project is read-only; called by the process serving the
 * project when it opens it, after an import and when the concordance finds pairs unindexed.
 * It stops when the project closes; a failure (a full disk) leaves the rest for the next call.
 */
export function keepWordIndex(project: Project): void {
  const db = dbOf(project);
  if (db.readonly || indexing.has(project) || !wordIndexBehind(project)) return;
  indexing.add(project);
  void updateWordIndex(project)
    .catch((err: unknown) => {
      // A project closed while it ran: the next opening goes on from indexed_to. Anything
      // else (a full disk) leaves the concordance reading the unindexed pairs as before.
      if (db.open) console.warn(`mekong: warning: word index of ${project.path}: ${err instanceof Error ? err.message : String(err)}`);
    })
    .finally(() => indexing.delete(project));
}

/**
 * The pairs that may hold source word `src` and target word `tgt` (lowercased), as the index
 * gives them: `hits`, the pairs the index holds with both words' terms, less the stale ones,
 * in id order (exactly the pairs holding both words when `exact`); `stale`, the indexed pairs
 * whose words changed since, in id order, to check; and every pair above `indexedTo` is to be
 * checked too. Null when a word has no term (only white space): the index cannot narrow the search.
 */
export function wordCandidates(
  project: Project,
  src: string,
  tgt: string,
): { hits: number[]; exact: boolean; stale: number[]; indexedTo: number } | null {
  const [s, t] = [termsOf('src', src), termsOf('tgt', tgt)];
  if (s.terms.length === 0 || t.terms.length === 0) return null;
  const db = dbOf(project);
  const query = [...s.terms, ...t.terms].map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ');
  // One read transaction, so that the hits, the stale pairs and indexed_to agree.
  return db.transaction(() => {
    const hits = db.prepare(`SELECT rowid FROM pair_words WHERE pair_words MATCH ? ORDER BY rowid`).pluck().all(query) as number[];
    const stale = db.prepare(`SELECT pair_id FROM pair_words_stale ORDER BY pair_id`).pluck().all() as number[];
    const out = new Set(stale);
    return {
      hits: out.size === 0 ? hits : hits.filter((id) => !out.has(id)),
      exact: s.whole && t.whole,
      stale,
      indexedTo: db.prepare(`SELECT indexed_to FROM pair_words_state`).pluck().get() as number,
    };
  })();
}
