// Worker entry for a training job: receives Control messages, runs the loop, posts Reports.
// Between steps it yields to the event loop (session.run blocks this thread while it
// computes), so pause, resume and cancel take effect at the next step boundary.
import { parentPort } from 'node:worker_threads';
import type { Control, Recipe, Report } from './protocol.ts';
import { runTraining } from './train-loop.ts';

const port = parentPort!;
let paused = false;
let cancelled = false;
let wake: (() => void) | null = null;

const post = (r: Report) => port.postMessage(r);
const yieldToEvents = () => new Promise<void>((resolve) => setImmediate(resolve));

async function gate(): Promise<'go' | 'cancel'> {
  await yieldToEvents();
  while (paused && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
  return cancelled ? 'cancel' : 'go';
}

port.on('message', (m: Control) => {
  if (m.type === 'pause') paused = true;
  else if (m.type === 'resume' || m.type === 'cancel') {
    if (m.type === 'cancel') cancelled = true;
    paused = false;
    wake?.();
    wake = null;
  } else if (m.type === 'start') {
    import(m.job.recipe)
      .then((mod: { default: Recipe }) => runTraining(m.job, mod.default, { checkpoint: gate, report: post }))
      .catch((e: unknown) => post({ type: 'error', message: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
  }
});
