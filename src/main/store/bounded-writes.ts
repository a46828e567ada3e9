// Long writes as a run of short transactions, so that they never block an editor: a
// re-segmentation, a bulk fix, an import and a model alignment each write thousands of pairs,
// and one transaction over all of them held SQLite's write lock for a minute and more, while an
// edit from the app (another connection, a 5 s busy timeout) waited and failed.
//
// writeInSlices runs its steps in transactions that hold the lock for about SLICE_MS each (the
// clock is read between steps), then commits and pauses before the next one. The pause lets
// the thread's event loop run (a server answering the app while a job of its own writes) and
// lets another process take the lock. A writer of another process that found the lock taken
// waits in SQLite's busy handler, which sleeps and tries again on a fixed schedule: after up
// to 18 ms of waiting it tries within 10 ms, up to 128 ms within 25 ms, up to 228 ms within
// 50 ms, and after that every 100 ms. So a pause of a third of the slice plus 5 ms always
// outlasts the next try of a writer that started waiting during the slice (a 150 ms slice is
// followed by 55 ms), and an edit waits about one slice and one pause. A slice can last
// longer than planned (a loaded machine deschedules the writer while it holds the lock), and
// a writer that has waited long tries only every 100 ms: at a steady rhythm of 205 ms its
// tries can keep falling inside the slices for seconds. So every fourth pause lasts 105 ms,
// which any waiting writer's next try falls into.
//
// A write that the app's own serving thread makes while the editor saves (a model alignment:
// the Align and Re-align jobs store it on that thread) runs `interleaved` instead: slices of
// SHORT_SLICE_MS, each followed by a turn of the event loop (a pause of 1 ms, in which the
// server reads and answers the editor's request on its connection), so an edit waits at most
// one short slice. Another process's writer cannot be let in by a pause of 1 ms (its next try
// is up to 100 ms away), so after every LONG_PAUSE_AFTER_MS of holding the lock the pause
// lasts 105 ms, which any waiting writer's next try falls into: such a writer waits about
// half a second, and the write spends about a quarter of its time pausing, where 150 ms slices
// spend about a third.
//
// What a long write guarantees as a whole is kept by its caller over the slices: an import's
// pairs and a model alignment's links stay invisible under a 'running' import until one short
// transaction finishes it (imports.ts); a bulk change is one edit group, undone as one
// (edits.ts groupWriter).
import { CancelledError } from '../errors.ts';
import { dbOf, type Project } from './connection.ts';

/** How long one transaction of a long write holds the write lock, at most (plus one step). */
export const SLICE_MS = 150;

/** How long one transaction of an `interleaved` write holds the write lock, at most (plus one step). */
export const SHORT_SLICE_MS = 15;

/** How long an `interleaved` write holds the lock over its short slices before it pauses long enough for any other process's writer. */
export const LONG_PAUSE_AFTER_MS = 400;

/** The pause that any writer waiting in SQLite's busy handler tries again within. */
const LONG_PAUSE_MS = 105;

/** The pause after the `slice`-th slice (from 1), which held the lock `heldMs`: see the header. */
export function pauseAfter(heldMs: number, slice: number): number {
  const pause = Math.ceil(heldMs / 3) + 5;
  return slice % 4 === 0 ? Math.max(pause, LONG_PAUSE_MS) : pause;
}

/** The pause of an `interleaved` write whose slices held the lock `heldSinceLongPause` ms since its last long pause: see the header. */
export function interleavedPause(heldSinceLongPause: number): number {
  return heldSinceLongPause >= LONG_PAUSE_AFTER_MS ? LONG_PAUSE_MS : 1;
}

export interface SliceOptions {
  /** Stops between two slices (what was committed stays): CancelledError. */
  signal?: AbortSignal;
  /** Runs first inside every slice's transaction (a check that may throw to stop the write). */
  onSlice?: () => void;
  /** The steps only read (a dry run): the transactions take no write lock, and still end, so the thread's event loop runs. */
  readOnly?: boolean;
  /** Short slices with a turn of the event loop after each (a write on the thread that serves the editor): see the header. */
  interleaved?: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `step` on every item, inside transactions that each hold the write lock for about
 * SLICE_MS, or SHORT_SLICE_MS when `interleaved` (taken at the start, so what a step reads is
 * still true when it writes), pausing after each. Each slice commits on its own: the caller
 * keeps whatever must be all or nothing invisible until it is complete. Resolves with the
 * number of slices.
 */
export async function writeInSlices<T>(
  project: Project,
  items: Iterable<T>,
  step: (item: T) => void,
  options: SliceOptions = {},
): Promise<number> {
  const db = dbOf(project);
  if (db.inTransaction) throw new Error('writeInSlices: called inside a transaction, which would hold the lock across its pauses');
  const it = items[Symbol.iterator]();
  let next = it.next();
  let slices = 0;
  const sliceMs = options.interleaved ? SHORT_SLICE_MS : SLICE_MS;
  let heldSinceLongPause = 0;
  while (!next.done) {
    if (options.signal?.aborted) throw new CancelledError();
    let started = 0;
    const slice = db.transaction(() => {
      started = performance.now();
      options.onSlice?.();
      do {
        step(next.value as T);
        next = it.next();
      } while (!next.done && performance.now() - started < sliceMs);
    });
    if (options.readOnly) slice.deferred();
    else slice.immediate();
    slices++;
    const held = performance.now() - started;
    heldSinceLongPause += held;
    const pause = options.interleaved ? interleavedPause(heldSinceLongPause) : pauseAfter(held, slices);
    if (pause >= LONG_PAUSE_MS) heldSinceLongPause = 0;
    // after the last slice too: a caller's next write (an import's next batch) must not follow at once
    await sleep(pause);
  }
  return slices;
}
