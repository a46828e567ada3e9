// Runs Mekong's processes with glibc's malloc set for onnxruntime's tensors. glibc returns a
// freed block to the system only when it was mmapped, and each free of an mmapped block raises
// its mmap threshold (up to 32 MB), so after the first steps the per-step activations of 1–30
// MB would stay in the process. The threshold is fixed at 8 MiB: a step's many 128 KiB–8 MiB
// tensors are reused from the heap (a fresh mapping is faulted in page by page), while the 8–30
// MB ones are still given back; glibc's `hugetlb=1` tunable (glibc ≥ 2.35; older ones ignore
// it) maps the large blocks with transparent huge pages, one fault per 2 MB (a BiLSTM step 134–
// 141 ms with them, 166–212 ms without). A fixed threshold also leaves the heap's trim
// threshold at 128 KiB, so each step's frees at the top of the heap gave its pages back and
// the next step faulted them in again (~600 faults and up to 50 ms of system time a T = 32
// step); `top_pad` keeps 64 MiB of them (the bilstm-ctl bench's session run 113.5 ms on
// average, 109–120, against 116.5 ms, 112–121, without it: 15 and 11 runs in turn). A process that runs no onnxruntime session but allocates
// much (the statistical aligner) takes the threshold alone: the huge pages raise its peak and
// widen its spread between runs, at no gain in time. The settings are read when a process
// starts, so a process that lacks them runs itself again with them; only glibc reads them.
// The figures are in docs/experiments.md.
import { spawn } from 'node:child_process';

/** glibc's tunables for the processes that run onnxruntime sessions (a user's own value of each wins). */
const ONNXRUNTIME_TUNABLES = { 'glibc.malloc.hugetlb': '1', 'glibc.malloc.top_pad': String(64 * 2 ** 20) };

const THRESHOLD = String(8 * 2 ** 20);

/**
 * `env` with the threshold and (unless `onnxruntime` is false) onnxruntime's tunables, the huge
 * pages and the top pad, added: a user's own threshold is kept, and their tunables, each of ours
 * they do not set joined after them.
 */
export function withMallocEnv(env, { onnxruntime = true } = {}) {
  const threshold = env.MALLOC_MMAP_THRESHOLD_ ?? THRESHOLD;
  if (!onnxruntime) return { ...env, MALLOC_MMAP_THRESHOLD_: threshold };
  const own = env.GLIBC_TUNABLES ? env.GLIBC_TUNABLES.split(':') : [];
  const named = new Set(own.map((t) => t.split('=')[0]));
  const ours = Object.entries(ONNXRUNTIME_TUNABLES).filter(([name]) => !named.has(name));
  const tunables = [...own, ...ours.map(([name, value]) => `${name}=${value}`)].join(':');
  return { ...env, MALLOC_MMAP_THRESHOLD_: threshold, GLIBC_TUNABLES: tunables };
}

/** Set in the child a launcher started: it ends when the launcher ends. */
const LAUNCHED = 'MEKONG_LAUNCHED';

/**
 * `env` less the malloc settings and the mark a launcher adds: a `mekong` that a bench or a
 * test harness (itself started by bin/tsx-run.js) starts with it runs as from a user's shell,
 * choosing its own settings.
 */
export function userEnv(env = process.env) {
  const { MALLOC_MMAP_THRESHOLD_: _threshold, GLIBC_TUNABLES: _tunables, [LAUNCHED]: _launched, ...rest } = env;
  return rest;
}

/**
 * In a process the launcher started: exit when the launcher is gone. A launcher killed
 * outright (SIGKILL, which it cannot pass on) must not leave a server or a training behind;
 * its end closes the IPC channel, which does not otherwise keep this process alive.
 */
function endWithLauncher() {
  if (process.env[LAUNCHED] !== '1' || !process.channel) return;
  delete process.env[LAUNCHED];
  process.channel.unref();
  // the launcher only ends first when it was killed outright: end the same way (the crash
  // bench and the editor-kill test count on a kill -9 being one)
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

function usesGlibc() {
  if (process.platform !== 'linux') return false;
  const header = process.report?.getReport?.().header;
  return Boolean(header?.glibcVersionRuntime);
}

/**
 * Re-runs this Node process (same arguments and options) with withMallocEnv's settings
 * (`options` as there), unless it has them, a user set the threshold, or the C library is not
 * glibc. Returns true when it did: the caller then does nothing more, and this process ends as
 * the child ends (signals are passed on).
 */
export function relaunchWithMallocTuning(options) {
  if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined || !usesGlibc()) {
    endWithLauncher();
    return false;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    // the IPC channel tells the child when this process is gone, even by SIGKILL (endWithLauncher)
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...withMallocEnv(process.env, options), [LAUNCHED]: '1' },
  });
  const forward = (signal) => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, forward);
  child.on('exit', (code, signal) => {
    for (const s of signals) process.off(s, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}
