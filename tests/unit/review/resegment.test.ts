// Re-segmenting a project with grown word lists: links of every alignment, "not translated"
// marks and rejected links follow merged and split tokens; a pair whose held token would be
// cut across keeps its tokens and is reported; gold is never lost; a dry run changes
// nothing; the whole change is one undo.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Link } from '../../../src/shared/domain.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import {
  createAlignment,
  goldAlignmentOf,
  linkInserter,
  rejectedInserter,
  rejectedWithAnnotator,
  untranslatedInserter,
} from '../../../src/main/store/alignments.ts';
import { editorPair, setGold } from '../../../src/main/review/editor.ts';
import { formatResegmentReport, resegmentProject } from '../../../src/main/review/resegment-project.ts';
import { mergeTokensEdit } from '../../../src/main/review/segmentation-fixes.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import { addSideWords } from '../../../src/main/store/word-lists.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import type { JobEvent } from '../../../src/shared/api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir();
const sure = (s: number, t: number, score: number | null = null): Link => ({ s, t, kind: 'sure', score });
const possible = (s: number, t: number): Link => ({ s, t, kind: 'possible', score: null });

function fixture() {
  const store = ProjectStore.create(join(dir, `r${Math.random().toString(36).slice(2)}.mekong`), {
    name: 'r',
    srcLang: 'lo',
    tgtLang: 'th',
  });
  const icu = (src: string, tgt: string) => ({ src, tgt, srcOffsets: segmentOffsets(src, 'lo'), tgtOffsets: segmentOffsets(tgt, 'th') });
  const given = (src: string, tgt: string, tgtOffsets: number[]) => ({
    src,
    tgt,
    srcOffsets: segmentOffsets(src, 'lo'),
    tgtOffsets: Uint32Array.from(tgtOffsets),
  });
  const importId = beginImport(store, 'test', 'tsv');
  const ids = store.transaction(() =>
    pairInserter(
      store,
      importId,
    )([
      icu('ທ່ານ ເອກອັກຄະຣາຊະທູດ ໄທ', 'ประจำสปป, ลาว'), // merges on both sides
      given('ລາວ', 'ประจำสปป', [0, 4, 4, 8]), // ประจ|ำสปป: "ำสปป" would be cut across, and it holds a gold link
      given('ລາວ', 'ประจำสปป', [0, 4, 4, 8]), // the same, but only "ประจ" is linked: the pair changes
      given('ລາວ', 'ประจำสปป', [0, 8]), // one token split into ประจำ|สปป
      icu('ລາວ', 'ลาว'), // unchanged
    ]),
  );
  finishImport(store, importId, true);
  const gold = goldAlignmentOf(store, 'anna');
  const model = createAlignment(store, { origin: 'model', name: 'm' });
  store.transaction(() => {
    const g = linkInserter(store, gold);
    g(ids[0], [sure(1, 0), possible(2, 1), sure(6, 1), sure(7, 4), possible(0, 2)]);
    g(ids[1], [sure(0, 1)]);
    g(ids[2], [sure(0, 0)]);
    g(ids[3], [sure(0, 0)]);
    g(ids[4], [sure(0, 0)]);
    linkInserter(store, model)(ids[0], [sure(3, 3, 0.7)]);
    untranslatedInserter(store, gold)(ids[0], { src: [], tgt: [3] });
    rejectedInserter(store)(ids[0], [
      { s: 4, t: 4, annotator: 'anna' },
      { s: 2, t: 1, annotator: 'bo' },
    ]);
  });
  return { store, ids, gold, model };
}

const words = { side: { src: ['ເອກອັກຄະຣາຊະທູດ'], tgt: ['ประจำ'] }, from: 'word list test.txt' };
const snapshot = (store: ProjectStore, ids: number[]) => ids.map((id) => editorPair(store, 'anna', id));

