// `mekong resegment` end to end: a lo–th project imported without a word list, a linguist's
// merge that the new list cuts across (that pair is kept and listed), a dry run that changes
// nothing, then the run that re-segments the rest with the list and keeps every gold link.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { mergeTokensEdit } from '../../../src/main/review/segmentation-fixes.ts';
import { editorPair, setGold } from '../../../src/main/review/editor.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function pairs(project: string) {
  const store = ProjectStore.open(project);
  try {
    return store.listPairs({}, 0, 100).pairs.map((p) => ({ ...editorPair(store, 'anna', p.id), tgtWords: p.tgtTokens.map((t) => t.text) }));
  } finally {
    store.close();
  }
}

test('resegment: dry run, kept pair listed with its reason, gold follows the merged tokens', () => {
  const project = join(dir, 'lo-th.mekong');
  expect(mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th').code).toBe(0);
  const corpus = join(dir, 'c.tsv');
  writeFileSync(corpus, 'ລາວ ປະຈຳ\tประจำสปป ลาว\nລາວ ປະຈຳ\tประจำสปป ลาว\nລາວ\tลาว\n');
  expect(mekong('import', project, corpus).code).toBe(0);
  const store = ProjectStore.open(project);
  const [a, b] = store.listPairs({}, 0, 10).pairs;
  expect(a.tgtTokens.map((t) => t.text)).toEqual(['ประ', 'จำ', 'สปป', 'ลาว']);
  setGold(
    store,
    'anna',
    a.id,
    [
      { s: 1, t: 0, kind: 'sure', score: null },
      { s: 1, t: 1, kind: 'sure', score: null },
    ],
    [],
  );
  mergeTokensEdit(store, 'anna', b.id, 'tgt', 1); // จำ + สปป: a word the new list cuts across
  setGold(store, 'anna', b.id, [{ s: 1, t: 1, kind: 'sure', score: null }], []);
  store.close();
  const before = pairs(project);
  const list = join(dir, 'th.txt');
  writeFileSync(list, 'ประจำ\n');

  const dry = mekong('resegment', project, '--word-list', list, '--dry-run');
  expect(dry.err).toBe('');
  expect(dry.out).toMatch(/^would re-segment 3 pairs: 1 changed, 1 unchanged, 1 kept their old tokens\n/);
  expect(pairs(project)).toEqual(before);

  const r = mekong('resegment', project, '--word-list', list, '--annotator', 'anna');
  expect(r.code).toBe(0);
  expect(r.out.trim().split('\n')).toEqual([
    "re-segmented 3 pairs: 1 changed, 1 unchanged, 1 kept their old tokens; 1 new words in the project's word lists",
    `  kept pair ${b.id}: tgt token 1 "จำสปป" holds links or marks and would be cut across by the new tokens "ประจำ | สปป"`,
  ]);
  const after = pairs(project);
  expect(after[0].tgtWords).toEqual(['ประจำ', 'สปป', 'ลาว']);
  expect(after[0].gold).toEqual([{ s: 1, t: 0, kind: 'sure', score: null }]);
  expect(after[1]).toEqual(before[1]);
  expect(after[2]).toEqual(before[2]);
});

test('resegment: bad arguments are one line', () => {
  const project = join(dir, 'x.mekong');
  mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th');
  const r = mekong('resegment', project, '--side', 'left');
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/--side <side>' argument 'left' is invalid/);
  const missing = mekong('resegment', project, '--word-list', join(dir, 'none.txt'));
  expect(missing.code).toBe(1);
  expect(missing.err.trim().split('\n')).toHaveLength(1);
  expect(missing.err).toMatch(/none\.txt: no such file or folder/);
});
