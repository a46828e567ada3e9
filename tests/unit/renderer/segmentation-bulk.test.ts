// The editor's offer to apply a merge or split elsewhere, over its real state classes and the
// real API: a merge in the editor leaves the fix to offer; the preview lists the other
// occurrences in context; applying the kept ones fixes them; Ctrl+Z's undo reverses them all.
import { expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { fixLabel, occurrenceContext } from '../../../src/renderer/lib/editor/fix-context.ts';
import { mergeSpec, splitSpec } from '../../../src/shared/fix-spec.ts';
import { EditorState } from '../../../src/renderer/lib/state/editor.svelte.ts';
import { SegmentationBulkState } from '../../../src/renderer/lib/state/segmentation-bulk.svelte.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';

const dir = tempDir('mekong-seg-offer-');

test('fix specs and context from tokens', () => {
  const tokens = [
    { text: 'ประ', start: 0, end: 3 },
    { text: 'จำ', start: 3, end: 5 },
    { text: 'ลาว', start: 6, end: 9 },
  ];
  expect(mergeSpec(tokens, 0)).toEqual({ kind: 'merge', left: 'ประ', right: 'จำ', spaced: false });
  expect(mergeSpec(tokens, 1)).toEqual({ kind: 'merge', left: 'จำ', right: 'ลาว', spaced: true });
  expect(mergeSpec(tokens, 2)).toBeNull();
  expect(splitSpec(tokens, 0, 1)).toEqual({ kind: 'split', word: 'ประ', at: 1 });
  expect(splitSpec(tokens, 0, 3)).toBeNull();
  expect(fixLabel({ kind: 'merge', left: 'sinh', right: 'viên', spaced: true })).toBe('sinh + viên → sinh viên');
  expect(fixLabel({ kind: 'split', word: 'ประจำ', at: 3 })).toBe('ประจำ → ประ | จำ');
  const words = 'a b c d e f g h i j'.split(' ').map((text, i) => ({ text, start: 2 * i, end: 2 * i + 1 }));
  const fix = { kind: 'merge', left: 'f', right: 'g', spaced: true } as const;
  expect(occurrenceContext({ pairId: 1, side: 'src', index: 5, tokens: words }, fix, 2)).toEqual({
    before: '… d e',
    match: 'f g',
    after: 'h i …',
  });
  expect(occurrenceContext({ pairId: 1, side: 'src', index: 0, tokens: words }, fix, 2)).toEqual({
    before: '',
    match: 'a b',
    after: 'c d …',
  });
});

test('merge in the editor, offer, keep two of three, apply, one undo', async () => {
  const { store, ids } = project(dir, [
    ['sinh viên học', 'a b c'],
    ['Hôm nay sinh viên', 'x y z w'],
    ['sinh viên', 'k'],
    ['các sinh viên', 'k'],
  ]);
  const ctx = { ...createContext('browser', 'lin', dir), store };
  const api = dispatchApi(ctx);
  let edited = 0;
  const ed = new EditorState(api, () => edited++);
  await ed.open(ids[0]);
  await ed.merge('src', 0);
  expect(ed.pair!.srcTokens.map((t) => t.text)).toEqual(['sinh viên', 'học']);
  expect(ed.lastFix).toEqual({ side: 'src', fix: { kind: 'merge', left: 'sinh', right: 'viên', spaced: true } });

  const offer = new SegmentationBulkState(api, ed.lastFix!.side, ed.lastFix!.fix);
  await offer.preview();
  expect(offer.error).toBeNull();
  expect(offer.occurrences.map((o) => o.pairId)).toEqual([ids[1], ids[2], ids[3]]);
  expect(offer.kept.size).toBe(3);
  offer.toggle(`${ids[2]}:0`);
  expect(await offer.apply()).toBe(2);
  const texts = (id: number) => store.getPair(id).srcTokens.map((t) => t.text);
  expect([texts(ids[1]), texts(ids[2]), texts(ids[3])]).toEqual([
    ['Hôm', 'nay', 'sinh viên'],
    ['sinh', 'viên'],
    ['các', 'sinh viên'],
  ]);
  await ed.reload();
  expect(edited).toBeGreaterThan(0);

  await ed.undo();
  expect([texts(ids[1]), texts(ids[3])]).toEqual([
    ['Hôm', 'nay', 'sinh', 'viên'],
    ['các', 'sinh', 'viên'],
  ]);
  expect(texts(ids[0])).toEqual(['sinh viên', 'học']);
  offer.keepAll(false);
  expect(await offer.apply()).toBeNull();
  store.close();
});
