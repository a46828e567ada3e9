// A merge or split made in the editor, applied to its other occurrences in the corpus:
// preview with context, apply the kept ones as one edit group (one undo), links, marks and
// rejected links following their tokens, through the real API dispatch.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { EditorResults } from '../../../src/shared/editor-api.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { editorPair, setGold, setRejected } from '../../../src/main/review/editor.ts';
import { bulkTokenFix, fixOccurrences } from '../../../src/main/review/segmentation-bulk.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { possible, project, sure } from './fixture.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-seg-bulk-');
const texts = (store: ProjectStore, id: number) => store.getPair(id).srcTokens.map((t) => t.text);

test('merge "sinh viên" in one pair, preview the others, apply the kept ones, one undo', async () => {
  const { store, ids } = project(dir, [
    ['sinh viên học', 'a b c'],
    ['Hôm nay sinh viên', 'x y z w'],
    ['Sinh viên sinh viên', 'p q'],
    ['sinh viên', 'k'],
    ['sinh, viên', 'k'],
  ]);
  const ctx = { ...createContext('browser', 'lin', dir), store };
  setGold(store, 'lin', ids[1], [sure(2, 2), possible(3, 3)], [{ side: 'src', index: 0 }]);
  setGold(store, 'lin', ids[2], [sure(0, 0), sure(3, 1)], []);
  setRejected(store, 'lin', ids[2], [{ s: 2, t: 1 }]);
  expect(await dispatch(ctx, 'tokens.merge', { pairId: ids[0], side: 'src', index: 0 })).toMatchObject({ ok: true });
  const before = ids.map((id) => editorPair(store, 'lin', id));

  const fix = { kind: 'merge', left: 'sinh', right: 'viên', spaced: true } as const;
  const answer = await dispatch(ctx, 'tokens.bulkFix', { side: 'src', fix, apply: false });
  if (!answer.ok) throw new Error(answer.error.error);
  const preview = answer as { value: EditorResults['tokens.bulkFix'] };
  expect(preview.value.applied).toBe(false);
  expect(preview.value.occurrences.map((o) => [o.pairId, o.index])).toEqual([
    [ids[1], 2],
    [ids[2], 0],
    [ids[2], 2],
    [ids[3], 0],
  ]);
  expect(preview.value.occurrences[0].tokens.map((t) => t.text)).toEqual(['Hôm', 'nay', 'sinh', 'viên']);
  expect(ids.map((id) => editorPair(store, 'lin', id))).toEqual(before);

  const keep = preview.value.occurrences.filter((o) => o.pairId !== ids[3]).map(({ pairId, index }) => ({ pairId, index }));
  const applied = await dispatch(ctx, 'tokens.bulkFix', { side: 'src', fix, apply: true, occurrences: keep });
  expect(applied).toMatchObject({ ok: true, value: { applied: true } });
  expect(texts(store, ids[1])).toEqual(['Hôm', 'nay', 'sinh viên']);
  expect(texts(store, ids[2])).toEqual(['Sinh viên', 'sinh viên']);
  expect(texts(store, ids[3])).toEqual(['sinh', 'viên']);
  const p1 = editorPair(store, 'lin', ids[1]);
  expect(p1.gold).toEqual([sure(2, 2), possible(2, 3)]);
  expect(p1.untranslated).toEqual([{ side: 'src', index: 0 }]);
  const p2 = editorPair(store, 'lin', ids[2]);
  expect(p2.gold).toEqual([sure(0, 0), sure(1, 1)]);
  expect(p2.rejected).toEqual([{ s: 1, t: 1 }]);
  // The words as written join the list (it is case-sensitive, so "Sinh viên" merges capitalised occurrences).
  expect(dbOf(store).prepare('SELECT lang, word FROM word_list ORDER BY word').all()).toEqual([
    { lang: 'lo', word: 'Sinh viên' },
    { lang: 'lo', word: 'sinh viên' },
  ]);

  // One undo reverses the whole group, and only it (the first pair's own merge stays).
  expect(await dispatch(ctx, 'edits.undo', {})).toMatchObject({ ok: true });
  expect(ids.map((id) => editorPair(store, 'lin', id))).toEqual(before);
  expect(texts(store, ids[0])).toEqual(['sinh viên', 'học']);

  const stray = await dispatch(ctx, 'tokens.bulkFix', { side: 'src', fix, apply: true, occurrences: [{ pairId: ids[4], index: 0 }] });
  expect(stray).toMatchObject({
    ok: false,
    error: { kind: 'input', error: expect.stringMatching(/not an occurrence the preview listed/) },
  });
  const badSplit = await dispatch(ctx, 'tokens.bulkFix', { side: 'src', fix: { kind: 'split', word: 'ab', at: 2 }, apply: false });
  expect(badSplit).toMatchObject({ ok: false, error: { kind: 'input', error: expect.stringMatching(/not inside "ab"/) } });
  store.close();
});

