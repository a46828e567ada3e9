// The job protocol between a job and its worker threads (jobs/worker-host.ts,
// jobs/serve-worker.ts), on a real worker: progress reaches the job's context and reports
// its callback, in order, before the result; a failure and a user error keep their message
// and class; a cancel reaches a task busy in synchronous work through the shared flag; a
// cancel while the worker holds an ONNX session ends the task as cancelled only after the
// session is released (the thread is never torn down inside onnxruntime, which would abort
// this process); a report the job cannot take cancels the task and fails the job with its
// error; a WorkerClient serves several tasks on one thread.
import { expect, test } from 'vitest';
import { CancelledError, UserError } from '../../../src/main/errors.ts';
import type { JobProgress } from '../../../src/main/jobs/job-context.ts';
import { runInWorker, WorkerClient } from '../../../src/main/jobs/worker-host.ts';
import type { ProtocolReport, ProtocolTask } from './fixtures/protocol.worker.ts';

const worker = new URL('./fixtures/protocol.worker.ts', import.meta.url);

function context(controller = new AbortController()) {
  const progress: JobProgress[] = [];
  return { progress, ctx: { progress: (p: JobProgress) => progress.push(p), signal: controller.signal } };
}

test('progress, reports and the result arrive in order', async () => {
  const { progress, ctx } = context();
  const reports: ProtocolReport[] = [];
  const result = await runInWorker<ProtocolTask, number, ProtocolReport>(worker, { type: 'count', to: 5 }, ctx, {
    onReport: (r) => reports.push(r),
  });
  expect(result).toBe(10);
  expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
  expect(progress[4]).toEqual({ done: 5, total: 5, message: 'counting 5' });
  expect(reports).toEqual([1, 3, 5].map((n) => ({ type: 'odd', n })));
}, 60_000);

test('a failure keeps its message; a user error stays a user error', async () => {
  const { ctx } = context();
  await expect(runInWorker(worker, { type: 'fail' }, ctx)).rejects.toThrow('the disk is on fire');
  const refused = runInWorker(worker, { type: 'refuse' }, ctx);
  await expect(refused).rejects.toBeInstanceOf(UserError);
  await expect(refused).rejects.toThrow('no such corpus');
}, 60_000);

test('a cancel reaches a task that never returns to its event loop', async () => {
  const controller = new AbortController();
  const { ctx } = context(controller);
  const outcome = runInWorker<ProtocolTask, number, ProtocolReport>(worker, { type: 'spin' }, ctx, {
    onReport: () => controller.abort(),
  });
  await expect(outcome).rejects.toBeInstanceOf(CancelledError);
}, 60_000);

test('a cancel while an ONNX session is held ends as cancelled once the session is released', async () => {
  const controller = new AbortController();
  const { ctx } = context(controller);
  const seen: string[] = [];
  const outcome = runInWorker<ProtocolTask, number, ProtocolReport>(worker, { type: 'hold' }, ctx, {
    onReport: (r) => {
      seen.push(r.type);
      if (r.type === 'running') controller.abort();
    },
  });
  await expect(outcome).rejects.toBeInstanceOf(CancelledError);
  // the release was reported before the outcome: the thread was idle when it was terminated
  expect(seen).toEqual(['running', 'released']);
}, 60_000);

test('a cancel before the start ends the job at once, without a thread', async () => {
  const controller = new AbortController();
  controller.abort();
  await expect(runInWorker(worker, { type: 'count', to: 3 }, context(controller).ctx)).rejects.toBeInstanceOf(CancelledError);
});

test('a report the job cannot take cancels the task and fails the job with that error', async () => {
  const { ctx } = context();
  const outcome = runInWorker<ProtocolTask, number, ProtocolReport>(worker, { type: 'hold' }, ctx, {
    onReport: (r) => {
      if (r.type === 'running') throw new Error('the project is locked');
    },
  });
  await expect(outcome).rejects.toThrow('the project is locked');
}, 60_000);

test('one client serves several tasks on one thread, each with its own outcome', async () => {
  const client = new WorkerClient<ProtocolTask, number, ProtocolReport>(worker);
  try {
    const [a, b, c] = await Promise.allSettled([
      client.run({ type: 'count', to: 2 }),
      client.run({ type: 'fail' }),
      client.run({ type: 'count', to: 4 }),
    ]);
    expect(a).toEqual({ status: 'fulfilled', value: 4 });
    expect(b.status).toBe('rejected');
    expect(c).toEqual({ status: 'fulfilled', value: 8 });
  } finally {
    await client.close();
  }
}, 60_000);
