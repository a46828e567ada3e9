// The CPU sessions' default thread count: physical cores from /proc/cpuinfo, bounded by the
// CPUs the process may use, and passed to onnxruntime explicitly (its own count was one here).
import { availableParallelism } from 'node:os';
import { expect, test } from 'vitest';
import { coresInCpuinfo, defaultCpuThreads } from '../../../src/main/nn/cpu-threads.ts';
import { sessionOptions } from '../../../src/main/nn/devices.ts';

const block = (proc: number, pkg: number, core: number) =>
  `processor\t: ${proc}\nvendor_id\t: AuthenticAMD\nphysical id\t: ${pkg}\nsiblings\t: 4\ncore id\t\t: ${core}\ncpu cores\t: 2\nflags\t\t: fpu avx2\n`;

test('cores counted once per (package, core): hyperthreads share a core, sockets do not', () => {
  const smt = [block(0, 0, 0), block(1, 0, 1), block(2, 0, 0), block(3, 0, 1)].join('\n');
  expect(coresInCpuinfo(smt)).toBe(2);
  const twoSockets = [block(0, 0, 0), block(1, 0, 1), block(2, 1, 0), block(3, 1, 1)].join('\n');
  expect(coresInCpuinfo(twoSockets)).toBe(4);
  // this machine kind: two vCPUs, one thread a core
  expect(coresInCpuinfo([block(0, 0, 0), block(1, 0, 1)].join('\n'))).toBe(2);
});

test('a cpuinfo that names no cores (ARM) counts none, so the logical CPUs are used', () => {
  const arm = 'processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n\nprocessor\t: 1\nBogoMIPS\t: 50.00\n';
  expect(coresInCpuinfo(arm)).toBe(0);
  expect(coresInCpuinfo('')).toBe(0);
});

test('CPU sessions get the default thread count explicitly unless the caller sets one', () => {
  const n = defaultCpuThreads();
  expect(n).toBeGreaterThanOrEqual(1);
  expect(n).toBeLessThanOrEqual(availableParallelism());
  expect(sessionOptions('cpu', {}).intraOpNumThreads).toBe(n);
  expect(sessionOptions('cpu', { threads: 1 }).intraOpNumThreads).toBe(1);
  expect(sessionOptions('cpu', { threads: 3 }).intraOpNumThreads).toBe(3);
  expect(sessionOptions('cpu', {}).interOpNumThreads).toBe(1);
});
