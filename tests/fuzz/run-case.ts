// Runs one fuzz case against a copy of a project that already holds pairs and gold links and
// judges the outcome, in one of two ways: in this process through the import pipeline
// (runCase, fast: the unit tests' fixed slice), or through the `mekong` CLI as a user runs it
// (runCliCase: its exit code, its stderr, a time limit and the child's peak memory):
//   ok       the import succeeded, added the pairs the case expects (their count and, when the
//            case knows them, their texts in order), and the project passes integrity_check;
//   refused  the import failed with a user error of one line naming the file (file:line:
//            reason or file: reason), no stack trace, and every table is exactly as before,
//            integrity ok;
//   hang     the CLI did not end within the time limit (killed);
//   finding  anything else: another error type (TypeError, RangeError…), a stack trace, a
//            message that does not name the file, more than one line on stderr, a signal, a
//            changed table, other pairs or texts than the file holds, a failed integrity check.
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportOptions } from '../../src/shared/api.ts';
import { runImport } from '../../src/main/corpus/import-pipeline.ts';
import { asUserError } from '../../src/main/errors.ts';
import type { Db } from '../../src/main/store/database.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import type { SegmentPool } from '../../src/main/text/segment-pool.ts';
import type { FuzzCase } from './cases.ts';
import { dbOf } from '../../src/main/store/connection.ts';
import { userEnv } from '../../bin/malloc-tuning.js';

export interface Outcome {
  kind: 'ok' | 'refused' | 'finding' | 'hang';
  detail: string;
  /** CLI cases: the import's peak resident memory (KiB) and time, when measured. */
  peakKb?: number;
  ms?: number;
}

/** A project with three pairs and a gold alignment, closed (no WAL), to copy for each case. */
export async function baseProject(dir: string, pool: SegmentPool): Promise<string> {
  const path = join(dir, 'base.mekong');
  const store = ProjectStore.create(path, { name: 'fuzz', srcLang: 'lo', tgtLang: 'th' });
  const tsv = join(dir, 'base.tsv');
  writeFileSync(tsv, 'ສະບາຍດີ\tสวัสดี\nໂລກ\tโลก\nປະຈຳ ແຂວງ\tประจำ จังหวัด\n');
  const jsonl = join(dir, 'base.jsonl');
  writeFileSync(
    jsonl,
    '{"src":{"text":"ກ ຂ","tokens":[[0,1],[2,3]]},"tgt":{"text":"ก ข","tokens":[[0,1],[2,3]]},"alignments":[{"origin":"gold","source":"anna","links":[[0,0,"sure",null]]}]}\n',
  );
  await runImport(store, { file: tsv, format: 'tsv', tokenization: 'segment' }, { pool });
  await runImport(store, { file: jsonl, format: 'jsonl', tokenization: 'segment' }, { pool });
  store.close();
  return path;
}

/** Every table's rows, hashed: equal digests mean the project's data did not change. */
export function digest(db: Db): string {
  const h = createHash('sha1');
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as {
    name: string;
  }[];
  for (const { name } of tables) {
    const rows = (db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]).map((r) =>
      JSON.stringify(r, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('base64') : v)),
    );
    h.update(name).update(rows.sort().join('\n'));
  }
  return h.digest('hex');
}

const EXT: Record<FuzzCase['format'], string> = { tsv: 'tsv', csv: 'csv', moses: 'src', fastalign: 'fa', tmx: 'tmx', jsonl: 'jsonl' };

/** Writes the case's files under `dir` and the import options that read them. */
export function writeCase(c: FuzzCase, dir: string): ImportOptions {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `case-${c.seed}.${EXT[c.format]}`);
  writeFileSync(file, c.files[0]);
  // The cases mix Lao–Thai and English–Vietnamese pairs: the script check is not what they test.
  const options: ImportOptions = {
    file,
    format: c.format,
    tokenization: 'segment',
    anyScript: true,
    ...(c.header ? { header: true } : {}),
  };
  if (c.format === 'moses') {
    options.tgtFile = join(dir, `case-${c.seed}.tgt`);
    writeFileSync(options.tgtFile, c.files[1]);
  }
  if (c.links) {
    options.linksFile = join(dir, `case-${c.seed}.links`);
    options.linksFormat = c.links.format;
    writeFileSync(options.linksFile, c.links.content);
  }
  return options;
}

