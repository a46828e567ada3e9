#!/usr/bin/env node
// The `mekong` command: runs the TypeScript CLI (src/main/cli.ts) through tsx, so the
// command works straight after `npm ci` with no build step. The commands that may run
// onnxruntime (training, neural alignment, the server whose app trains) run in a process whose
// malloc returns freed memory (malloc-tuning.js); the others (import, export, info, check,
// resegment, dict, project) run as they are, since running Node a second time costs about
// 0.44 s of CPU for each of them.
import { register } from 'tsx/esm/api';
import { relaunchWithMallocTuning } from './malloc-tuning.js';

const WITHOUT_ONNX = new Set(['project', 'info', 'check', 'import', 'export', 'resegment', 'dict']);

if (WITHOUT_ONNX.has(process.argv[2] ?? '') || !relaunchWithMallocTuning()) {
  register();
  await import('../src/main/cli.ts');
}
