// `mekong words` end to end on a real project file: a name learned at import is listed as
// learned, removing it takes it off the list (and a re-segment then cuts it as before the
// learning), a word not on the list is refused in one line with nothing removed, and words
// without --remove are refused.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { LAO_NAME, LAO_THAI_NAME_CORPUS } from '../helpers/lao-thai-names.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function firstSrcTokens(project: string): string[] {
  const store = ProjectStore.open(project);
  try {
    return store.listPairs({}, 0, 1).pairs[0].srcTokens.map((t) => t.text);
  } finally {
    store.close();
  }
}

test('mekong words lists the learned words and removes them; a re-segment then cuts the name again', () => {
  const project = join(dir, 'lo-th.mekong');
  const corpus = join(dir, 'lo-th.tsv');
  writeFileSync(corpus, LAO_THAI_NAME_CORPUS);
  expect(mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th').code).toBe(0);
  expect(mekong('import', project, corpus, '--learn-words').code).toBe(0);
  expect(firstSrcTokens(project)[0]).toBe(LAO_NAME);

  const listed = mekong('words', project, '--learned', '--lang', 'lo');
  expect(listed.code).toBe(0);
  expect(listed.out.split('\n')).toContain('lo\tເຢໂຫວາ\tlearned from the corpus');
  const json = JSON.parse(mekong('words', project, '--json').out) as { lang: string; word: string; addedBy: string }[];
  expect(json).toContainEqual({ lang: 'lo', word: LAO_NAME, addedBy: 'learned from the corpus' });

  const missing = mekong('words', project, '--remove', LAO_NAME, 'ບໍ່ມີ');
  expect(missing.code).toBe(1);
  expect(missing.err.trim().split('\n')).toHaveLength(1);
  expect(missing.err).toMatch(/not in .*lo-th\.mekong's word list: ບໍ່ມີ \(nothing removed/);
  expect(mekong('words', project, '--json').out).toContain(LAO_NAME);

  const removed = mekong('words', project, '--remove', LAO_NAME);
  expect(removed.code).toBe(0);
  expect(removed.out).toMatch(/^removed 1 word \(lo: ເຢໂຫວາ\); tokens cut with them stay as they are until `mekong resegment/);
  expect(mekong('words', project, '--json').out).not.toContain(LAO_NAME);
  expect(firstSrcTokens(project)[0]).toBe(LAO_NAME);

  expect(mekong('resegment', project).code).toBe(0);
  const after = firstSrcTokens(project);
  expect(after[0]).not.toBe(LAO_NAME);
  expect(after.join('')).toBe('ເຢໂຫວາເປັນພະເຈົ້າ');
}, 300_000);

test('mekong words refuses words without --remove, --remove with nothing named, and a language not in the project', () => {
  const project = join(dir, 'vi-en.mekong');
  expect(mekong('project', 'create', project, '--src-lang', 'vi', '--tgt-lang', 'en').code).toBe(0);
  const cases: [string[], RegExp][] = [
    [['words', project, 'sinh viên'], /words are given only with --remove/],
    [['words', project, '--remove'], /--remove takes the words to remove, or --learned/],
    [['words', project, '--lang', 'lo'], /--lang lo: the project's languages are vi and en/],
  ];
  for (const [args, message] of cases) {
    const r = mekong(...args);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message);
  }
  const removeLearned = mekong('words', project, '--remove', '--learned');
  expect(removeLearned.code).toBe(0);
  expect(removeLearned.out).toMatch(/^removed 0 words;/);
}, 300_000);
