#!/usr/bin/env node
// The `mekong` command: runs the TypeScript CLI (src/main/cli.ts) through tsx, so the
// command works straight after `npm ci` with no build step; on glibc, in a process whose
// malloc returns freed memory (malloc-tuning.js).
import { register } from 'tsx/esm/api';
import { relaunchWithMallocTuning } from './malloc-tuning.js';

if (!relaunchWithMallocTuning()) {
  register();
  await import('../src/main/cli.ts');
}
