// `mekong import --word-list` end to end: the words join the project's word list for the
// side they are for, and the import segments with them (Vietnamese syllables merged into
// words); bad word list lines and ambiguous sides are one-line errors.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir();

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function tokensOf(project: string): { src: string[][]; tgt: string[][]; words: { lang: string; word: string }[] } {
  const store = ProjectStore.open(project);
  try {
    const pairs = store.listPairs({}, 0, 100).pairs;
    return {
      src: pairs.map((p) => p.srcTokens.map((t) => t.text)),
      tgt: pairs.map((p) => p.tgtTokens.map((t) => t.text)),
      words: dbOf(store).prepare('SELECT lang, word FROM word_list ORDER BY lang, word').all() as { lang: string; word: string }[],
    };
  } finally {
    store.close();
  }
}

test('Vietnamese import with --word-list: "sinh viên" and "Hôm nay" are single tokens, the words join the vi list', () => {
  const project = join(dir, 'vi-lo.mekong');
  expect(mekong('project', 'create', project, '--src-lang', 'vi', '--tgt-lang', 'lo').code).toBe(0);
  const corpus = write('vi-lo.tsv', 'Hôm nay sinh viên đi học.\tມື້ນີ້ ນັກສຶກສາ ໄປ ໂຮງຮຽນ.\nTôi là sinh viên.\tຂ້ອຍ ເປັນ ນັກສຶກສາ.\n');
  const list = write('vi-words.txt', '# Vietnamese words of two syllables\nsinh viên\nHôm nay\n');
  const r = mekong('import', project, corpus, '--word-list', list);
  expect(r.err).toBe('');
  expect(r.out).toMatch(/imported 2 pairs .*; 2 new words in the project's word lists/);
  const got = tokensOf(project);
  expect(got.src).toEqual([
    ['Hôm nay', 'sinh viên', 'đi', 'học', '.'],
    ['Tôi', 'là', 'sinh viên', '.'],
  ]);
  expect(got.words).toEqual([
    { lang: 'vi', word: 'Hôm nay' },
    { lang: 'vi', word: 'sinh viên' },
  ]);
});

test('--tgt-word-list and --word-list-side put a list on the side said; an en–vi list needs the side', () => {
  const project = join(dir, 'en-vi.mekong');
  mekong('project', 'create', project, '--src-lang', 'en', '--tgt-lang', 'vi');
  const corpus = write('en-vi.tsv', 'The students study.\tCác sinh viên học.\n');
  const list = write('vi2.txt', 'sinh viên\n');
  const ambiguous = mekong('import', project, corpus, '--word-list', list);
  expect(ambiguous.code).toBe(1);
  expect(ambiguous.err.trim().split('\n')).toHaveLength(1);
  expect(ambiguous.err).toMatch(/--word-list .*vi2\.txt: its words could be en or vi; give --src-word-list or --tgt-word-list instead/);
  expect(tokensOf(project).src).toEqual([]);
  expect(mekong('import', project, corpus, '--word-list', list, '--word-list-side', 'tgt').code).toBe(0);
  expect(mekong('import', project, corpus, '--tgt-word-list', list).code).toBe(0);
  const got = tokensOf(project);
  expect(got.tgt).toEqual([
    ['Các', 'sinh viên', 'học', '.'],
    ['Các', 'sinh viên', 'học', '.'],
  ]);
  expect(got.words).toEqual([{ lang: 'vi', word: 'sinh viên' }]);
});

test('a bad word list line: exit 1, one line with file:line, nothing imported', () => {
  const project = join(dir, 'lo-th.mekong');
  mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th');
  const corpus = write('lo-th.tsv', 'ປະຈຳ ລາວ\tประจำ ลาว\n');
  const list = write('bad.txt', 'ປະຈຳ\nประจำ\t3\n');
  const r = mekong('import', project, corpus, '--word-list', list);
  expect(r.code).toBe(1);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/bad\.txt:2: a tab: one word a line/);
  expect(tokensOf(project)).toEqual({ src: [], tgt: [], words: [] });
});

test('Thai words go to the th side of a lo–th project by their script', () => {
  const project = join(dir, 'lo-th2.mekong');
  mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th');
  const corpus = write('lo-th2.tsv', 'ປະຈຳ ສປປ ລາວ\tประจำสปป. ลาว\n');
  const r = mekong('import', project, corpus, '--word-list', write('th.txt', 'ประจำ\n'));
  expect(r.err).toBe('');
  const got = tokensOf(project);
  expect(got.tgt).toEqual([['ประจำ', 'สปป.', 'ลาว']]); // the abbreviation keeps its stop
  expect(got.words).toEqual([{ lang: 'th', word: 'ประจำ' }]);
});
