// Worker bootstrap for running TypeScript worker modules from source: registers tsx in
// this thread, then loads the module named in workerData.__tsEntry. Plain JS on purpose:
// it must load before any TypeScript support exists in the thread.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.__tsEntry);
