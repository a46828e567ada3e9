// Every change a person makes to a pair goes through here: the change is applied and an
// event appended to the edit log in one transaction. An event stores the pair's state
// before and after (only the parts that changed), so undo re-applies `before` and redo
// re-applies `after`, each as a new event pointing at the one it reverses (`undoes`).
// The log is never rewritten: it is the audit trail and the basis of agreement reports.
// An edit made by a call sent with a request id records that id in its transaction
// (answered-requests.ts), so a re-sent call is known to have run, even after a restart.
//
// Undo stacks are per annotator. An event is *active* until a later event undoes it.
// Undo reverses the newest active event that is not itself an undo; redo reverses the
// newest active undo, provided no plain edit came after it. A reversal takes back the
// event's own changes only: links, marks and shared rejections cell by cell on the pair as
// it is now, status and note only where no one changed them since (`reversal`), so an undo
// never removes another person's later edit of a shared layer (adjudicated gold, a shared note).
//
// Groups: a bulk fix (one change over many pairs) is logged as one event per pair, all
// carrying the same `group_id`. Undo and redo act on a whole group: every active member
// is reversed, newest first, in one transaction, and the reversing events form a new
// group themselves, so undo → redo → undo of a bulk fix stays whole. A corpus-wide change
// writes its group over many short transactions (bounded-writes.ts) while others edit: the
// group's id is its first event's, so no event of anyone else joins it, and an undo that
// reaches the group while it is still being written stops the writer (groupWriter), so the
// group is reversed whole, never half.
//
// Every edit transaction takes the write lock at its start (BEGIN IMMEDIATE): one that read
// first and then found the lock taken would fail at once instead of waiting for it.
import type { Link, PairStatus, Split } from '../../shared/domain.ts';
import { linkKey, rebaseCells, sortedLinks, type LinkRef, type RejectedLink } from '../../shared/link-set.ts';
import type { TokenSide } from '../../shared/editor-api.ts';
import { UserError } from '../errors.ts';
import type { Db } from './database.ts';
import { blobOf } from './pairs.ts';
import { pairLinksReader, rejectedWithAnnotator, replacePairLinks } from './alignments.ts';
import { putReview, type PairReview } from './pair-reviews.ts';
import { dbOf, type Project } from './connection.ts';
import { recordRequestOfEdit } from './answered-requests.ts';

/** A token marked "not translated" in one alignment. */
export interface UntranslatedMark {
  side: TokenSide;
  index: number;
}

/** The parts of a pair an edit may change; absent fields are left alone. */
export interface PairPatch {
  status?: PairStatus;
  split?: Split;
  note?: string;
  srcOffsets?: number[];
  tgtOffsets?: number[];
  /** Links per alignment id. */
  links?: Record<string, Link[]>;
  /** The editing annotator's rejected links of the pair (their set is replaced; others' stay). */
  rejected?: LinkRef[];
  /** Every annotator's rejected links of the pair (the whole set is replaced: token edits, shared annotation). */
  rejectedAll?: RejectedLink[];
  /** "Not translated" tokens per alignment id. */
  untranslated?: Record<string, UntranslatedMark[]>;
  /** The editing annotator's own status and note of the pair (pair-reviews.ts); null: they have none. */
  review?: PairReview | null;
}

export interface EditEvent {
  id: number;
  at: string;
  annotator: string;
  pairId: number | null;
  kind: string;
  before: PairPatch;
  after: PairPatch;
  undoes: number | null;
  groupId: number | null;
}

/** One pair's part of a grouped edit. */
export interface PairEdit {
  pairId: number;
  before: PairPatch;
  after: PairPatch;
}

interface EventRow {
  id: number;
  at: string;
  annotator: string;
  pair_id: number | null;
  kind: string;
  payload: string;
  undoes: number | null;
  group_id: number | null;
}
type EventHead = Pick<EventRow, 'id' | 'kind' | 'undoes' | 'group_id'>;

function applyPairColumns(db: Db, pairId: number, patch: PairPatch): void {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [col, value] of [
    ['status', patch.status],
    ['split', patch.split],
    ['note', patch.note],
  ] as const) {
    if (value !== undefined) {
      sets.push(`${col} = ?`);
      params.push(value);
    }
  }
  if (patch.srcOffsets) {
    sets.push('src_tokens = ?');
    params.push(blobOf(Uint32Array.from(patch.srcOffsets)));
  }
  if (patch.tgtOffsets) {
    sets.push('tgt_tokens = ?');
    params.push(blobOf(Uint32Array.from(patch.tgtOffsets)));
  }
  if (sets.length) db.prepare(`UPDATE pairs SET ${sets.join(', ')} WHERE id = ?`).run(...params, pairId);
}

