// Worker thread entry: waits for one { job: DirectionJob, barrier } message, trains that
// direction and reports each iteration. Messages out: { type: 'iteration', it } … then
// { type: 'done', result }. Started before the corpus is encoded, so its start-up overlaps.
import { parentPort } from 'node:worker_threads';
import { runDirectionJob, type DirectionJob } from './direction-job.ts';

parentPort!.once('message', ({ job, barrier }: { job: DirectionJob; barrier: Int32Array }) => {
  const result = runDirectionJob(job, barrier, (it) => parentPort!.postMessage({ type: 'iteration', it }));
  parentPort!.postMessage({ type: 'done', result });
});
