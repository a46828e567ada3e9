// The automatic backup (store/backup.ts): the last good copy of a project is kept as
// `<project>.backup` before a schema migration and before an import of more than 10,000
// pairs; a smaller import makes none; a damaged file never replaces it; the message for a
// damaged project and `mekong check` name it. Real project files throughout; the full-disk
// case needs a real tmpfs (root, as CI runs) and is skipped elsewhere.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { backUp, backUpInWorker } from '../../../src/main/store/backup.ts';
import { silentContext } from '../../../src/main/jobs/job-context.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { oldSchemaProject } from '../helpers/old-schema-project.ts';

const dir = tempDir('mekong-backup-');
const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
const mekong = (...args: string[]) => {
  const r = sh(process.execPath, 'bin/mekong.js', ...args);
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A project file of schema 10 (before job ownership), as an older Mekong left it, with `n` pairs. */
function schema10Project(path: string, n: number): void {
  const db = oldSchemaProject(path, 10, 'old.tsv', n);
  const pair = db.prepare('INSERT INTO pairs (import_id, src_text, tgt_text, src_tokens, tgt_tokens) VALUES (1, ?, ?, ?, ?)');
  const blob = (...o: number[]) => Buffer.from(new Uint32Array(o).buffer);
  // "old i" / "cũ i": two tokens a side
  for (let i = 0; i < n; i++) {
    const k = String(i).length;
    pair.run(`old ${i}`, `cũ ${i}`, blob(0, 3, 4, 4 + k), blob(0, 2, 3, 3 + k));
  }
  db.exec('COMMIT');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function tsv(name: string, n: number, word: string): string {
  const file = join(dir, name);
  writeFileSync(file, Array.from({ length: n }, (_, i) => `${word} ${i} here\tcặp ${i} đây\n`).join(''));
  return file;
}

const importTsv = (store: ProjectStore, file: string) => runImport(store, { file, format: 'tsv', tokenization: 'segment' });

function pairTexts(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT src_text FROM pairs ORDER BY id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Overwrites the b-tree page headers of pages 3–12 (page size 4096). */
function breakPages(path: string): void {
  const fd = openSync(path, 'r+');
  for (let page = 2; page < 12; page++) writeSync(fd, Buffer.alloc(8, 0xa5), 0, 8, page * 4096);
  closeSync(fd);
}

test('a migration from an older schema leaves a backup that opens and holds the old rows', () => {
  const path = join(dir, 'old.mekong');
  schema10Project(path, 50);
  const store = ProjectStore.open(path);
  expect(store.info().pairs).toBe(50);
  store.close();
  const backup = `${path}.backup`;
  const db = new Database(backup, { readonly: true });
  expect(db.pragma('user_version', { simple: true })).toBe(10);
  db.close();
  expect(pairTexts(backup)).toEqual(Array.from({ length: 50 }, (_, i) => `old ${i}`));
  // Restoring is copying it over the project: it opens (and is migrated again) with every row.
  const restored = join(dir, 'restored.mekong');
  copyFileSync(backup, restored);
  const again = ProjectStore.open(restored);
  expect(again.info().pairs).toBe(50);
  expect(again.getPair(1).srcTokens.map((t) => t.text)).toEqual(['old', '0']);
  again.close();
  expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
});

test('an import of more than 10,000 pairs is backed up first; a smaller one makes no copy', async () => {
  const path = join(dir, 'imports.mekong');
  const store = ProjectStore.create(path, { name: 'imports', srcLang: 'en', tgtLang: 'vi' });
  try {
    await importTsv(store, tsv('small.tsv', 300, 'small'));
    expect(existsSync(`${path}.backup`)).toBe(false);
    expect(await importTsv(store, tsv('exactly.tsv', 10_000, 'exact'))).toBe(`imported 10000 pairs from ${join(dir, 'exactly.tsv')}`);
    expect(existsSync(`${path}.backup`)).toBe(false);

    await importTsv(store, tsv('large.tsv', 10_001, 'large'));
    expect(store.info().pairs).toBe(20_301);
    const inBackup = pairTexts(`${path}.backup`);
    expect(inBackup).toHaveLength(10_300);
    expect(inBackup.some((t) => t.startsWith('large'))).toBe(false);

    // A later small import leaves the last copy as it was.
    const before = readFileSync(`${path}.backup`);
    await importTsv(store, tsv('small2.tsv', 20, 'later'));
    expect(readFileSync(`${path}.backup`).equals(before)).toBe(true);
  } finally {
    store.close();
  }
  expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);

  // `mekong check` says where the copy is.
  expect(mekong('check', path)).toEqual({
    code: 0,
    out: `${path}: no damage found\nlast good copy (automatic backup): ${path}.backup\n`,
    err: '',
  });
});

test('the copy before a large import is made on another thread, and never of a file that replaced the project', async () => {
  const path = join(dir, 'threaded.mekong');
  schema10Project(path, 20_000);
  const store = ProjectStore.open(path);
  try {
    // The main thread keeps running while the copy is made (a copy on this thread lets no timer fire).
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    expect(await backUpInWorker(store, silentContext())).toBeNull();
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
    expect(pairTexts(`${path}.backup`)).toEqual(Array.from({ length: 20_000 }, (_, i) => `old ${i}`));

    // Moved away and replaced by another file: refused, and the last good copy stays.
    const good = readFileSync(`${path}.backup`);
    renameSync(path, join(dir, 'threaded-moved.mekong'));
    schema10Project(path, 5);
    await expect(backUpInWorker(store, silentContext())).rejects.toThrow('the project file was deleted, moved or replaced');
    expect(readFileSync(`${path}.backup`).equals(good)).toBe(true);
  } finally {
    store.close();
  }
});

test('a damaged project is named with its backup, and never replaces the backup', () => {
  const path = join(dir, 'damaged.mekong');
  schema10Project(path, 3000);
  ProjectStore.open(path).close(); // migrated, so backed up
  const backup = `${path}.backup`;
  const good = readFileSync(backup);
  breakPages(path);

  expect(() => ProjectStore.open(path)).toThrow(`restore it from ${backup}`);
  for (const args of [
    ['info', path],
    ['check', path],
  ]) {
    const r = mekong(...args);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain('the project file is damaged');
    expect(r.err).toContain(`restore it from ${backup}\n`);
  }

  // Backing up the damaged file is refused and the last good copy stays as it was.
  const db = new Database(path);
  try {
    expect(() => backUp(db, path)).toThrow(`restore it from ${backup}`);
  } finally {
    db.close();
  }
  expect(readFileSync(backup).equals(good)).toBe(true);
  expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
});

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(dir, 'probe-'));
  const ok = sh('mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe).status === 0;
  if (ok) sh('umount', probe);
  return ok;
})();

