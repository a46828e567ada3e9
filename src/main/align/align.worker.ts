// Worker thread entry: trains one direction (DirectionJob) and reports each iteration.
// Messages out: { type: 'iteration', it } … then { type: 'done', result }.
import { parentPort, workerData } from 'node:worker_threads';
import { runDirectionJob, type DirectionJob } from './direction-job.ts';

const { job, barrier } = workerData as { job: DirectionJob; barrier: Int32Array };
const result = runDirectionJob(job, barrier, (it) => parentPort!.postMessage({ type: 'iteration', it }));
parentPort!.postMessage({ type: 'done', result });