test('overlapping merge matches take the leftmost first; a split matches whole tokens only', () => {
  const { store } = project(dir, [
    ['a a a b', 'x'],
    ['ab abc', 'x'],
  ]);
  expect(fixOccurrences(store, 'src', { kind: 'merge', left: 'a', right: 'a', spaced: true }).map((o) => o.index)).toEqual([0]);
  expect(fixOccurrences(store, 'src', { kind: 'split', word: 'AB', at: 1 }).map((o) => [o.pairId, o.index])).toEqual([
    [store.listPairs({}, 0, 9).pairs[1].id, 0],
  ]);
  store.close();
});

test('Thai: a merge of pieces written together never applies across a space; a split undoes it corpus-wide', async () => {
  const store = ProjectStore.create(join(dir, 'th.mekong'), { name: 'th', srcLang: 'lo', tgtLang: 'th' });
  const importId = beginImport(store, 't', 'tsv');
  const ids = store.transaction(() =>
    pairInserter(
      store,
      importId,
    )(
      ['ประจำสปป ลาว', 'ลาว ประจำสปป', 'ประ จำ'].map((tgt) => ({
        src: 'ລາວ',
        tgt,
        srcOffsets: segmentOffsets('ລາວ', 'lo'),
        tgtOffsets: segmentOffsets(tgt, 'th'),
      })),
    ),
  );
  finishImport(store, importId, true);
  const tgt = (id: number) => store.getPair(id).tgtTokens.map((t) => t.text);
  expect(ids.map(tgt)).toEqual([
    ['ประ', 'จำ', 'สปป', 'ลาว'],
    ['ลาว', 'ประ', 'จำ', 'สปป'],
    ['ประ', 'จำ'],
  ]);
  setGold(store, 'lin', ids[1], [sure(0, 2)], []);

  const merged = await bulkTokenFix(store, 'lin', 'tgt', { kind: 'merge', left: 'ประ', right: 'จำ', spaced: false }, true);
  expect(merged.map((o) => [o.pairId, o.index])).toEqual([
    [ids[0], 0],
    [ids[1], 1],
  ]);
  expect(ids.map(tgt)).toEqual([
    ['ประจำ', 'สปป', 'ลาว'],
    ['ลาว', 'ประจำ', 'สปป'],
    ['ประ', 'จำ'],
  ]);
  expect(editorPair(store, 'lin', ids[1]).gold).toEqual([sure(0, 1)]);

  expect(fixOccurrences(store, 'tgt', { kind: 'split', word: 'ประจำ', at: 3 }).map((o) => o.pairId)).toEqual([ids[0], ids[1]]);
  await bulkTokenFix(store, 'lin', 'tgt', { kind: 'split', word: 'ประจำ', at: 3 }, true);
  expect(ids.map(tgt)).toEqual([
    ['ประ', 'จำ', 'สปป', 'ลาว'],
    ['ลาว', 'ประ', 'จำ', 'สปป'],
    ['ประ', 'จำ'],
  ]);
  expect(editorPair(store, 'lin', ids[1]).gold).toEqual([sure(0, 1), sure(0, 2)]);
  store.undo('lin');
  store.undo('lin');
  expect(editorPair(store, 'lin', ids[1]).gold).toEqual([sure(0, 2)]);
  expect(ids.map(tgt)).toEqual([
    ['ประ', 'จำ', 'สปป', 'ลาว'],
    ['ลาว', 'ประ', 'จำ', 'สปป'],
    ['ประ', 'จำ'],
  ]);
  store.close();
});
