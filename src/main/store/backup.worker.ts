// The automatic backup of a large import made off the importing thread (backup.ts
// backUpInWorker): this worker opens its own read-only connection to the project and runs
// backUp on it, so the copy (about 1.5 s per 100 MB) does not hold up the server's answers.
// In WAL mode the connection reads the last committed state, which is what the importing
// connection would have copied.
import { serveWorker } from '../jobs/serve-worker.ts';
import { backUp } from './backup.ts';
import { openDatabase } from './database.ts';

serveWorker((input: { path: string }) => {
  const db = openDatabase(input.path, { readonly: true });
  try {
    return backUp(db, input.path);
  } finally {
    db.close();
  }
});
