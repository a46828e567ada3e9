#!/usr/bin/env node
// The `mekong` command: runs the TypeScript CLI (src/main/cli.ts) through tsx, so the
// command works straight after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main/cli.ts');
