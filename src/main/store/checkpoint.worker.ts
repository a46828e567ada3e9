// Copies a project's WAL into its database file (a PASSIVE checkpoint) on its own thread and
// connection, for wal-checkpoints.ts checkpointAfterBulkWrite: the copy after a large import
// (its time: docs/experiments.md) then neither delays the import's end nor blocks
// the thread that serves the project. One task of the job protocol
// (jobs/serve-worker.ts): the project file's path in, null out, or the error of opening the
// file or of the checkpoint.
import { serveWorker } from '../jobs/serve-worker.ts';
import { openDatabase } from './database.ts';

serveWorker<{ path: string }, null>(({ path }) => {
  const db = openDatabase(path);
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    return null;
  } finally {
    // the last connection to close checkpoints whatever is left and removes the WAL
    db.close();
  }
});