/** Why the pairs added after pair `lastId` are not what the case expects, or null when they are. */
function wrongPairs(c: FuzzCase, db: Db, lastId: number): string | null {
  const added = db.prepare(`SELECT src_text AS src, tgt_text AS tgt FROM pairs WHERE id > ? ORDER BY id`).all(lastId) as {
    src: string;
    tgt: string;
  }[];
  if (c.pairs !== null && added.length !== c.pairs) return `imported ${added.length} pairs, the file holds ${c.pairs}`;
  const k = c.rows?.findIndex(([src, tgt], k) => added[k].src !== src || added[k].tgt !== tgt) ?? -1;
  if (k !== -1)
    return `pair ${k + 1} imported as ${JSON.stringify([added[k].src, added[k].tgt]).slice(0, 200)}, the file holds ${JSON.stringify(c.rows![k]).slice(0, 200)}`;
  return null;
}

const lastPairId = (db: Db) => (db.prepare(`SELECT coalesce(max(id), 0) AS id FROM pairs`).get() as { id: number }).id;

/** The files a case's import reads: a refusal must name one of them. */
const filesOf = (o: ImportOptions) => [o.file, o.tgtFile, o.linksFile].filter((f): f is string => f !== undefined);

export async function runCase(c: FuzzCase, base: string, dir: string, pool: SegmentPool): Promise<Outcome> {
  const caseDir = join(dir, `c${c.seed}`);
  const options = writeCase(c, caseDir);
  const project = join(caseDir, 'p.mekong');
  copyFileSync(base, project);
  const store = ProjectStore.open(project);
  const before = digest(dbOf(store));
  const lastId = lastPairId(dbOf(store));
  let outcome: Outcome;
  try {
    await runImport(store, options, { pool });
    const wrong = wrongPairs(c, dbOf(store), lastId);
    outcome = wrong ? { kind: 'finding', detail: wrong } : { kind: 'ok', detail: `${store.info().pairs} pairs in the project` };
  } catch (err) {
    const user = asUserError(err);
    const files = filesOf(options);
    if (!user)
      outcome = {
        kind: 'finding',
        detail: `${(err as Error)?.name ?? 'error'}: ${String((err as Error)?.stack ?? err)
          .split('\n')
          .slice(0, 3)
          .join(' | ')}`,
      };
    else if (user.message.includes('\n') || !files.some((f) => user.message.startsWith(`${f}:`)))
      outcome = { kind: 'finding', detail: `message does not name the file on one line: ${JSON.stringify(user.message.slice(0, 300))}` };
    else if (digest(dbOf(store)) !== before) outcome = { kind: 'finding', detail: `tables changed by a failed import: ${user.message}` };
    else outcome = { kind: 'refused', detail: user.message.slice(files.find((f) => user.message.startsWith(f))!.length + 1) };
  }
  const integrity = dbOf(store).pragma('integrity_check', { simple: true });
  store.close();
  if (integrity !== 'ok') outcome = { kind: 'finding', detail: `integrity_check: ${String(integrity)}` };
  if (outcome.kind !== 'finding') rmSync(caseDir, { recursive: true, force: true });
  return outcome;
}

const ROOT = join(import.meta.dirname, '../..');
/** GNU time, which reports the peak memory of a command and of the processes it waited for. */
const TIME = '/usr/bin/time';
/** A case's time limit in the CLI: longer is a hang. */
export const CASE_LIMIT_MS = 60_000;
/** A stack trace's frame, or the name of an error class, on stderr. */
const STACK = /^\s+at |\b(?:[A-Z][A-Za-z]*)?Error\b/m;

/** The `mekong import` arguments that read the case's files as `options` says. */
function importArgs(project: string, o: ImportOptions): string[] {
  return [
    'import',
    project,
    o.file,
    '--format',
    o.format,
    ...(o.tgtFile ? ['--tgt-file', o.tgtFile] : []),
    ...(o.header ? ['--header'] : []),
    ...(o.linksFile ? ['--links', o.linksFile, '--links-format', o.linksFormat ?? 'pharaoh'] : []),
    ...(o.anyScript ? ['--any-script'] : []),
  ];
}

/** What a `mekong` run did: its exit code (null when killed), signal, stderr, time, peak memory. */
interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  ms: number;
  hung: boolean;
  peakKb: number | null;
}

