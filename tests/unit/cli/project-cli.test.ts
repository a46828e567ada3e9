// The `mekong` command end to end: project create, import, info, export, and one-line
// errors with exit code 1 on bad input.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
const sample = join('resources', 'sample', 'vientiane-thaiembassy-sent.csv');

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('create, import the sample, info, export JSONL', () => {
  const project = join(dir, 'lt.mekong');
  expect(mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th').code).toBe(0);
  const imported = mekong('import', project, sample, '--header', '--src-column', 'lao_sent', '--tgt-column', 'thai_sent');
  expect(imported.err).toBe('');
  expect(imported.out).toMatch(/imported 265 pairs/);
  const info = JSON.parse(mekong('info', project, '--json').out);
  expect(info).toMatchObject({ srcLang: 'lo', tgtLang: 'th', pairs: 265 });
  const out = join(dir, 'lt.jsonl');
  expect(mekong('export', project, out, '--format', 'jsonl').code).toBe(0);
  expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(265);
});

test('bad input: exit 1 and one line naming file, line and reason; the project is unchanged', () => {
  const project = join(dir, 'bad.mekong');
  mekong('project', 'create', project, '--src-lang', 'en', '--tgt-lang', 'vi');
  const src = join(dir, 'a.en');
  const tgt = join(dir, 'a.vi');
  writeFileSync(src, 'one\ntwo\nthree\n');
  writeFileSync(tgt, 'một\nhai\n');
  const r = mekong('import', project, src, '--tgt-file', tgt);
  expect(r.code).toBe(1);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/a\.vi:2: line counts differ/);
  expect(JSON.parse(mekong('info', project, '--json').out).pairs).toBe(0);
  const missing = mekong('info', join(dir, 'nope.mekong'));
  expect(missing.code).toBe(1);
  expect(missing.err).toMatch(/no such project file/);
  expect(mekong('export', project, join(dir, 'x'), '--format', 'docx').code).toBe(1);
});
