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
// What a long write guarantees as a whole is kept by its caller over the slices: an import's
// pairs and a model alignment's links stay invisible under a 'running' import until one short
// transaction finishes it (imports.ts); a bulk change is one edit group, undone as one
// (edits.ts groupWriter).
import { CancelledError } from '../errors.ts';
import { dbOf, type Project } from './connection.ts';

/** How long one transaction of a long write holds the write lock, at most (plus one step). */
export const SLICE_MS = 150;

/** The pause after the `slice`-th slice (from 1), which held the lock `heldMs`: see the header. */
export function pauseAfter(heldMs: number, slice: number): number {
  const pause = Math.ceil(heldMs / 3) + 5;
  return slice % 4 === 0 ? Math.max(pause, 105) : pause;
}

export interface SliceOptions {
  /** Stops between two slices (what was committed stays): CancelledError. */
  signal?: AbortSignal;
  /** Runs first inside every slice's transaction (a check that may throw to stop the write). */
  onSlice?: () => void;
  /** The steps only read (a dry run): the transactions take no write lock, and still end, so the thread's event loop runs. */
  readOnly?: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Calls `step` on every item, inside transactions that each hold the write lock for about
 * SLICE_MS (taken at the start, so what a step reads is still true when it writes), pausing
 * after each. Each slice commits on its own: the caller keeps whatever must be all or
 * nothing invisible until it is complete. Resolves with the number of slices.
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
  while (!next.done) {
    if (options.signal?.aborted) throw new CancelledError();
    let started = 0;
    const slice = db.transaction(() => {
      started = performance.now();
      options.onSlice?.();
      do {
        step(next.value as T);
        next = it.next();
      } while (!next.done && performance.now() - started < SLICE_MS);
    });
    if (options.readOnly) slice.deferred();
    else slice.immediate();
    slices++;
    // after the last slice too: a caller's next write (an import's next batch) must not follow at once
    await sleep(pauseAfter(performance.now() - started, slices));
  }
  return slices;
}