function applyPatch(db: Db, pairId: number, patch: PairPatch, annotator: string): void {
  applyPairColumns(db, pairId, patch);
  for (const [alignmentId, links] of Object.entries(patch.links ?? {})) replacePairLinks(db, Number(alignmentId), pairId, links);
  const put = db.prepare('INSERT OR IGNORE INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, ?, ?, ?, ?)');
  const at = new Date().toISOString();
  if (patch.rejectedAll) {
    db.prepare('DELETE FROM rejected_links WHERE pair_id = ?').run(pairId);
    for (const r of patch.rejectedAll) put.run(pairId, r.s, r.t, r.annotator, at);
  }
  if (patch.rejected) {
    db.prepare('DELETE FROM rejected_links WHERE pair_id = ? AND annotator = ?').run(pairId, annotator);
    for (const r of patch.rejected) put.run(pairId, r.s, r.t, annotator, at);
  }
  for (const [alignmentId, marks] of Object.entries(patch.untranslated ?? {})) {
    db.prepare('DELETE FROM untranslated WHERE alignment_id = ? AND pair_id = ?').run(Number(alignmentId), pairId);
    const put = db.prepare('INSERT OR IGNORE INTO untranslated (alignment_id, pair_id, side, idx) VALUES (?, ?, ?, ?)');
    for (const m of marks) put.run(Number(alignmentId), pairId, m.side, m.index);
  }
  if (patch.review !== undefined) putReview(db, pairId, annotator, patch.review);
}

