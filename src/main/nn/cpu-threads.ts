// How many intra-op threads an onnxruntime CPU session gets when the caller does not say: one
// per physical core this process may run on. onnxruntime's own default is meant to be the
// same, but on the two-vCPU virtual machines Mekong is built on it gave one thread (it counts
// through the cpuinfo library, and these machines expose no cache topology in /sys; the cause
// is not proven): every session ran on one core, a 2048² MatMul at 148.6 GFLOP/s against 288.1
// with two threads, a BiLSTM training step at T = 32 127–138 ms against 114 ms
// (docs/experiments.md). Counted by hand because no library does it without a child process
// (lscpu): on Linux, the distinct (package, core) pairs of /proc/cpuinfo, since hyperthreads of
// one core share its multiply units and a thread each slows GEMMs; elsewhere, or when
// /proc/cpuinfo names no cores (ARM), the logical CPUs. Never more than the CPUs the process
// may use (os.availableParallelism).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Distinct physical cores named by a /proc/cpuinfo text, or 0 when it names none. */
export function coresInCpuinfo(text: string): number {
  const cores = new Set<string>();
  for (const block of text.split(/\n\s*\n/)) {
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(\\S+)`, 'm').exec(block)?.[1];
    const core = field('core id');
    if (core !== undefined) cores.add(`${field('physical id') ?? 0}/${core}`);
  }
  return cores.size;
}

/** Physical cores by /proc/cpuinfo, or 0 off Linux or when it cannot be read. */
function linuxCores(): number {
  if (process.platform !== 'linux') return 0;
  try {
    return coresInCpuinfo(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return 0;
  }
}

let cached: number | undefined;

/** Intra-op threads for a CPU session whose caller set none (read once a process). */
export function defaultCpuThreads(): number {
  if (cached === undefined) {
    const usable = availableParallelism();
    cached = Math.max(1, Math.min(usable, linuxCores() || usable));
  }
  return cached;
}