test('links, marks and rejected links follow; a pair that cannot follow is kept; undo restores all', async () => {
  const { store, ids, gold, model } = fixture();
  const before = snapshot(store, ids);

  const dry = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', words, dryRun: true });
  expect(dry).toMatchObject({ pairs: 5, changed: 3, unchanged: 1, newWords: 0, dryRun: true });
  expect(snapshot(store, ids)).toEqual(before);
  expect(dbOf(store).prepare('SELECT count(*) AS n FROM word_list').get()).toEqual({ n: 0 });

  const progress: { done: number; total: number; message?: string }[] = [];
  const report = await resegmentProject(store, {
    sides: ['src', 'tgt'],
    annotator: 'anna',
    words,
    progress: ({ done, total, message }) => progress.push({ done, total, message }),
  });
  expect(report).toMatchObject({ pairs: 5, changed: 3, unchanged: 1, newWords: 2 });
  expect(progress.find((p) => p.message === 'resegmenting' && p.done === 5)).toBeDefined();
  expect(progress.at(-1)).toEqual({ done: 4, total: 4, message: 'saving 4 changed pairs' });
  expect(report.kept).toEqual([
    { pairId: ids[1], reason: 'tgt token 1 "ำสปป" holds links or marks and would be cut across by the new tokens "ประจำ | สปป"' },
  ]);
  expect(formatResegmentReport(report)).toBe(
    "re-segmented 5 pairs: 3 changed, 1 unchanged, 1 kept their old tokens; 2 new words in the project's word lists\n" +
      `  kept pair ${ids[1]}: ${report.kept[0].reason}`,
  );

  const [p1, p2, p3, p4, p5] = snapshot(store, ids);
  expect(p1.srcTokens.map((t) => t.text)).toEqual(['ທ່ານ', 'ເອກອັກຄະຣາຊະທູດ', 'ໄທ']);
  expect(p1.tgtTokens.map((t) => t.text)).toEqual(['ประจำ', 'สปป', ',', 'ลาว']);
  expect(p1.gold).toEqual([possible(0, 1), sure(1, 0), sure(2, 3)]);
  expect(p1.alignments.find((a) => a.alignmentId === model)!.links).toEqual([sure(1, 2, 0.7)]);
  expect(p1.untranslated).toEqual([{ side: 'tgt', index: 2 }]);
  expect(p1.rejected).toEqual([{ s: 1, t: 3 }]);
  // Every annotator's rejections move with the tokens and stay theirs.
  expect(rejectedWithAnnotator(store, ids[0])).toEqual([
    { s: 1, t: 0, annotator: 'bo' },
    { s: 1, t: 3, annotator: 'anna' },
  ]);
  expect(p2).toEqual(before[1]); // kept whole: tokens and gold
  expect(p3.tgtTokens.map((t) => t.text)).toEqual(['ประจำ', 'สปป']);
  expect(p3.gold).toEqual([sure(0, 0)]);
  expect(p4.tgtTokens.map((t) => t.text)).toEqual(['ประจำ', 'สปป']);
  expect(p4.gold).toEqual([sure(0, 0), sure(0, 1)]);
  expect(p5).toEqual(before[4]);

  // No gold link is lost: each old gold link still joins tokens holding (or held by) its tokens' text.
  const spanOf = (p: (typeof before)[0], side: 'src' | 'tgt', i: number) => (side === 'src' ? p.srcTokens : p.tgtTokens)[i];
  const nests = (a: { start: number; end: number }, b: { start: number; end: number }) =>
    (a.start <= b.start && b.end <= a.end) || (b.start <= a.start && a.end <= b.end);
  const after = snapshot(store, ids);
  before.forEach((old, k) => {
    for (const l of old.gold) {
      const found = after[k].gold.some(
        (n) => nests(spanOf(old, 'src', l.s), spanOf(after[k], 'src', n.s)) && nests(spanOf(old, 'tgt', l.t), spanOf(after[k], 'tgt', n.t)),
      );
      expect(found, `pair ${old.id} gold ${l.s}-${l.t}`).toBe(true);
    }
  });
  expect(dbOf(store).prepare('SELECT lang, word, added_by FROM word_list ORDER BY lang').all()).toEqual([
    { lang: 'lo', word: 'ເອກອັກຄະຣາຊະທູດ', added_by: 'word list test.txt' },
    { lang: 'th', word: 'ประจำ', added_by: 'word list test.txt' },
  ]);
  expect(gold).toBeGreaterThan(0);

  // One undo reverses every pair; redo brings it back.
  expect(store.undo('anna')).not.toBeNull();
  expect(snapshot(store, ids)).toEqual(before);
  store.redo('anna');
  expect(snapshot(store, ids)).toEqual(after);

  // Again with the same lists: nothing left to change.
  const again = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna' });
  expect(again).toMatchObject({ changed: 0, unchanged: 4 });
  expect(again.kept.map((k) => k.pairId)).toEqual([ids[1]]);
  store.close();
});

