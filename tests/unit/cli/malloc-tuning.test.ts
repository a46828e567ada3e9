// Mekong's processes run with glibc's malloc returning freed memory (bin/malloc-tuning.js):
// the launcher runs itself again with MALLOC_MMAP_THRESHOLD_ set and huge pages asked for in
// GLIBC_TUNABLES with a 64 MiB top pad (the statistical aligner without them: cli/malloc-plan.ts),
// keeps a user's own threshold and tunables, passes on the exit code and signals, and a launcher killed outright
// takes the work with it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const repo = join(import.meta.dirname, '../../..');
const fixture = join(import.meta.dirname, 'fixtures', 'report-malloc.ts');
const ORT_TUNABLES = 'glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864';
const glibc = Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const { MALLOC_MMAP_THRESHOLD_: _, GLIBC_TUNABLES: __, ...rest } = process.env;
  return spawnSync('node', [join(repo, 'bin/tsx-run.js'), fixture, ...args], { encoding: 'utf8', env: { ...rest, ...env } });
};

test.runIf(glibc)('the launcher sets the threshold, keeps a user value and passes the exit code on', () => {
  const r = run(['3']);
  expect(r.status).toBe(3);
  expect(JSON.parse(r.stdout)).toMatchObject({ threshold: '8388608', tunables: ORT_TUNABLES });
  expect(JSON.parse(run(['0'], { MALLOC_MMAP_THRESHOLD_: '65536' }).stdout).threshold).toBe('65536');
  expect(JSON.parse(run(['0'], { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).stdout).tunables).toBe(
    `glibc.malloc.arena_max=2:${ORT_TUNABLES}`,
  );
  // a tunable of ours that the user sets keeps their value, and the other is still added
  expect(JSON.parse(run(['0'], { GLIBC_TUNABLES: 'glibc.malloc.top_pad=0' }).stdout).tunables).toBe(
    'glibc.malloc.top_pad=0:glibc.malloc.hugetlb=1',
  );
  expect(JSON.parse(run(['0'], { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0:glibc.malloc.top_pad=4096' }).stdout).tunables).toBe(
    'glibc.malloc.hugetlb=0:glibc.malloc.top_pad=4096',
  );
});

test.runIf(glibc)('a signal to the launcher reaches the process doing the work', async () => {
  const { MALLOC_MMAP_THRESHOLD_: _, ...env } = process.env;
  const launcher = spawn('node', [join(repo, 'bin/tsx-run.js'), fixture, 'wait'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => launcher.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  const { pid } = JSON.parse(line) as { pid: number };
  expect(pid).not.toBe(launcher.pid);
  const ended = new Promise<NodeJS.Signals | null>((resolve) => launcher.on('exit', (_code, signal) => resolve(signal)));
  launcher.kill('SIGTERM');
  expect(await ended).toBe('SIGTERM');
  expect(() => process.kill(pid, 0)).toThrow();
});

test.runIf(glibc)('a launcher killed with SIGKILL leaves no process behind', async () => {
  const { MALLOC_MMAP_THRESHOLD_: _, ...env } = process.env;
  const launcher = spawn('node', [join(repo, 'bin/tsx-run.js'), fixture, 'wait'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => launcher.stdout.once('data', (d: Buffer) => resolve(d.toString())));
  const { pid } = JSON.parse(line) as { pid: number };
  launcher.kill('SIGKILL');
  await expect
    .poll(
      () => {
        try {
          process.kill(pid, 0);
          return 'alive';
        } catch {
          return 'gone';
        }
      },
      { timeout: 5000 },
    )
    .toBe('gone');
});

test.runIf(glibc)('commands that never run onnxruntime start one process, the others two; only onnxruntime gets huge pages', () => {
  const { MALLOC_MMAP_THRESHOLD_: _, GLIBC_TUNABLES: __, ...env } = process.env;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-starts-'));
  /** The processes a command line starts, each with its malloc settings. */
  const starts = (args: string[]) => {
    const log = join(dir, `${args.join('_').replace(/\W/g, '')}.log`);
    const preload = join(import.meta.dirname, 'fixtures', 'log-start.cjs');
    spawnSync('node', [join(repo, 'bin/mekong.js'), ...args], {
      env: { ...env, NODE_OPTIONS: `--require ${preload}`, MEKONG_START_LOG: log },
      encoding: 'utf8',
    });
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const { threshold, tunables } = JSON.parse(l) as { threshold: string | null; tunables: string | null };
        return { threshold, tunables };
      });
  };
  try {
    expect(starts(['info', join(dir, 'missing.mekong')])).toHaveLength(1);
    expect(starts(['import', '--help'])).toHaveLength(1);
    const training = { threshold: '8388608', tunables: ORT_TUNABLES };
    expect(starts(['finetune', '--help'])).toEqual([{ threshold: null, tunables: null }, training]);
    // the statistical aligner (the default method): the threshold alone
    expect(starts(['align', '--help'])[1]).toEqual({ threshold: '8388608', tunables: null });
    expect(starts(['align', '--method', 'hmm', '--help'])[1]).toEqual({ threshold: '8388608', tunables: null });
    // a method that trains or encodes, however it is written; the last --method counts
    expect(starts(['align', '--method', 'bilstm-ctl', '--help'])[1]).toEqual(training);
    expect(starts(['align', '--method=simalign-argmax', '--help'])[1]).toEqual(training);
    expect(starts(['align', '--method', 'bilstm', '--method', 'agree', '--help'])[1]).toEqual({ threshold: '8388608', tunables: null });
    // a lexicon: the statistical method's alone, the default (bilstm-ctl) trains
    expect(starts(['lexicon', '--method', 'agree', '--help'])[1]).toEqual({ threshold: '8388608', tunables: null });
    expect(starts(['lexicon', '--help'])[1]).toEqual(training);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
