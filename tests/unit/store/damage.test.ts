// Damaged project files are found and named: opening runs a quick check, so a file with
// broken pages is refused in one line (no stack trace); token offsets that do not fit their
// text are refused with the pair's id; `mekong check` lists every problem, or says none.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { copyFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-damage-');
const mekong = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

function sound(name: string): string {
  const path = join(dir, name);
  expect(mekong('project', 'create', path, '--src-lang', 'en', '--tgt-lang', 'vi').code).toBe(0);
  const tsv = join(dir, `${name}.tsv`);
  spawnSync(process.execPath, [
    '-e',
    `require('fs').writeFileSync(${JSON.stringify(tsv)}, Array.from({ length: 3000 }, (_, i) => 'pair ' + i + ' here\\tcặp ' + i + ' đây\\n').join(''))`,
  ]);
  expect(mekong('import', path, tsv).code).toBe(0);
  return path;
}

test('a sound project: `mekong check` finds no damage', () => {
  const path = sound('ok.mekong');
  expect(mekong('check', path)).toEqual({ code: 0, out: `${path}: no damage found\n`, err: '' });
});

test('broken pages: info, export and check refuse the file in one line that says it is damaged', () => {
  const path = join(dir, 'broken.mekong');
  copyFileSync(sound('src.mekong'), path);
  // Overwrite the b-tree page headers of pages 3–12 (page size 4096).
  const fd = openSync(path, 'r+');
  for (let page = 2; page < 12; page++) writeSync(fd, Buffer.alloc(8, 0xa5), 0, 8, page * 4096);
  closeSync(fd);
  for (const args of [
    ['info', path],
    ['export', path, join(dir, 'out.jsonl'), '--format', 'jsonl'],
    ['check', path],
  ]) {
    const r = mekong(...args);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/the project file is damaged; run `mekong check` on it, and restore it from a backup copy/);
    expect(r.err).not.toMatch(/    at /);
  }
});

test("token offsets that do not fit their pair's text: export names the pair; check lists it", () => {
  const path = sound('spans.mekong');
  const db = new Database(path);
  const id = db.prepare('SELECT min(id) FROM pairs').pluck().get() as number;
  db.prepare('UPDATE pairs SET src_tokens = ? WHERE id = ?').run(Buffer.from(new Uint32Array([0, 4, 5, 999]).buffer), id);
  db.close();
  const r = mekong('export', path, join(dir, 'spans.jsonl'), '--format', 'jsonl');
  expect(r.code).toBe(1);
  expect(r.err).toBe(
    `mekong: pair ${id}, source side: token offsets: bad span 5..999 for text of 11: the project file is damaged; run \`mekong check\` on it, and restore it from a backup copy\n`,
  );
  const check = mekong('check', path);
  expect(check.code).toBe(1);
  expect(check.out).toBe(`pair ${id}, source side: token offsets: bad span 5..999 for text of 11\n`);
  expect(check.err).toBe(`mekong: ${path}: 1 problem found (listed above); restore the project from a backup copy\n`);
});
