// Starts a worker_threads Worker from a module URL, whether the module is TypeScript
// source (CLI, tests, benchmarks: loaded through tsx by ts-worker-boot.js) or built
// JavaScript (the Electron bundle, where the build emits `<name>.worker.js` beside it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const boot = new URL('./ts-worker-boot.js', import.meta.url);

/** `moduleUrl` is `new URL('./x.worker.ts', import.meta.url)` in the caller. */
export function spawnWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  const path = fileURLToPath(moduleUrl);
  if (path.endsWith('.ts') && existsSync(path)) {
    const workerData = { ...(options.workerData ?? {}), __tsEntry: moduleUrl.href };
    return new Worker(boot, { ...options, workerData });
  }
  return new Worker(path.replace(/\.ts$/, '.js'), options);
}
