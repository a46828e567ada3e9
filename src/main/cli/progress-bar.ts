// A terminal progress bar (cli-progress) for long CLI commands; silent when stderr is
// not a terminal, so scripts and CI logs stay clean.
import { SingleBar, Presets } from 'cli-progress';
import type { Progress } from '../jobs/job-registry.ts';

export function progressBar(label: string): { progress: Progress; stop: () => void } {
  if (!process.stderr.isTTY) return { progress: () => {}, stop: () => {} };
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% {message}`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    progress: (done, total, message = '') => {
      if (!started) {
        bar.start(Math.max(total, 1), 0, { message });
        started = true;
      }
      bar.setTotal(Math.max(total, 1));
      bar.update(done, { message });
    },
    stop: () => started && bar.stop(),
  };
}

/** An AbortSignal that fires on Ctrl+C, so long commands clean up (e.g. roll back an import). */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return controller.signal;
}
