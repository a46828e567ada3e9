// Pending segmentation fixes: a merge or split made in the editor stays offered for its other
// occurrences after the pair is left and the project reopened, until applied or dismissed;
// fixes that occur nowhere else are not listed. Through the real API dispatch and SQLite file.
import { expect, test } from 'vitest';
import type { EditorResults } from '../../../src/shared/editor-api.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { project } from './fixture.ts';

const dir = tempDir('mekong-pending-fixes-');

async function call<C extends 'segmentation.pending' | 'segmentation.dismiss' | 'tokens.merge' | 'tokens.split' | 'tokens.bulkFix'>(
  ctx: ReturnType<typeof createContext>,
  channel: C,
  input: unknown,
): Promise<unknown> {
  const answer = await dispatch(ctx, channel, input);
  if (!answer.ok) throw new Error(answer.error.error);
  return answer.value;
}

test('a merge and a split stay pending across a reopen, until applied or dismissed', async () => {
  const { store, ids } = project(dir, [
    ['sinh viên học', 'a b c'],
    ['Hôm nay sinh viên', 'ประจำ ปี'],
    ['sinh viên', 'ประจำ'],
    ['học sinh', 'k'],
  ]);
  const path = store.path;
  let ctx = { ...createContext('browser', 'lin', dir), store };
  await call(ctx, 'tokens.merge', { pairId: ids[0], side: 'src', index: 0 });
  await call(ctx, 'tokens.split', { pairId: ids[1], side: 'tgt', index: 0, at: 3 });
  // a merge that occurs nowhere else is kept but not listed
  await call(ctx, 'tokens.merge', { pairId: ids[3], side: 'src', index: 0 });
  store.close();

  const again = ProjectStore.open(path);
  ctx = { ...createContext('browser', 'noy', dir), store: again };
  const { fixes } = (await call(ctx, 'segmentation.pending', {})) as EditorResults['segmentation.pending'];
  expect(fixes.map((f) => [f.side, f.fix, f.pairId, f.annotator, f.occurrences])).toEqual([
    ['tgt', { kind: 'split', word: 'ประจำ', at: 3 }, ids[1], 'lin', 1],
    ['src', { kind: 'merge', left: 'sinh', right: 'viên', spaced: true }, ids[0], 'lin', 2],
  ]);

  // applying the merge corpus-wide settles its offer; dismissing the split removes it
  await call(ctx, 'tokens.bulkFix', { side: 'src', fix: fixes[1].fix, apply: true });
  expect(again.getPair(ids[2]).srcTokens.map((t) => t.text)).toEqual(['sinh viên']);
  await call(ctx, 'segmentation.dismiss', { id: fixes[0].id });
  expect(((await call(ctx, 'segmentation.pending', {})) as EditorResults['segmentation.pending']).fixes).toEqual([]);
  await expect(call(ctx, 'segmentation.dismiss', { id: fixes[0].id })).rejects.toThrow(/no pending segmentation fix/);
  again.close();
});
