// A terminal progress bar (cli-progress) for long CLI commands: a JobContext whose progress
// events draw the bar, so a command hands it to its task as it is; silent when stderr is not
// a terminal, so scripts and CI logs stay clean.
import { SingleBar, Presets } from 'cli-progress';
import type { JobContext } from '../jobs/job-context.ts';

/** A task's context that draws one phase's bar; `stop` clears it when the phase ends. */
export interface ProgressBar extends JobContext {
  readonly stop: () => void;
}

/** A bar labelled `label`; its signal is `signal` (default: one never aborted, for commands that Ctrl+C simply ends). */
export function progressBar(label: string, signal: AbortSignal = new AbortController().signal): ProgressBar {
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

/** An AbortSignal that fires on Ctrl+C, so long commands clean up (e.g. roll back an import). */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}
