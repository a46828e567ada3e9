// Jobs belong to a live process: opening a project (a second app, `mekong info`, `mekong
// export`) while another process imports into it or trains in it leaves that work alone,
// and cleans up only what a dead process left. Real processes, real SQLite files, a real
// import through the CLI and a real training run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from 'vitest';
import { ownerAlive, takeLease } from '../../../src/main/store/job-leases.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { trainableProject } from '../review/fixture.ts';
import { peek } from '../helpers/peek-project.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-leases-');

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The first stdout line of `child` that matches `re`. */
function lineOf(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (l) => re.test(l) && resolve(l));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${re}`)));
  });
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once('exit', (code) => r(code)));

test('a lease is alive while its owner holds it, in this process and seen from another; dead once released or killed', async () => {
  const store = ProjectStore.create(join(dir, 'l.mekong'), { name: 'l', srcLang: 'en', tgtLang: 'vi' });
  const lease = takeLease(dbOf(store))!;
  expect(ownerAlive(dbOf(store), lease.owner)).toBe(true);
  const probe = `import Database from 'better-sqlite3'; const d = new Database(process.argv[1], { timeout: 0 });
    try { d.exec('BEGIN EXCLUSIVE'); console.log('free'); } catch (e) { console.log(e.code); }`;
  const other = (file: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', probe, file], { encoding: 'utf8' }).stdout.trim();
  const file = join(`${store.path}-leases`, lease.owner);
  expect(other(file)).toBe('SQLITE_BUSY');
  lease.release();
  expect(existsSync(file)).toBe(false);
  expect(ownerAlive(dbOf(store), lease.owner)).toBe(false);
  expect(ownerAlive(dbOf(store), null)).toBe(false);

  // A holder killed with SIGKILL: the OS drops its lock, its file stays until a clean-up.
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/unit/store/fixtures/hold-lease.ts', store.path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const owner = (await lineOf(child, /^owner /)).slice(6);
  expect(ownerAlive(dbOf(store), owner)).toBe(true);
  child.kill('SIGKILL');
  await exited(child);
  expect(ownerAlive(dbOf(store), owner)).toBe(false);
  store.close();
  ProjectStore.open(store.path).close();
  expect(existsSync(`${store.path}-leases`)).toBe(false);
});

test('another process opens, reads and exports the project while the CLI imports into it: the import finishes whole', async () => {
  const path = join(dir, 'import.mekong');
  expect(mekong('project', 'create', path, '--src-lang', 'en', '--tgt-lang', 'vi').code).toBe(0);
  const n = 60_000;
  const tsv = join(dir, 'big.tsv');
  writeFileSync(tsv, Array.from({ length: n }, (_, i) => `pair ${i} of the big corpus here\tcặp ${i} của kho lớn này\n`).join(''));
  const importer = spawn(process.execPath, ['bin/mekong.js', 'import', path, tsv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  importer.stderr!.on('data', (d) => (stderr += d));
  // Wait until the import has committed pairs under its 'running' row.
  for (;;) {
    const row = peek<{ n: number } | undefined>(
      path,
      `SELECT count(*) AS n FROM pairs p JOIN imports i ON i.id = p.import_id WHERE i.state = 'running'`,
    );
    if ((row?.n ?? 0) > 0) break;
    expect(importer.exitCode).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
  }
  // Opened by this process (the app's way) and by two other commands, while the import runs.
  const store = ProjectStore.open(path);
  expect(peek<{ state: string }>(path, `SELECT state FROM imports`)).toEqual({ state: 'running' });
  expect(store.info().pairs).toBe(0);
  expect(mekong('info', path, '--json').code).toBe(0);
  expect(mekong('export', path, join(dir, 'mid.jsonl'), '--format', 'jsonl').code).toBe(0);
  expect(await exited(importer)).toBe(0);
  expect(stderr).toBe('');
  expect(store.info().pairs).toBe(n);
  store.close();
  expect(JSON.parse(mekong('info', path, '--json').out)).toMatchObject({ pairs: n });
}, 120_000);

test('another process opens the project while a run trains in it: the run stays running and ends as its owner ends it', async () => {
  const path = trainableProject(dir);
  const trainer = spawn(process.execPath, ['--import', 'tsx', 'tests/unit/store/fixtures/train-in-child.ts', path, dir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const runId = Number((await lineOf(trainer, /^training \d+$/)).split(' ')[1]);
  const state = () => peek<{ state: string; error: string | null }>(path, `SELECT state, error FROM training_runs WHERE id = ${runId}`);
  expect(state()).toEqual({ state: 'running', error: null });

  const reopened = ProjectStore.open(path);
  expect(mekong('info', path, '--json').code).toBe(0);
  expect(state()).toEqual({ state: 'running', error: null });
  const outcome = lineOf(trainer, /^job\./);
  trainer.stdin!.write('cancel\n');
  expect(await outcome).toBe('job.cancelled');
  expect(await exited(trainer)).toBe(0);
  expect(state()).toEqual({ state: 'cancelled', error: null });
  // The owner released its lease; nothing is left to clean up.
  reopened.close();
  expect(readdirSync(dir).filter((f) => f.endsWith('-leases'))).toEqual([]);
}, 120_000);
