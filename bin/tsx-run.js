#!/usr/bin/env node
// Runs a TypeScript entry file (benchmarks, scripts) through tsx: `node bin/tsx-run.js FILE ARGS…`.
import { register } from 'tsx/esm/api';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

register();
const [file, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], file, ...rest];
await import(pathToFileURL(resolve(file)).href);
