#!/usr/bin/env node
// Runs a TypeScript entry file (benchmarks, scripts) through tsx: `node bin/tsx-run.js FILE ARGS…`,
// with malloc set as the `mekong` command sets it (malloc-tuning.js), so benchmarks measure
// what users run.
import { register } from 'tsx/esm/api';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { relaunchWithMallocTuning } from './malloc-tuning.js';

if (!relaunchWithMallocTuning()) {
  register();
  const [file, ...rest] = process.argv.slice(2);
  process.argv = [process.argv[0], file, ...rest];
  await import(pathToFileURL(resolve(file)).href);
}
