// Damaged project files met as a user meets them: copies of a real project (the bundled
// Lao–Thai sample, with gold links and a model alignment) with bytes flipped at random
// (fixed seed) in the file header, in b-tree page headers and in data, each given to
// `mekong info`, `mekong export` and `mekong check`. Every command either ends correctly
// (exit 0) or fails with exit 1 and exactly one line on stderr: no stack trace, no RangeError
// or TypeError. `mekong check` flags every copy that SQLite's own integrity_check flags.
//
// `check` runs in a child process (bin/mekong.js) on every copy, and so do `info` and `export`
// on the copies with a damaged header field; the other `info` and `export` runs go through the
// same command line in this process (cli/commands.ts runCommandLine): a child process costs
// about 1.7 s of CPU to start. On an idle two-core machine the file takes about 30 s.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, vi } from 'vitest';
import type { Link } from '../../../src/shared/domain.ts';
import { runCommandLine } from '../../../src/main/cli/commands.ts';
import { buildSampleProject } from '../../../src/main/corpus/sample.ts';
import { createAlignment, goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { random } from '../text/random.ts';

const dir = tempDir('mekong-flip-');
const TRIALS = 12;
const PAGE = 4096;

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function mekong(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/mekong.js', ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** The same command line run in this process, its output captured. */
async function inProcess(...args: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += `${a.join(' ')}\n`));
  const warn = vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void (err += `${a.join(' ')}\n`));
  try {
    const code = await runCommandLine([process.execPath, 'mekong', ...args], (line) => (err += line));
    return { code: code ?? 0, out, err };
  } finally {
    log.mockRestore();
    warn.mockRestore();
  }
}

/** Runs `jobs` at most `n` at a time. */
async function limited<T>(n: number, jobs: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const k = next++;
        results[k] = await jobs[k]();
      }
    }),
  );
  return results;
}

/** The sample project with anna's gold links on its first 40 pairs and a model alignment of every pair. */
async function sampleProject(path: string): Promise<void> {
  const store = await buildSampleProject(path);
  const { pairs } = store.listPairs({}, 0, 1000);
  const diagonal = (n: number, m: number, score: number | null): Link[] =>
    Array.from({ length: Math.min(n, m) }, (_, i) => ({ s: i, t: i, kind: 'sure', score }));
  store.transaction(() => {
    const gold = linkInserter(store, goldAlignmentOf(store, 'anna'));
    for (const p of pairs.slice(0, 40)) gold(p.id, diagonal(p.srcTokens.length, p.tgtTokens.length, null));
    const model = linkInserter(store, createAlignment(store, { origin: 'model', name: 'diagonal' }));
    for (const p of pairs) model(p.id, diagonal(p.srcTokens.length, p.tgtTokens.length, 0.9));
  });
  store.close();
}

/** Which damage a trial does: the first page (file header and schema), b-tree page headers, or cell data. */
const KINDS = ['header', 'btree', 'data'] as const;

/** Copies `from` to `to` and flips bytes there as trial `k` says; returns what was flipped. */
function damagedCopy(from: string, to: string, k: number, next: () => number): string {
  copyFileSync(from, to);
  const pages = statSync(to).size / PAGE;
  const kind = KINDS[k % KINDS.length];
  const fd = openSync(to, 'r+');
  const flipped: string[] = [];
  try {
    const count = 1 + Math.floor(next() * 3);
    for (let i = 0; i < count; i++) {
      const page = kind === 'header' ? 0 : 1 + Math.floor(next() * (pages - 1));
      const within =
        kind === 'header'
          ? Math.floor(next() * 112) // the 100-byte file header and the schema page's b-tree header
          : kind === 'btree'
            ? Math.floor(next() * 12)
            : 12 + Math.floor(next() * (PAGE - 12));
      const at = page * PAGE + within;
      const byte = Buffer.alloc(1);
      readSync(fd, byte, 0, 1, at);
      byte[0] ^= 1 + Math.floor(next() * 255);
      writeSync(fd, byte, 0, 1, at);
      flipped.push(`${at}`);
    }
  } finally {
    closeSync(fd);
  }
  return `${kind} @${flipped.join(',')}`;
}

