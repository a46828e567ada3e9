// Every change a person makes to a pair goes through here: the change is applied and an
// event appended to the edit log in one transaction. An event stores the pair's state
// before and after (only the parts that changed), so undo re-applies `before` and redo
// re-applies `after`, each as a new event pointing at the one it reverses (`undoes`).
// The log is never rewritten: it is the audit trail and the basis of agreement reports.
//
// Undo stacks are per annotator. An event is *active* until a later event undoes it.
// Undo reverses the newest active event that is not itself an undo; redo reverses the
// newest active undo, provided no plain edit came after it.
import type { Link, PairStatus, Split } from '../../shared/domain.ts';
import type { Db } from './database.ts';
import { blobOf } from './pairs.ts';
import { replacePairLinks } from './alignments.ts';

/** The parts of a pair an edit may change; absent fields are left alone. */
export interface PairPatch {
  status?: PairStatus;
  split?: Split;
  note?: string;
  srcOffsets?: number[];
  tgtOffsets?: number[];
  /** Links per alignment id. */
  links?: Record<string, Link[]>;
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
}

interface EventRow { id: number; at: string; annotator: string; pair_id: number | null; kind: string; payload: string; undoes: number | null }

function applyPatch(db: Db, pairId: number, patch: PairPatch): void {
  const sets: string[] = [];
  const params: unknown[] = [];
  for (const [col, value] of [['status', patch.status], ['split', patch.split], ['note', patch.note]] as const) {
    if (value !== undefined) { sets.push(`${col} = ?`); params.push(value); }
  }
  if (patch.srcOffsets) { sets.push('src_tokens = ?'); params.push(blobOf(Uint32Array.from(patch.srcOffsets))); }
  if (patch.tgtOffsets) { sets.push('tgt_tokens = ?'); params.push(blobOf(Uint32Array.from(patch.tgtOffsets))); }
  if (sets.length) db.prepare(`UPDATE pairs SET ${sets.join(', ')} WHERE id = ?`).run(...params, pairId);
  for (const [alignmentId, links] of Object.entries(patch.links ?? {})) replacePairLinks(db, Number(alignmentId), pairId, links);
}

function append(db: Db, e: Omit<EditEvent, 'id' | 'at'>): number {
  const r = db.prepare(`INSERT INTO edit_events (at, annotator, pair_id, kind, payload, undoes) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(new Date().toISOString(), e.annotator, e.pairId, e.kind, JSON.stringify({ before: e.before, after: e.after }), e.undoes);
  return Number(r.lastInsertRowid);
}

/** Applies `after` to the pair and logs the edit, atomically. Returns the event id. */
export function recordEdit(db: Db, annotator: string, pairId: number, kind: string, before: PairPatch, after: PairPatch): number {
  return db.transaction(() => {
    applyPatch(db, pairId, after);
    return append(db, { annotator, pairId, kind, before, after, undoes: null });
  })();
}

function toEvent(r: EventRow): EditEvent {
  const { before, after } = JSON.parse(r.payload) as { before: PairPatch; after: PairPatch };
  return { id: r.id, at: r.at, annotator: r.annotator, pairId: r.pair_id, kind: r.kind, before, after, undoes: r.undoes };
}

/** The annotator's events, newest first, with the set of ids some later event undid. */
function history(db: Db, annotator: string): { events: EditEvent[]; undone: Set<number> } {
  const rows = db.prepare(`SELECT * FROM edit_events WHERE annotator = ? ORDER BY id DESC`).all(annotator) as EventRow[];
  const events = rows.map(toEvent);
  return { events, undone: new Set(events.flatMap((e) => (e.undoes === null ? [] : [e.undoes]))) };
}

function reverse(db: Db, annotator: string, target: EditEvent, kind: 'undo' | 'redo'): number | null {
  if (target.pairId === null) return null;
  const pairId = target.pairId;
  db.transaction(() => {
    applyPatch(db, pairId, target.before);
    append(db, { annotator, pairId, kind, before: target.after, after: target.before, undoes: target.id });
  })();
  return pairId;
}

/** Undoes the annotator's newest active edit; returns its pair id, or null if none. */
export function undo(db: Db, annotator: string): number | null {
  const { events, undone } = history(db, annotator);
  const target = events.find((e) => e.kind !== 'undo' && !undone.has(e.id));
  return target ? reverse(db, annotator, target, 'undo') : null;
}

/** Redoes the annotator's newest active undo; returns its pair id, or null if none. */
export function redo(db: Db, annotator: string): number | null {
  const { events, undone } = history(db, annotator);
  for (const e of events) {
    if (undone.has(e.id)) continue;
    if (e.kind === 'undo') return reverse(db, annotator, e, 'redo');
    if (e.kind !== 'redo') return null;
  }
  return null;
}

export function eventsOfPair(db: Db, pairId: number): EditEvent[] {
  return (db.prepare(`SELECT * FROM edit_events WHERE pair_id = ? ORDER BY id`).all(pairId) as EventRow[]).map(toEvent);
}
