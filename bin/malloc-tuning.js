// Runs Mekong's processes with glibc's malloc told to give freed memory back. glibc returns a
// freed block to the system only when it was mmapped, and each time it frees an mmapped block
// it raises its mmap threshold (up to 32 MB): after the first training steps, onnxruntime's
// per-step activations of 1–30 MB come from the heap instead and stay in the process. Training
// bilstm-ctl on 1,500 en–de pairs (every length bucket built, three steps each): peak RSS
// 1,514 MB, 697 MB still held after releasing every session; with the threshold fixed at
// 128 KiB: 741 MB and 404 MB, and steps were not slower (T 32: 2,247 → 1,690 ms, T 48:
// 3,123 → 2,270 ms, on a loaded machine). The statistical aligner is unchanged (dup100k: 834 →
// 830 MB, same links). The setting is read when a process starts, so a process that lacks it
// runs itself again with it. Only glibc reads it; elsewhere nothing happens.
// A block returned to the system is a fresh mapping when it comes back, faulted in 4 KiB page
// by page: a bilstm-ctl training step at T = 32 on 5k en–de pairs took 780–1,050 ms with the
// threshold against 360–570 ms without it. glibc's `hugetlb=1` tunable (glibc ≥ 2.35; older
// ones ignore it) marks mmapped blocks of 2 MB and more for transparent huge pages, one fault
// per 2 MB: 525–720 ms, with the threshold's memory (peak 596–627 MB against 594–629 MB;
// without the threshold 1,019–1,109 MB). The statistical aligner's dup100k run is unchanged
// (peak 362–364 MB with it and without, same links).
// The threshold is 8 MiB, not 128 KiB: a step's many 128 KiB–8 MiB tensors (an LSTM step's
// [4, 32, 512] pieces, the [B·T, D] rows) then come from the heap, reused, instead of fresh
// mappings faulted in page by page, while the 8–30 MB ones are still returned. bilstm-ctl on
// 5k en–de pairs, a step after the last session build 306 / 230 ms → 174 / 184 ms, an epoch
// 78 / 64 s → 64 / 55 s, process peak 877 / 907 → 930 / 953 MB (runs in turn, both with huge
// pages; 4 MiB gave 185–206 ms, 16 MiB no faster than 8). The price is memory kept after
// training: 1,500 pairs, RSS after the run 350 → 611 MB, peak 620 → 688 MB. dup100k align
// peak 398–399 → 403–405 MB (the same code's runs today spread 398–417 MB).
import { spawn } from 'node:child_process';

const HUGE_PAGES = 'glibc.malloc.hugetlb=1';

export const MALLOC_ENV = { MALLOC_MMAP_THRESHOLD_: String(8 * 2 ** 20), GLIBC_TUNABLES: HUGE_PAGES };

/** `env` with MALLOC_ENV added: a user's own threshold is kept, their other tunables joined. */
export function withMallocEnv(env) {
  const own = env.GLIBC_TUNABLES;
  const tunables = !own ? HUGE_PAGES : own.includes('glibc.malloc.hugetlb') ? own : `${own}:${HUGE_PAGES}`;
  return { ...env, MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? MALLOC_ENV.MALLOC_MMAP_THRESHOLD_, GLIBC_TUNABLES: tunables };
}

/** Set in the child a launcher started: it ends when the launcher ends. */
const LAUNCHED = 'MEKONG_LAUNCHED';

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
 * Re-runs this Node process (same arguments and options) with MALLOC_ENV, unless it has it, a
 * user set the variable, or the C library is not glibc. Returns true when it did: the caller
 * then does nothing more, and this process ends as the child ends (signals are passed on).
 */
export function relaunchWithMallocTuning() {
  if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined || !usesGlibc()) {
    endWithLauncher();
    return false;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    // the IPC channel tells the child when this process is gone, even by SIGKILL (endWithLauncher)
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...withMallocEnv(process.env), [LAUNCHED]: '1' },
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
