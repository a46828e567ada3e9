// A terminal progress bar (cli-progress) for long CLI commands: withProgressBar runs one phase
// of a command with a JobContext whose progress events draw the bar, so a command hands it to
// its task as it is, and clears the bar when the phase ends, however it ends; silent when
// stderr is not a terminal, so scripts and CI logs stay clean. Every CLI command with a bar
// runs its phases through it (and the aligners' phases, as their ProgressDisplay).
import { SingleBar, Presets } from 'cli-progress';
import type { JobContext } from '../jobs/job-context.ts';

/** A context drawing a bar labelled `label`, and `stop` to clear it. */
function progressBar(label: string, signal: AbortSignal): JobContext & { stop: () => void } {
  if (!process.stderr.isTTY) return { progress: () => {}, signal, stop: () => {} };
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% {message}`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    progress: ({ done, total, message = '' }) => {
      if (!started) {
        bar.start(Math.max(total, 1), 0, { message });
        started = true;
      }
      bar.setTotal(Math.max(total, 1));
      bar.update(done, { message });
    },
    signal,
    stop: () => started && bar.stop(),
  };
}

/**
 * Runs `work` with a bar labelled `label` drawn from its progress, cleared when it returns or
 * throws; its signal is `signal` (default: one never aborted, for phases that Ctrl+C simply ends).
 */
export async function withProgressBar<T>(
  label: string,
  work: (ctx: JobContext) => T | Promise<T>,
  signal: AbortSignal = new AbortController().signal,
): Promise<T> {
  const bar = progressBar(label, signal);
  try {
    return await work({ progress: bar.progress, signal });
  } finally {
    bar.stop();
  }
}

/** An AbortSignal that fires on Ctrl+C, so long commands clean up (e.g. roll back an import). */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}
