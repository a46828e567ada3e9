// Starts a worker_threads Worker from a module URL, whether the module is TypeScript
// source (CLI, tests, benchmarks: loaded through tsx by ts-worker-boot.js) or built
// JavaScript (the Electron bundle, where electron.vite.config.ts emits every
// `*.worker.ts` as `<name>.worker.js` in the folder named by MEKONG_BUNDLE_DIR).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { quietOnnxRuntime } from '../nn/ort-environment.ts';

const boot = new URL('./ts-worker-boot.js', import.meta.url);

export interface SpawnOptions extends WorkerOptions {
  /**
   * From source, load the module through tsx's CommonJS hook rather than its ESM loader (no
   * loader thread: 9 MB less per align worker). Only for modules whose imports are all
   * relative or node: (the neural worker's onnxruntime-node import fails under it).
   */
  commonJs?: boolean;
}

/** `moduleUrl` is `new URL('./x.worker.ts', import.meta.url)` in the caller. */
export function spawnWorker(moduleUrl: URL, options: SpawnOptions = {}): Worker {
  quietOnnxRuntime();
  const { commonJs, ...workerOptions } = options;
  const path = fileURLToPath(moduleUrl);
  if (path.endsWith('.ts') && existsSync(path)) {
    const workerData = { ...(options.workerData ?? {}), __tsEntry: moduleUrl.href, __tsRequire: commonJs === true };
    return new Worker(boot, { ...workerOptions, workerData });
  }
  const bundleDir = process.env.MEKONG_BUNDLE_DIR;
  if (!bundleDir) throw new Error(`worker ${path} not found and MEKONG_BUNDLE_DIR is not set`);
  return new Worker(join(bundleDir, basename(path).replace(/\.ts$/, '.js')), workerOptions);
}
