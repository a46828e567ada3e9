#!/usr/bin/env node
// The `mekong` command. It runs the CLI (src/main/cli.ts) from the app's build (out/main/cli.js,
// which `npm start` and `npm run build` write) when that build is newer than every source file,
// and otherwise from the TypeScript sources through tsx, so the command works straight after
// `npm ci` with no build step and never runs code older than the sources. Loading the CLI
// through tsx costs about 2 s of CPU more for each command (its loader thread transpiles and
// resolves every module); the build is plain JavaScript.
// The commands that may run onnxruntime (training, neural alignment, the server whose app
// trains) run in a process whose malloc returns freed memory (malloc-tuning.js); the others
// (import, export, info, check, resegment, dict, project) run as they are, since running Node a
// second time costs about 0.44 s of CPU for each of them.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { relaunchWithMallocTuning } from './malloc-tuning.js';

const WITHOUT_ONNX = new Set(['project', 'info', 'check', 'import', 'export', 'resegment', 'dict']);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files the build is made from, and their folders (a file added or removed changes its folder's time). */
function sources() {
  const files = [join(root, 'electron.vite.config.ts'), join(root, 'package.json')];
  for (const dir of ['src/main', 'src/shared'])
    for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) files.push(join(root, dir, f));
  return files;
}

/** out/main/cli.js when it exists and no source file is newer (MEKONG_FROM_SOURCE=1: never). */
function freshBuild() {
  if (process.env.MEKONG_FROM_SOURCE === '1') return null;
  const cli = join(root, 'out', 'main', 'cli.js');
  try {
    const built = statSync(cli).mtimeMs;
    return sources().every((f) => statSync(f).mtimeMs <= built) ? cli : null;
  } catch {
    return null;
  }
}

if (WITHOUT_ONNX.has(process.argv[2] ?? '') || !relaunchWithMallocTuning()) {
  const built = freshBuild();
  if (built) {
    // the build's workers are beside it (spawn-worker.ts)
    process.env.MEKONG_BUNDLE_DIR ??= dirname(built);
    await import(pathToFileURL(built).href);
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    await import('../src/main/cli.ts');
  }
}
