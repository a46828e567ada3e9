#!/usr/bin/env node
// The `mekong` command. It runs the CLI (src/main/cli.ts) from the app's build (out/main/cli.js,
// which `npm start` and `npm run build` write) when that build is newer than every source file,
// and otherwise from the TypeScript sources through tsx, so the command works straight after
// `npm ci` with no build step and never runs code older than the sources. Loading the CLI
// through tsx costs about 2 s of CPU more for each command (its loader thread transpiles and
// resolves every module); the build is plain JavaScript. The CLI chooses glibc's malloc
// settings for its command line (src/main/cli/malloc-plan.ts) and runs itself again with them.
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshBuild } from './fresh-build.js';

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
