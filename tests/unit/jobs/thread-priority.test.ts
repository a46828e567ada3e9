// The app's job threads run below the thread that answers the user (jobs/thread-priority.ts):
// on Linux, a worker started after runJobThreadsInBackground() has a nice value
// JOB_THREAD_NICE above the main thread's, the main thread keeps its own, and workers started
// before keep the normal priority.
import { getPriority } from 'node:os';
import { expect, test } from 'vitest';
import { runInWorker } from '../../../src/main/jobs/worker-host.ts';
import { JOB_THREAD_NICE, runJobThreadsInBackground } from '../../../src/main/jobs/thread-priority.ts';
import type { ProtocolReport, ProtocolTask } from './fixtures/protocol.worker.ts';

const WORKER = new URL('./fixtures/protocol.worker.ts', import.meta.url);
const ctx = { progress: () => {}, signal: new AbortController().signal };
const niceOfWorker = () => runInWorker<ProtocolTask, number, ProtocolReport>(WORKER, { type: 'priority' }, ctx);

test.runIf(process.platform === 'linux')('job threads of the app run JOB_THREAD_NICE below the serving thread', async () => {
  const main = getPriority(0);
  expect(await niceOfWorker()).toBe(main);
  runJobThreadsInBackground();
  expect(await niceOfWorker()).toBe(Math.min(19, main + JOB_THREAD_NICE));
  expect(getPriority(0)).toBe(main);
});
