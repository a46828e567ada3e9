// The `mekong` command end to end: project create, import (its pairs and their word index),
// info, export, and one-line errors with exit code 1 on bad input.
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { wordCandidates, wordIndexBehind } from '../../../src/main/store/word-index.ts';
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
  // the concordance's word index is built by the import: the app has nothing left to index
  expect(imported.out).toMatch(/^word index: up to date$/m);
  const store = ProjectStore.open(project);
  try {
    expect(wordIndexBehind(store)).toBe(false);
    // the last pair's first words find it through the index alone (no pair above indexed_to)
    const last = store.getPair(265);
    const [s, t] = [last.srcTokens[0].text.toLowerCase(), last.tgtTokens[0].text.toLowerCase()];
    expect(wordCandidates(store, s, t)).toMatchObject({ hits: expect.arrayContaining([265]), indexedTo: 265 });
  } finally {
    store.close();
  }
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

test('odd paths and arguments: one line each, never a stack trace', () => {
  const project = join(dir, 'paths.mekong');
  mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th');
  const notDb = join(dir, 'not-a-db.mekong');
  writeFileSync(notDb, 'hello, not SQLite at all');
  const loopA = join(dir, 'loop-a');
  symlinkSync(join(dir, 'loop-b'), loopA);
  symlinkSync(loopA, join(dir, 'loop-b'));
  const cases: [string[], RegExp][] = [
    [['info', notDb], /not-a-db\.mekong: not a Mekong project \(not an SQLite database\)$/],
    [['info', dir], /: is a folder, not a project file$/],
    [['import', project, join(dir, 'missing.csv'), '--format', 'csv'], /missing\.csv: no such file or folder$/],
    [['import', project, loopA, '--format', 'tsv'], /loop-a: too many symbolic links \(a link loop\?\)$/],
    [['serve', '--port', 'abc'], /expected a port number from 0 to 65535, got "abc"$/],
    [
      ['project', 'create', join(dir, 'xx.mekong'), '--src-lang', 'xx', '--tgt-lang', 'th'],
      /--src-lang: 'xx' is not a language code \(e\.g\. lo, th, zh\)$/,
    ],
    [['export', project, project, '--format', 'tsv'], /paths\.mekong is the project itself; choose another file to export to$/],
  ];
  for (const [args, message] of cases) {
    const r = mekong(...args);
    expect(r.code, args.join(' ')).toBe(1);
    const lines = r.err.trim().split('\n');
    expect(lines, args.join(' ')).toHaveLength(1);
    expect(lines[0], args.join(' ')).toMatch(message);
  }
  expect(JSON.parse(mekong('info', project, '--json').out)).toMatchObject({ pairs: 0 });
});
