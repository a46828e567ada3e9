// Token split and merge as logged, undoable pair edits: offsets change, links of every
// alignment are re-indexed, fixed words join the project's word list.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { createAlignment, linkInserter } from '../../../src/main/store/alignments.ts';
import { mergeTokensEdit, splitTokenEdit } from '../../../src/main/review/segmentation-fixes.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir();

test('merging ICU pieces of a Lao word and splitting it again, with links and undo', () => {
  const store = ProjectStore.create(join(dir, 't.mekong'), { name: 't', srcLang: 'lo', tgtLang: 'th' });
  const src = 'ທ່ານ ເອກອັກຄະຣາຊະທູດ ໄທ';
  const tgt = 'ท่าน เอกอัครราชทูต ไทย';
  const id = beginImport(store, 'x', 'tsv');
  const [pairId] = store.transaction(() =>
    pairInserter(store, id)([{ src, tgt, srcOffsets: segmentOffsets(src, 'lo'), tgtOffsets: segmentOffsets(tgt, 'th') }]),
  );
  finishImport(store, id, true);
  const before = store.getPair(pairId);
  const pieces = before.srcTokens.map((t) => t.text);
  expect(pieces.length).toBeGreaterThan(3);
  const model = createAlignment(store, { origin: 'model', name: 'm' });
  const last = pieces.length - 1;
  linkInserter(store, model)(pairId, [
    { s: 1, t: 1, kind: 'sure', score: 0.8 },
    { s: 2, t: 1, kind: 'possible', score: 0.4 },
    { s: last, t: 2, kind: 'sure', score: 0.9 },
  ]);

  const merged = mergeTokensEdit(store, 'anna', pairId, 'src', 1);
  expect(merged.srcTokens).toHaveLength(pieces.length - 1);
  expect(merged.srcTokens[1].text).toBe(pieces[1] + pieces[2]);
  expect(merged.alignments[0].links).toEqual([
    { s: 1, t: 1, kind: 'sure', score: 0.8 },
    { s: last - 1, t: 2, kind: 'sure', score: 0.9 },
  ]);
  expect(dbOf(store).prepare('SELECT word FROM word_list').all()).toEqual([{ word: pieces[1] + pieces[2] }]);

  const split = splitTokenEdit(store, 'anna', pairId, 'src', 1, pieces[1].length);
  expect(split.srcTokens.map((t) => t.text)).toEqual(pieces);

  expect(store.undo('anna')!.srcTokens).toHaveLength(pieces.length - 1);
  const restored = store.undo('anna')!;
  expect(restored.srcTokens).toEqual(before.srcTokens);
  expect(restored.alignments[0].links).toHaveLength(3);
  expect(() => mergeTokensEdit(store, 'anna', pairId, 'src', pieces.length - 1)).toThrow(/no src token/);
  store.close();
});
