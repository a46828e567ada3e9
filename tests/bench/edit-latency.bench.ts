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
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { benchOptions, numberOption } from './bench-options.ts';
import { exited, GoldEdits, runMekong as run, serveProject as serve } from './served-project.ts';

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

    const edits = new GoldEdits(server, pairs, interval);

    await sleep(2000);
    edits.recording = true;
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
    edits.recording = false;
    await edits.stop();
    probe.stdin!.end();
    await exited(probe);
    server.proc.kill('SIGTERM');
    await exited(server.proc);

    const e = edits.summary();
    console.log(`resegment: exit ${code} in ${resegSeconds.toFixed(1)} s: ${resegOut.trim().split('\n')[0]}`);
    console.log(
      `edits during it: ${e.edits}, failed ${e.failed}; latency p50 ${e.p50.toFixed(0)} ms, ` +
        `p99 ${e.p99.toFixed(0)} ms, max ${e.max.toFixed(0)} ms`,
    );
    for (const [why, n] of edits.failures) console.log(`  ${n}× ${why}`);
    console.log(`longest write-lock hold seen by the probe: ${probeOut.trim()} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
