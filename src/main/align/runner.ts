// Runs EM over slices of the pairs: one slice per worker thread (large corpora), or a single
// slice in the calling thread (small ones, where starting threads costs more than the
// work). The calling thread keeps the schedule and the models (em-trainer.ts) and hands
// every slice each iteration's step; progress counts finished iterations; the context's
// signal stops the work with CancelledError.
import { CancelledError } from '../errors.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import { WorkerClient } from '../jobs/worker-host.ts';
import type { LinkFile } from './decode.ts';
import { EmSlice, type EmStep, type SliceJob, type SliceStepResult } from './em-slice.ts';
import type { EmTrainer } from './em-trainer.ts';

export interface RunHooks {
  /** progress (EM iterations done of all) and cancel; default: silent, never cancelled */
  ctx?: JobContext;
  /** after the last iteration: the seconds its decoding and symmetrising took, summed over the threads */
  onDecoded?: (threadSeconds: number) => void;
}

/** Below this many cells (source × target positions summed) training stays in-thread. */
export const IN_THREAD_CELLS = 2_000_000;

/** A slice thread's tasks (align.worker.ts, by the job protocol): a step is answered with its SliceStepResult, a start or a finish with null. */
export type SliceMessage = { type: 'start'; job: SliceJob } | { type: 'step'; step: EmStep } | { type: 'finish' };

/** Runs one message on every slice. */
type Slices = (m: SliceMessage) => Promise<(SliceStepResult | null)[]>;

async function train(trainer: EmTrainer, slices: Slices, hooks: RunHooks): Promise<LinkFile[]> {
  let links: LinkFile[] = [];
  for (let it = 0; it < trainer.total; it++) {
    checkCancelled(hooks.ctx?.signal);
    const results = (await slices({ type: 'step', step: trainer.step(it) })) as SliceStepResult[];
    trainer.absorb(results);
    if (it === trainer.total - 1) {
      links = results.map((r) => r.links!);
      hooks.onDecoded?.(results.reduce((s, r) => s + r.decodeSeconds!, 0));
    }
    hooks.ctx?.progress({ done: it + 1, total: trainer.total });
  }
  if (trainer.pendingMaximize) await slices({ type: 'finish' });
  return links;
}

/** One slice of all pairs in this thread, yielding to the event loop between iterations (cancel). */
export function runInThread(job: SliceJob, trainer: EmTrainer, hooks: RunHooks = {}): Promise<LinkFile[]> {
  const slice = new EmSlice(job);
  return train(
    trainer,
    async (m) => {
      await new Promise((resolve) => setImmediate(resolve));
      if (m.type === 'finish') slice.maximize();
      return [m.type === 'step' ? slice.step(m.step) : null];
    },
    hooks,
  );
}

/**
 * A training thread's young generation. Its E-steps allocate almost nothing (the pair
 * buffers are reused, the HMM runs in WebAssembly memory), so V8's default nursery (16 MB
 * semi-spaces) is committed for nothing: 2 MB lowers dup100k's peak RSS by about 35 MB with
 * no measurable cost in time (docs/experiments.md).
 */
const WORKER_YOUNG_GENERATION_MB = 2;

/** A slice's training thread. */
export type SliceWorker = WorkerClient<SliceMessage, SliceStepResult | null>;

/** Idle training threads, started early (their start-up overlaps the corpus's encoding); each takes one slice. */
export function startWorkers(n: number): SliceWorker[] {
  return Array.from(
    { length: n },
    () =>
      new WorkerClient<SliceMessage, SliceStepResult | null>(new URL('./align.worker.ts', import.meta.url), {
        commonJs: true,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      }),
  );
}

/** Ends the workers; resolves once their threads (about 30 MB each under tsx) are gone. */
export async function stopWorkers(workers: readonly SliceWorker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.close()));
}

/** One slice per worker (jobs[i] to workers[i]); a worker's error or an abort stops them all (they hold no ONNX session). */
export function runInWorkers(
  workers: readonly SliceWorker[],
  jobs: readonly SliceJob[],
  trainer: EmTrainer,
  hooks: RunHooks = {},
): Promise<LinkFile[]> {
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  const onAbort = () => fail(new CancelledError());
  const signal = hooks.ctx?.signal;
  signal?.addEventListener('abort', onAbort, { once: true });
  const started = Promise.all(workers.map((w, i) => w.run({ type: 'start', job: jobs[i] })));
  // a thread that fails to start fails the first step; this only keeps the rejection from counting as unhandled before then
  started.catch(() => {});
  const slices: Slices = (m) => Promise.race([failed, started.then(() => Promise.all(workers.map((w) => w.run(m))))]);
  return train(trainer, slices, hooks).finally(() => {
    signal?.removeEventListener('abort', onAbort);
    return stopWorkers(workers);
  });
}