test('a cancelled re-segmentation leaves the project as it was', async () => {
  const { store, ids } = fixture();
  const before = snapshot(store, ids);
  const controller = new AbortController();
  controller.abort();
  await expect(resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', words, signal: controller.signal })).rejects.toThrow(
    /cancelled/,
  );
  expect(snapshot(store, ids)).toEqual(before);
  expect(dbOf(store).prepare('SELECT count(*) AS n FROM word_list').get()).toEqual({ n: 0 });
  store.close();
});

test('flagKept: the kept pairs are flagged with the reason in their note, undone with the rest', async () => {
  const { store, ids } = fixture();
  store.updatePair('anna', ids[1], { note: 'checked' });
  const report = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', words, flagKept: true });
  expect(formatResegmentReport(report).split('\n')[0]).toMatch(/1 kept their old tokens \(flagged\)/);
  const kept = store.getPair(ids[1]);
  expect(kept.status).toBe('flagged');
  expect(kept.note).toBe(`checked\nresegment kept the old tokens: ${report.kept[0].reason}`);
  expect(store.getPair(ids[0]).status).toBe('new');
  store.undo('anna');
  expect(store.getPair(ids[1])).toMatchObject({ status: 'new', note: 'checked' });
  expect(store.getPair(ids[0]).tgtTokens.map((t) => t.text)).toEqual(['ประ', 'จำ', 'สปป', ',', 'ลาว']);
  store.close();
});

test('a pair edited while the project is being segmented is left alone, its edit kept', async () => {
  const { store, ids } = fixture();
  let edited = false;
  const report = await resegmentProject(store, {
    sides: ['src', 'tgt'],
    annotator: 'anna',
    words,
    progress: ({ done, total, message }) => {
      // Between segmentation and saving, a linguist merges a token of pair 1 and links it.
      if (done === total && message === 'resegmenting' && !edited) {
        edited = true;
        mergeTokensEdit(store, 'anna', ids[0], 'tgt', 0);
        setGold(store, 'anna', ids[0], [sure(0, 0)], []);
      }
    },
  });
  expect(edited).toBe(true);
  expect(report).toMatchObject({ changed: 2, moved: 1 });
  expect(formatResegmentReport(report).split('\n')[0]).toMatch(/; 1 edited meanwhile, left alone \(run again\)$/);
  const pair = editorPair(store, 'anna', ids[0]);
  expect(pair.tgtTokens.map((t) => t.text)).toEqual(['ประจำ', 'สปป', ',', 'ลาว']);
  expect(pair.srcTokens).toHaveLength(8);
  expect(pair.gold).toEqual([sure(0, 0)]);
  store.close();
});

test('the resegment.start job, through the API, with the lists the project holds', async () => {
  const { store, ids } = fixture();
  addSideWords(store, words.side, 'anna');
  const ctx = { ...createContext('browser', 'anna', dir), store };
  const ended = new Promise<JobEvent>((resolve) => ctx.jobs.onEvent((e) => e.type !== 'job.progress' && resolve(e)));
  expect(await dispatch(ctx, 'resegment.start', { side: 'left' })).toMatchObject({ ok: false, error: { kind: 'input' } });
  expect(await dispatch(ctx, 'resegment.start', { flagKept: true })).toMatchObject({ ok: true });
  const end = await ended;
  expect(end).toMatchObject({ type: 'job.done', kind: 'resegment' });
  expect((end as { message: string }).message).toMatch(
    /^re-segmented 5 pairs: 3 changed, 1 unchanged, 1 kept their old tokens \(flagged\)\n/,
  );
  expect(store.getPair(ids[1]).status).toBe('flagged');
  store.close();
});

test('--side tgt leaves the source tokens alone', async () => {
  const { store, ids } = fixture();
  const before = snapshot(store, ids);
  const report = await resegmentProject(store, { sides: ['tgt'], annotator: 'anna', words });
  expect(report).toMatchObject({ changed: 3, unchanged: 1 });
  const after = snapshot(store, ids);
  expect(after.map((p) => p.srcTokens)).toEqual(before.map((p) => p.srcTokens));
  expect(after[0].gold).toEqual([possible(0, 1), sure(1, 0), possible(2, 0), sure(6, 0), sure(7, 3)]);
  store.close();
});
