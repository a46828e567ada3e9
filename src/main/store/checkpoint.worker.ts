// Copies a project's WAL into its database file (a PASSIVE checkpoint) on its own thread and
// connection, for wal-checkpoints.ts checkpointAfterBulkWrite: the copy after a large import
// (0.87 s for 50,000 embassy pairs, a 207 MB project) then neither delays the import's end
// nor blocks the thread that serves the project. Replies 'done' or the checkpoint's error
// message; a file that cannot be opened ends the thread with that error instead.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.ts';

const db = openDatabase((workerData as { path: string }).path);
try {
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort!.postMessage('done');
} catch (e) {
  parentPort!.postMessage(e instanceof Error ? e.message : String(e));
} finally {
  // the last connection to close checkpoints whatever is left and removes the WAL
  db.close();
}
