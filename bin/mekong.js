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
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshBuild } from './fresh-build.js';
import { relaunchWithMallocTuning } from './malloc-tuning.js';

const WITHOUT_ONNX = new Set(['project', 'info', 'check', 'import', 'export', 'resegment', 'dict']);

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
