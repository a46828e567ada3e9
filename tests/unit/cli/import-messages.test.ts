// `mekong import` and `mekong project create` on input a linguist gets wrong: an empty file
// and a bad language code are refused with one line in plain words (exit 1), a header row
// nobody declared is skipped and the summary says so, `--no-header` keeps it as a pair.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const pairs = (project: string) => JSON.parse(mekong('info', project, '--json').out).pairs as number;

test('an empty file: one line naming it, nothing imported', () => {
  const project = join(dir, 'empty.mekong');
  expect(mekong('project', 'create', project, '--src-lang', 'vi', '--tgt-lang', 'en').code).toBe(0);
  const file = join(dir, 'empty.csv');
  writeFileSync(file, '');
  const r = mekong('import', project, file);
  expect(r.code).toBe(1);
  expect(r.err.trim()).toBe(`mekong: ${file}: the file is empty: there is nothing to import`);
  expect(pairs(project)).toBe(0);
}, 180_000);

test('a "vi,en" header row: skipped and said so; --no-header imports it as a pair', () => {
  const project = join(dir, 'header.mekong');
  mekong('project', 'create', project, '--src-lang', 'vi', '--tgt-lang', 'en');
  const file = join(dir, 'tatoeba.csv');
  writeFileSync(file, 'vi,en\nTôi ăn cơm,I eat rice\nXin chào,Hello\n');
  const r = mekong('import', project, file);
  expect(r.code).toBe(0);
  expect(r.out.trim()).toBe(
    `imported 2 pairs from ${file}; line 1 ("vi", "en") looked like a header and was skipped; import with --no-header to keep it as a pair\nword index: up to date`,
  );
  expect(pairs(project)).toBe(2);
  const asPair = mekong('import', project, file, '--no-header', '--any-script');
  expect(asPair.out.trim()).toBe(`imported 3 pairs from ${file}\nword index: up to date`);
  expect(pairs(project)).toBe(5);
}, 180_000);

test('a bad language code in the words of the field', () => {
  const r = mekong('project', 'create', join(dir, 'xx.mekong'), '--src-lang', 'xx', '--tgt-lang', 'th');
  expect(r.code).toBe(1);
  expect(r.err.trim()).toBe("mekong: --src-lang: 'xx' is not a language code (e.g. lo, th, zh)");
});
