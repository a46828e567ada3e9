// Worker bootstrap for running TypeScript worker modules from source: registers tsx in
// this thread, then loads the module named in workerData.__tsEntry. Plain JS on purpose:
// it must load before any TypeScript support exists in the thread.
// workerData.__tsRequire: through tsx's CommonJS hook (the module is required, transformed
// to CommonJS in this thread) instead of its ESM loader, which runs in a thread of its own:
// two align workers take 18 MB less (spawn-worker.ts says which workers can).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

if (workerData.__tsRequire) {
  const { register } = await import('tsx/cjs/api');
  register();
  createRequire(import.meta.url)(fileURLToPath(workerData.__tsEntry));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(workerData.__tsEntry);
}