/** `node bin/mekong.js …args` in its own process group, killed with its group after `limit` ms. */
function runMekong(args: string[], memFile: string, limit: number): Promise<CliRun> {
  const timed = existsSync(TIME);
  const argv = [...(timed ? ['-f', '%M', '-o', memFile] : []), process.execPath, join(ROOT, 'bin/mekong.js'), ...args];
  const t0 = Date.now();
  const child = spawn(timed ? TIME : argv.shift()!, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: userEnv(),
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, limit);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // GNU time reports a signal its command died of as exit status 128 + n ("Command terminated by signal n")
      const report = timed && existsSync(memFile) ? readFileSync(memFile, 'utf8') : '';
      const peak = /(\d+)\s*$/.exec(report)?.[1];
      const bySignal = /terminated by signal (\d+)/.exec(report)?.[1];
      resolve({
        code: bySignal ? null : code,
        signal: bySignal ? (`signal ${bySignal}` as NodeJS.Signals) : signal,
        stderr,
        ms: Date.now() - t0,
        hung,
        peakKb: peak ? Number(peak) : null,
      });
    }),
  );
}

/** The base project of the CLI cases: its file, its tables' digest and its last pair's id. */
export interface CliBase {
  path: string;
  digest: string;
  lastId: number;
}

/** `path` (baseProject's file) as a copy of it opens through ProjectStore.open, as the cases' checks open theirs. */
export function cliBase(path: string, dir: string): CliBase {
  const copy = join(dir, 'base-copy.mekong');
  copyFileSync(path, copy);
  const store = ProjectStore.open(copy);
  try {
    return { path, digest: digest(dbOf(store)), lastId: lastPairId(dbOf(store)) };
  } finally {
    store.close();
    rmSync(copy, { force: true });
  }
}

/** The case through `mekong import` into a copy of the base project, judged as above. */
export async function runCliCase(c: FuzzCase, base: CliBase, dir: string): Promise<Outcome> {
  const caseDir = join(dir, `c${c.seed}`);
  const options = writeCase(c, caseDir);
  const project = join(caseDir, 'p.mekong');
  copyFileSync(base.path, project);
  const run = await runMekong(importArgs(project, options), join(caseDir, 'time.txt'), CASE_LIMIT_MS);
  const measured = { peakKb: run.peakKb ?? undefined, ms: run.ms };
  const line = run.stderr.trimEnd();
  let outcome: Outcome;
  if (run.hung) outcome = { kind: 'hang', detail: `no end after ${CASE_LIMIT_MS / 1000} s (killed)` };
  else if (run.code === null) outcome = { kind: 'finding', detail: `ended by ${run.signal}: ${line.slice(-300)}` };
  else if (STACK.test(run.stderr))
    outcome = {
      kind: 'finding',
      detail: `stack trace or error class on stderr: ${line.split('\n').slice(0, 3).join(' | ').slice(0, 400)}`,
    };
  else if (run.code !== 0 && (line.includes('\n') || line === ''))
    outcome = {
      kind: 'finding',
      detail: `exit ${run.code} with ${line === '' ? 'nothing' : 'more than one line'} on stderr: ${JSON.stringify(line.slice(0, 300))}`,
    };
  else if (run.code !== 0 && !filesOf(options).some((f) => line.startsWith(`mekong: ${f}:`)))
    outcome = { kind: 'finding', detail: `exit ${run.code}, the message does not name the file: ${JSON.stringify(line.slice(0, 300))}` };
  else outcome = { kind: run.code === 0 ? 'ok' : 'refused', detail: line };
  // the project as a user opens it next
  if (outcome.kind === 'ok' || outcome.kind === 'refused') {
    let store: ProjectStore | null = null;
    try {
      store = ProjectStore.open(project);
      const db = dbOf(store);
      const integrity = db.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') outcome = { kind: 'finding', detail: `integrity_check: ${String(integrity)}` };
      else if (outcome.kind === 'refused' && digest(db) !== base.digest)
        outcome = { kind: 'finding', detail: `tables changed by a failed import: ${line}` };
      else if (outcome.kind === 'ok') {
        const wrong = wrongPairs(c, db, base.lastId);
        if (wrong) outcome = { kind: 'finding', detail: wrong };
      }
    } catch (err) {
      outcome = { kind: 'finding', detail: `the project does not open after the import: ${(err as Error).message}` };
    } finally {
      store?.close();
    }
  }
  if (outcome.kind === 'ok' || outcome.kind === 'refused') rmSync(caseDir, { recursive: true, force: true });
  else writeFileSync(join(caseDir, 'stderr.txt'), run.stderr);
  return { ...outcome, ...measured };
}