describe.skipIf(!canMount)('a disk too full for the copy', () => {
  test('the migration goes on, and one line says no backup was made', () => {
    const disk = mkdtempSync(join(dir, 'disk-'));
    expect(sh('mount', '-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', disk).status).toBe(0);
    try {
      const path = join(disk, 'full.mekong');
      schema10Project(join(dir, 'full.mekong'), 12_000);
      copyFileSync(join(dir, 'full.mekong'), path);
      const size = statSync(path).size;
      // Fill the disk so that a second copy of the project cannot fit, leaving room for what
      // the migrations from schema 10 add to the file and its WAL (about half the file's size).
      const free = Number(sh('df', '--output=avail', '-B1', disk).stdout.trim().split('\n')[1]);
      writeFileSync(join(disk, 'filler'), Buffer.alloc(Math.max(0, free - Math.floor((size * 3) / 4))));
      const r = mekong('info', path);
      expect(r.code).toBe(0);
      expect(r.err).toBe('mekong: warning: no backup of full.mekong was made: the disk is full (the last one, if any, is kept)\n');
      expect(r.out).toContain('12000 pairs');
      expect(readdirSync(disk).sort()).toEqual(['filler', 'full.mekong']);
    } finally {
      sh('umount', '-l', disk);
    }
  });
});
