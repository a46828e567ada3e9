// Import bookkeeping: an import writes its pairs in committed batches under a 'running'
// imports row, invisible to every query until finishImport marks it done; a failed or
// cancelled import (or one interrupted by a crash) is deleted whole, so the project is
// left exactly as it was. Batched commits keep memory flat and never block other writers
// for the length of a large import (each batch is written in short transactions:
// bounded-writes.ts). A model alignment an Align job writes is staged the same way, under an
// import of its own (format ALIGNMENT_FORMAT, no pairs): its links stay unseen until that
// import is finished, and a crash leaves nothing of it (model-alignments.ts).
import type { Db } from './database.ts';
import { ownerAlive, releaseLease, takeLease } from './job-leases.ts';
import { checkpointAfterBulkWrite } from './wal-checkpoints.ts';
import { dbOf, type Project } from './connection.ts';
import { writeInSlices } from './bounded-writes.ts';

/** The format of the import row that stages a model alignment while its links are written. */
export const ALIGNMENT_FORMAT = 'alignment';

/**
 * Starts an import, owned by this process's lease (job-leases.ts) until finishImport. WAL
 * auto-checkpoints are paused until then: checkpointing while a bulk insert runs copies
 * every page twice and halves import speed.
 */
export function beginImport(project: Project, file: string, format: string): number {
  const db = dbOf(project);
  const lease = takeLease(db);
  try {
    db.pragma('wal_autocheckpoint = 0');
    const r = db
      .prepare(`INSERT INTO imports (file, format, started_at, owner) VALUES (?, ?, ?, ?)`)
      .run(file, format, new Date().toISOString(), lease?.owner ?? null);
    return Number(r.lastInsertRowid);
  } catch (err) {
    lease?.release();
    throw err;
  }
}

/** Imports left 'running' whose owning process is gone (a crash or a kill): what opening a project removes. */
export function orphanedImports(db: Db): number[] {
  const rows = db.prepare(`SELECT id, owner FROM imports WHERE state = 'running'`).all() as { id: number; owner: string | null }[];
  return rows.filter((r) => !ownerAlive(db, r.owner)).map((r) => r.id);
}

/** The lease ids that unfinished imports name (the lease files still in use). */
export function importOwners(db: Db): string[] {
  return db.prepare(`SELECT owner FROM imports WHERE state = 'running' AND owner IS NOT NULL`).pluck().all() as string[];
}

/**
 * Marks an import done (`ok`) or deletes it; pairs, links and alignments it made cascade.
 * The WAL it filled is copied into the database file (checkpointAfterBulkWrite), a large one
 * on a worker thread (the returned promise; nothing waits for it), so neither the import's
 * end nor the thread serving the project waits for the copy (about an eighth of a 50,000-pair
 * import: docs/experiments.md).
 */
export function finishImport(project: Project, importId: number, ok: boolean, complete?: () => void): Promise<void> {
  const db = dbOf(project);
  const owner = db.prepare(`SELECT owner FROM imports WHERE id = ?`).pluck().get(importId) as string | null | undefined;
  try {
    markImport(db, importId, ok, complete);
  } finally {
    // Released once the row is finished (or deleted): never while it still reads 'running'.
    releaseLease(owner ?? null);
  }
  // the automatic checkpoint stays paused until the import's WAL is copied (resumeAutoCheckpoint)
  return checkpointAfterBulkWrite(db).catch(() => {
    // nothing is lost: the WAL stays until SQLite's next automatic checkpoint
  });
}

/**
 * Deletes a failed or cancelled import whole, as finishImport(…, false) does, after deleting
 * its pairs and its model alignments' links in short transactions while it is still unseen:
 * the cascade of a large import in one transaction would hold the write lock for seconds. A
 * crash part-way leaves it unfinished, for the next opening to delete.
 */
export async function discardImport(project: Project, importId: number): Promise<void> {
  const db = dbOf(project);
  try {
    const pairs = db.prepare(`SELECT id FROM pairs WHERE import_id = ?`).pluck().all(importId) as number[];
    const deletePair = db.prepare(`DELETE FROM pairs WHERE id = ?`);
    await writeInSlices(project, pairs, (id) => deletePair.run(id));
    const staged = db.prepare(`SELECT id FROM alignments WHERE import_id = ? AND origin <> 'gold'`).pluck().all(importId) as number[];
    for (const alignmentId of staged) {
      const linked = db.prepare(`SELECT DISTINCT pair_id FROM links WHERE alignment_id = ?`).pluck().all(alignmentId) as number[];
      const deleteLinks = db.prepare(`DELETE FROM links WHERE alignment_id = ? AND pair_id = ?`);
      await writeInSlices(project, linked, (pairId) => deleteLinks.run(alignmentId, pairId));
    }
  } finally {
    // also after a failure above: the row goes (or, failing too, its lease is released)
    void finishImport(project, importId, false);
  }
}

/** `complete` runs in the transaction that marks the import done: what becomes visible with it. */
function markImport(db: Db, importId: number, ok: boolean, complete?: () => void): void {
  db.transaction(() => {
    if (!ok) {
      // A gold alignment this import created goes with it, unless an annotator has since
      // linked pairs of other imports in it (the editor found it by annotator): then it stays.
      db.prepare(
        `UPDATE alignments SET import_id = NULL WHERE import_id = ? AND origin = 'gold' AND EXISTS (
          SELECT 1 FROM links l JOIN pairs p ON p.id = l.pair_id WHERE l.alignment_id = alignments.id AND p.import_id <> ?)`,
      ).run(importId, importId);
      db.prepare(`DELETE FROM imports WHERE id = ?`).run(importId);
      return;
    }
    // A gold alignment created by this import now belongs to its annotator, not to the import.
    db.prepare(`UPDATE alignments SET import_id = NULL WHERE import_id = ? AND origin = 'gold'`).run(importId);
    const { n } = db.prepare(`SELECT count(*) AS n FROM pairs WHERE import_id = ?`).get(importId) as { n: number };
    db.prepare(`UPDATE imports SET state = 'done', pairs = ?, finished_at = ? WHERE id = ?`).run(n, new Date().toISOString(), importId);
    complete?.();
  }).immediate();
}