/** Appends an event to the log, with the request id of the call that made it (answered-requests.ts): in the edit's transaction. */
function append(db: Db, e: Omit<EditEvent, 'id' | 'at'>): number {
  recordRequestOfEdit(db);
  const r = db
    .prepare(`INSERT INTO edit_events (at, annotator, pair_id, kind, payload, undoes, group_id) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .run(
      new Date().toISOString(),
      e.annotator,
      e.pairId,
      e.kind,
      JSON.stringify({ before: e.before, after: e.after }),
      e.undoes,
      e.groupId,
    );
  return Number(r.lastInsertRowid);
}

/** The id the next event will get: used as the group id of the events about to be appended. */
function nextGroupId(db: Db): number {
  return (db.prepare('SELECT coalesce(max(id), 0) + 1 AS n FROM edit_events').get() as { n: number }).n;
}

/** Applies `after` to the pair and logs the edit, atomically. Returns the event id. */
export function recordEdit(project: Project, annotator: string, pairId: number, kind: string, before: PairPatch, after: PairPatch): number {
  const db = dbOf(project);
  return db
    .transaction(() => {
      applyPatch(db, pairId, after, annotator);
      return append(db, { annotator, pairId, kind, before, after, undoes: null, groupId: null });
    })
    .immediate();
}

/** One edit group being written, pair by pair, over one or many transactions. */
export interface GroupWriter {
  /** Applies one pair's edit and logs it as a member of the group; call inside a write transaction. */
  add(edit: PairEdit): void;
  /** The group's id, once its first edit is written. */
  readonly groupId: number | null;
  /** How many edits the group holds. */
  readonly size: number;
  /**
   * Throws when an undo has reversed part of the group since the last call (the annotator
   * pressed undo while the change was being written): writing the rest would leave it half
   * undone. Call inside the transaction of the next edits.
   */
  checkNotUndone(): void;
}

/** Starts an edit group of `kind` for `annotator` (undone and redone as a whole). */
export function groupWriter(project: Project, annotator: string, kind: string): GroupWriter {
  const db = dbOf(project);
  let groupId: number | null = null;
  let size = 0;
  let checkedTo = 0;
  const undoneSince = db.prepare(
    `SELECT 1 FROM edit_events u JOIN edit_events g ON g.id = u.undoes WHERE u.id > ? AND g.group_id = ? LIMIT 1`,
  );
  return {
    add(e) {
      if (groupId === null) {
        groupId = nextGroupId(db);
        checkedTo = groupId;
      }
      applyPatch(db, e.pairId, e.after, annotator);
      append(db, { annotator, pairId: e.pairId, kind, before: e.before, after: e.after, undoes: null, groupId });
      size++;
    },
    get groupId() {
      return groupId;
    },
    get size() {
      return size;
    },
    checkNotUndone() {
      if (groupId === null) return;
      const found = undoneSince.get(checkedTo, groupId) !== undefined;
      checkedTo = nextGroupId(db) - 1;
      if (found) throw new UserError(`${kind}: undone while it was being saved; the rest of it was not written`);
    },
  };
}

function toEvent(r: EventRow): EditEvent {
  const { before, after } = JSON.parse(r.payload) as { before: PairPatch; after: PairPatch };
  return {
    id: r.id,
    at: r.at,
    annotator: r.annotator,
    pairId: r.pair_id,
    kind: r.kind,
    before,
    after,
    undoes: r.undoes,
    groupId: r.group_id,
  };
}

/** The annotator's event heads, newest first, with the set of ids some later event undid. */
function history(db: Db, annotator: string): { events: EventHead[]; undone: Set<number> } {
  const events = db
    .prepare(`SELECT id, kind, undoes, group_id FROM edit_events WHERE annotator = ? ORDER BY id DESC`)
    .all(annotator) as EventHead[];
  return { events, undone: new Set(events.flatMap((e) => (e.undoes === null ? [] : [e.undoes]))) };
}

/** The target event and, for a group, its other active members of the same kind class; newest first. */
function membersOf(h: { events: EventHead[]; undone: Set<number> }, target: EventHead): number[] {
  if (target.group_id === null) return [target.id];
  const isUndo = target.kind === 'undo';
  return h.events.filter((e) => e.group_id === target.group_id && !h.undone.has(e.id) && (e.kind === 'undo') === isUndo).map((e) => e.id);
}

/**
 * The patches that take a pair from the state an event left (`from`) back to `to`, leaving
 * what others changed since: each layer's links, its "not translated" marks and the shared
 * rejections are rebased cell by cell on the pair's present ones (rebaseCells), and the
 * pair's status and note go back only when no one changed them since. Without a change by
 * anyone else this is exactly `to`. `before` is the pair's present state of the same parts.
 */
function reversal(project: Project, pairId: number, from: PairPatch, to: PairPatch): { before: PairPatch; after: PairPatch } {
  const db = dbOf(project);
  const before: PairPatch = { ...from };
  const after: PairPatch = { ...to };
  const pairColumns = db.prepare('SELECT status, note FROM pairs WHERE id = ?').get(pairId) as Pick<PairPatch, 'status' | 'note'>;
  for (const column of ['status', 'note'] as const) {
    if (from[column] !== undefined && pairColumns[column] !== from[column]) {
      delete before[column];
      delete after[column];
    }
  }
  if (to.links) {
    const linksOf = pairLinksReader(project);
    before.links = {};
    after.links = {};
    for (const [id, links] of Object.entries(to.links)) {
      const present = linksOf(Number(id), pairId);
      before.links[id] = present;
      after.links[id] = sortedLinks(rebaseCells(present, from.links?.[id] ?? [], links, (l) => linkKey(l.s, l.t)));
    }
  }
  if (to.untranslated) {
    const marksOf = db.prepare('SELECT side, idx AS "index" FROM untranslated WHERE alignment_id = ? AND pair_id = ? ORDER BY side, idx');
    before.untranslated = {};
    after.untranslated = {};
    for (const [id, marks] of Object.entries(to.untranslated)) {
      const present = marksOf.all(Number(id), pairId) as UntranslatedMark[];
      before.untranslated[id] = present;
      after.untranslated[id] = rebaseCells(present, from.untranslated?.[id] ?? [], marks, (m) => `${m.side}:${m.index}`).sort(
        (a, b) => a.side.localeCompare(b.side) || a.index - b.index,
      );
    }
  }
  if (to.rejectedAll) {
    const present = rejectedWithAnnotator(project, pairId);
    const cell = (r: RejectedLink) => `${linkKey(r.s, r.t)}:${r.annotator}`;
    before.rejectedAll = present;
    after.rejectedAll = sortedLinks(rebaseCells(present, from.rejectedAll ?? [], to.rejectedAll, cell));
  }
  return { before, after };
}

/** Reverses events (ids newest first) in one transaction; returns the first one's pair id. */
function reverse(project: Project, annotator: string, ids: number[], kind: 'undo' | 'redo'): number | null {
  const db = dbOf(project);
  const get = db.prepare('SELECT * FROM edit_events WHERE id = ?');
  const targets = ids.map((id) => toEvent(get.get(id) as EventRow)).filter((e) => e.pairId !== null);
  if (targets.length === 0) return null;
  db.transaction(() => {
    const groupId = targets.length > 1 ? nextGroupId(db) : null;
    for (const t of targets) {
      const { before, after } = reversal(project, t.pairId as number, t.after, t.before);
      applyPatch(db, t.pairId as number, after, annotator);
      append(db, { annotator, pairId: t.pairId, kind, before, after, undoes: t.id, groupId });
    }
  }).immediate();
  return targets[0].pairId;
}

/** Undoes the annotator's newest active edit (or edit group); returns its pair id, or null if none. */
export function undo(project: Project, annotator: string): number | null {
  const db = dbOf(project);
  const h = history(db, annotator);
  const target = h.events.find((e) => e.kind !== 'undo' && !h.undone.has(e.id));
  return target ? reverse(project, annotator, membersOf(h, target), 'undo') : null;
}

/** Redoes the annotator's newest active undo (or undo group); returns its pair id, or null if none. */
export function redo(project: Project, annotator: string): number | null {
  const db = dbOf(project);
  const h = history(db, annotator);
  for (const e of h.events) {
    if (h.undone.has(e.id)) continue;
    if (e.kind === 'undo') return reverse(project, annotator, membersOf(h, e), 'redo');
    if (e.kind !== 'redo') return null;
  }
  return null;
}
