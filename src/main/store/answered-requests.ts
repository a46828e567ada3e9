// The request ids of the changes a server answered (table `answered_requests`, migration 15).
// A page whose answer was lost sends its change again with the same request id; the server
// must then answer, not run it again, and so must a server started after the first one
// stopped. So the id is written in the same transaction as the change it asks for: the edit
// log's append (edits.ts) records the call under way (`inRequest`, carried through the
// call's awaits by AsyncLocalStorage), so an id is in the file exactly when its change is
// committed. The answer follows once the call returns (saveAnswer); a row without one is a
// change committed by a server that stopped before answering. Rows are kept for
// ANSWER_TTL_MS and the newest ANSWERS_PER_ACCOUNT of each account: a page re-sends its one
// unanswered change every few seconds, so its change is among its account's newest.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';

/** How long an answered request is kept for a re-send: a page left open over a weekend's restart still gets its answer. */
export const ANSWER_TTL_MS = 7 * 86_400_000;
/** Answered requests kept per account (a page has one change under way at a time; a few tabs, a few each). */
export const ANSWERS_PER_ACCOUNT = 100;

/** A call sent with a request id. */
export interface CallRequest {
  /** The account that sent it ('' on a single-user server). */
  account: string;
  channel: string;
  id: string;
}

interface Running extends CallRequest {
  project: Project;
  /** Set when the call has returned: work it left behind (a timer it started) records nothing. */
  finished: boolean;
}

const current = new AsyncLocalStorage<Running>();

/** Runs `run` as the call `request` on `project`: the edits it commits record the request's id with them. */
export async function inRequest<T>(project: Project, request: CallRequest, run: () => Promise<T>): Promise<T> {
  const running: Running = { ...request, project, finished: false };
  try {
    return await current.run(running, run);
  } finally {
    running.finished = true;
  }
}

/** Inside an edit's transaction on `db`: records the id of the call under way that made it, if any (once). */
export function recordRequestOfEdit(db: Db): void {
  const r = current.getStore();
  if (!r || r.finished || dbOf(r.project) !== db) return;
  db.prepare('INSERT OR IGNORE INTO answered_requests (account, channel, request_id, at) VALUES (?, ?, ?, ?)').run(
    r.account,
    r.channel,
    r.id,
    Date.now(),
  );
}

/**
 * What the project knows of `request`: undefined when nothing (it never ran here, or long
 * ago), null when its change was committed but its answer never saved, else the answer (JSON).
 */
export function savedAnswer(project: Project, request: CallRequest): string | null | undefined {
  const row = dbOf(project)
    .prepare('SELECT answer FROM answered_requests WHERE account = ? AND channel = ? AND request_id = ?')
    .get(request.account, request.channel, request.id) as { answer: string | null } | undefined;
  return row === undefined ? undefined : row.answer;
}

/** Saves the answer (JSON) of `request` (a call that changed nothing gets its row now), then forgets the oldest rows. */
export function saveAnswer(project: Project, request: CallRequest, answer: string, now = Date.now()): void {
  const db = dbOf(project);
  db.transaction(() => {
    db.prepare(
      `INSERT INTO answered_requests (account, channel, request_id, at, answer) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account, channel, request_id) DO UPDATE SET answer = excluded.answer`,
    ).run(request.account, request.channel, request.id, now, answer);
    db.prepare('DELETE FROM answered_requests WHERE at < ?').run(now - ANSWER_TTL_MS);
    db.prepare(
      `DELETE FROM answered_requests WHERE account = ? AND id <= (
         SELECT id FROM answered_requests WHERE account = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ).run(request.account, request.account, ANSWERS_PER_ACCOUNT);
  }).immediate();
}
