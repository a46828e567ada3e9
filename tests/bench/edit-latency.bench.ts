// `npm run bench -- edit-latency [--pairs 120000] [--interval 100] [--mekong bin/mekong.js]`:
// how long the app's edits wait while `mekong resegment` rewrites a large project in another
// process. A Lao–Thai project of the bundled sample cycled to P pairs is imported pretokenized,
// so that re-segmenting changes every pair (the heaviest re-segmentation). `mekong serve` opens
// it as the app does, and this process sets a gold link through its HTTP API every INTERVAL ms
// while `mekong resegment` runs; a third process probes SQLite's write lock every 2 ms
// (BEGIN IMMEDIATE with no busy wait) and reports the longest time it stayed taken (at least).
// Prints the resegment's time, the edits made during it, how many failed, their p50 / p99 /
// max latency, and the longest lock hold. `--mekong` runs another tree's CLI for every
// process (the project, serve, resegment), e.g. an older checkout for a before figure.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { benchOptions, numberOption } from './bench-options.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'resources/sample/vientiane-thaiembassy-sent.csv');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Probes the write lock of the file argv[1] until stdin closes; prints the longest hold in ms:
 * from the first to the last of an unbroken run of probes that found it taken (a lower bound,
 * which a probe descheduled on a loaded machine does not inflate).
 */
const PROBE = `import Database from 'better-sqlite3';
const db = new Database(process.argv[1], { timeout: 0 });
let first = null, last = null, longest = 0, open = true;
process.stdin.on('end', () => (open = false)).resume();
while (open) {
  try {
    db.exec('BEGIN IMMEDIATE'); db.exec('ROLLBACK');
    if (first !== null) longest = Math.max(longest, last - first);
    first = null;
  } catch (e) {
    if (e.code !== 'SQLITE_BUSY') throw e;
    last = performance.now();
    first ??= last;
  }
  await new Promise((r) => setTimeout(r, 2));
}
console.log(Math.round(longest));`;

function run(mekong: string, ...args: string[]): string {
  const r = spawnSync(process.execPath, [mekong, ...args], { cwd: dirname(dirname(mekong)), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mekong ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout.trim();
}

/** `mekong serve` on a project: its process, base URL and token. */
function serve(mekong: string, project: string): Promise<{ proc: ChildProcess; base: string; token: string }> {
  const proc = spawn(process.execPath, [mekong, 'serve', '--project', project, '--port', '0', '--annotator', 'bench'], {
    cwd: dirname(dirname(mekong)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Mekong is at (http:\/\/[^/]+)\/\?token=(\S+)/.exec(out);
      if (m) resolve({ proc, base: m[1], token: m[2] });
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out.slice(-500)}`)));
  });
}

function exited(proc: ChildProcess): Promise<number | null> {
  return proc.exitCode !== null ? Promise.resolve(proc.exitCode) : new Promise((r) => proc.once('exit', (code) => r(code)));
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('edit-latency', args, {
    pairs: { type: 'string', default: '120000' },
    interval: { type: 'string', default: '100' },
    mekong: { type: 'string', default: join(ROOT, 'bin/mekong.js') },
  });
  if (!o) return;
  const pairs = numberOption('pairs', o.pairs)!;
  const interval = numberOption('interval', o.interval)!;
  const mekong = resolve(o.mekong!);
  const dir = mkdtempSync(join(tmpdir(), 'mekong-edit-latency-'));
  try {
    const project = join(dir, 'p.mekong');
    const sample = (parse(readFileSync(SAMPLE), { bom: true, from_line: 2 }) as string[][]).map(([lo, th]) => `${lo}\t${th}`);
    const tsv = join(dir, 'corpus.tsv');
    writeFileSync(tsv, Array.from({ length: pairs }, (_, i) => `${sample[i % sample.length]} ${i}\n`).join(''));
    run(mekong, 'project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th');
    const t0 = performance.now();
    run(mekong, 'import', project, tsv, '--format', 'tsv', '--pretokenized', '--any-script');
    console.log(`${pairs} pairs imported pretokenized in ${((performance.now() - t0) / 1000).toFixed(1)} s (${mekong})`);

    const server = await serve(mekong, project);
    const probe = spawn(process.execPath, ['--input-type=module', '-e', PROBE, project], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    let probeOut = '';
    probe.stdout!.on('data', (d: Buffer) => (probeOut += d.toString()));

    const latencies: number[] = [];
    const failures = new Map<string, number>();
    let resegmenting = false;
    let editing = true;
    const edits = (async () => {
      for (let k = 0; editing; k++) {
        const started = performance.now();
        const pairId = 1 + ((k * 7919) % pairs);
        let failure: string | null = null;
        try {
          const r = await fetch(`${server.base}/api/editor.setGold`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-mekong-token': server.token },
            body: JSON.stringify({ pairId, links: [{ s: 0, t: 0, kind: 'sure', score: null }], untranslated: [] }),
          });
          const body = (await r.json()) as { error?: string; message?: string };
          if (!r.ok) failure = `${r.status} ${body.message ?? body.error ?? ''}`.trim();
        } catch (err) {
          failure = (err as Error).message;
        }
        const ms = performance.now() - started;
        if (resegmenting) {
          latencies.push(ms);
          if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
        }
        await sleep(Math.max(0, interval - ms));
      }
    })();

    await sleep(2000);
    resegmenting = true;
    const r0 = performance.now();
    const reseg = spawn(process.execPath, [mekong, 'resegment', project, '--annotator', 'bench-resegment'], {
      cwd: dirname(dirname(mekong)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let resegOut = '';
    reseg.stdout!.on('data', (d: Buffer) => (resegOut += d.toString()));
    reseg.stderr!.on('data', (d: Buffer) => (resegOut += d.toString()));
    const code = await exited(reseg);
    const resegSeconds = (performance.now() - r0) / 1000;
    resegmenting = false;
    editing = false;
    await edits;
    probe.stdin!.end();
    await exited(probe);
    server.proc.kill('SIGTERM');
    await exited(server.proc);

    const sorted = [...latencies].sort((a, b) => a - b);
    const failed = [...failures.values()].reduce((a, b) => a + b, 0);
    console.log(`resegment: exit ${code} in ${resegSeconds.toFixed(1)} s: ${resegOut.trim().split('\n')[0]}`);
    console.log(
      `edits during it: ${latencies.length}, failed ${failed}; latency p50 ${quantile(sorted, 0.5).toFixed(0)} ms, ` +
        `p99 ${quantile(sorted, 0.99).toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms`,
    );
    for (const [why, n] of failures) console.log(`  ${n}× ${why}`);
    console.log(`longest write-lock hold seen by the probe: ${probeOut.trim()} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