/**
 * Header fields whose damage once gave a stack trace or a TypeError: the schema format number
 * and the page size (SQLite refuses the file), and the schema version (user_version) made
 * negative or lower than the file's tables.
 */
const HEADER_FIELDS = [
  { field: 'schema format', at: 47, value: 0x7f },
  { field: 'page size', at: 16, value: 0x7f },
  { field: 'schema version', at: 60, value: 0xff },
  { field: 'schema version', at: 63, value: 0x05 },
];

/** Copies `from` to `to` with one header field's byte set; returns what was changed. */
function headerField(from: string, to: string, { field, at, value }: (typeof HEADER_FIELDS)[number]): string {
  copyFileSync(from, to);
  const fd = openSync(to, 'r+');
  writeSync(fd, Buffer.from([value]), 0, 1, at);
  closeSync(fd);
  return `${field} @${at}`;
}

/** SQLite's own verdict on a file: whether integrity_check says ok (a file it cannot read is not). */
function sqliteSaysOk(path: string): boolean {
  try {
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.pragma('integrity_check') as { integrity_check: string }[];
      return rows.length === 1 && rows[0].integrity_check === 'ok';
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

test(`${TRIALS} damaged copies of a real project: one line or a correct answer, and check flags what SQLite flags`, async () => {
  const original = join(dir, 'sample.mekong');
  await sampleProject(original);
  expect(sqliteSaysOk(original)).toBe(true);
  const next = random(38);
  const copies = Array.from({ length: TRIALS + HEADER_FIELDS.length }, (_, k) => {
    const path = join(dir, `copy-${k}.mekong`);
    const what = k < TRIALS ? damagedCopy(original, path, k, next) : headerField(original, path, HEADER_FIELDS[k - TRIALS]);
    // SQLite's verdict on a copy of the copy: the commands below may write to theirs.
    const probe = join(dir, `probe-${k}.mekong`);
    copyFileSync(path, probe);
    return { path, what, sqliteOk: sqliteSaysOk(probe) };
  });
  expect(copies.filter((c) => !c.sqliteOk).length).toBeGreaterThan(0);

  const commands = (path: string, k: number) => [
    ['info', path],
    ['export', path, join(dir, `out-${k}.jsonl`), '--format', 'jsonl'],
    ['check', path],
  ];
  const jobs = copies.flatMap((c, k) => commands(c.path, k).map((args) => ({ copy: c, args, child: args[0] === 'check' || k >= TRIALS })));
  const runs = [];
  // In this process first, one at a time; then the child processes, three at a time.
  for (const job of jobs.filter((j) => !j.child)) runs.push({ ...job, run: await inProcess(...job.args) });
  runs.push(
    ...(await limited(
      3,
      jobs.filter((j) => j.child).map((job) => async () => ({ ...job, run: await mekong(...job.args) })),
    )),
  );
  expect(runs).toHaveLength(copies.length * 3);
  const bad: string[] = [];
  for (const { copy, args, run } of runs) {
    const where = `${args[0]} on ${copy.path} (${copy.what})`;
    if (run.code === 0) {
      if (args[0] === 'check' && !copy.sqliteOk) bad.push(`${where}: check says sound, SQLite says damaged`);
      continue;
    }
    const lines = run.err.trimEnd().split('\n');
    if (run.code !== 1 || lines.length !== 1 || /^ {4}at |RangeError|TypeError/m.test(run.err))
      bad.push(`${where}: exit ${run.code}, stderr:\n${run.err}`);
  }
  expect(bad).toEqual([]);
  // A damaged header is named as damage (not as "not an SQLite database").
  for (const { run } of runs.filter((r) => /^(schema format|page size|schema version)/.test(r.copy.what)))
    expect(run.err).toMatch(/: the project file is damaged; run `mekong check` on it, and restore it from a backup copy\n$/);
}, 600_000);
