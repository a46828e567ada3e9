// A fresh temporary folder per test file, removed afterwards. The removal retries: an import's
// WAL checkpoint runs on a worker thread that nothing waits for (store/imports.ts finishImport),
// and its connection can still create the project's -wal/-shm files while the folder is being
// emptied (ENOTEMPTY, seen once in CI after align-job's 50,000-pair import).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function tempDir(prefix = 'mekong-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  return dir;
}
