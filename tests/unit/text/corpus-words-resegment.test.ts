// Words learned from a project's corpus when it is re-segmented (`mekong resegment
// --learn-words`, issue 43 item 10), on a real project file: the recurring name comes out
// whole in every pair that holds it, a gold link on one of its syllables follows to the whole
// name, the texts stay as written, the words join the project's list as learned words that
// only merge, and a dry run stores nothing; the app lists the learned words and removes one.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { editorPair } from '../../../src/main/review/editor.ts';
import { formatResegmentReport, resegmentProject } from '../../../src/main/review/resegment-project.ts';
import { LEARNED, projectWordLists } from '../../../src/main/store/word-lists.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import type { JobEvent } from '../../../src/shared/api.ts';

const dir = tempDir();

const PAIRS: [string, string][] = [
  ['ເຢໂຫວາເປັນພະເຈົ້າ', 'พระยะโฮวาเป็นพระเจ้า'],
  ['ພວກເຮົານະມັດສະການເຢໂຫວາ', 'เรานมัสการพระยะโฮวา'],
  ['ເຢໂຫວາຮັກພວກເຮົາ', 'พระยะโฮวารักเรา'],
  ['ຄຳພີໄບເບິນບອກວ່າເຢໂຫວາຊົງຮັກ', 'คัมภีร์ไบเบิลบอกว่าพระยะโฮวาทรงรัก'],
  ['ອັບລາຫາມມີລູກ', 'อับราฮัมมีลูก'],
];

async function project() {
  const store = ProjectStore.create(join(dir, `l${Math.random().toString(36).slice(2)}.mekong`), {
    name: 'l',
    srcLang: 'lo',
    tgtLang: 'th',
  });
  const lists = await projectWordLists(store);
  const importId = beginImport(store, 'test', 'tsv');
  const ids = store.transaction(() =>
    pairInserter(
      store,
      importId,
    )(
      PAIRS.map(([src, tgt]) => ({
        src,
        tgt,
        srcOffsets: segmentOffsets(src, 'lo', { words: lists.lo }),
        tgtOffsets: segmentOffsets(tgt, 'th'),
      })),
    ),
  );
  finishImport(store, importId, true);
  return { store, ids };
}

const srcTokens = (store: ProjectStore, id: number) => editorPair(store, 'anna', id).srcTokens.map((t) => t.text);

test('resegment --learn-words keeps a recurring name whole, links follow, the words are listed as learned', async () => {
  const { store, ids } = await project();
  expect(srcTokens(store, ids[2]).slice(0, 2)).toEqual(['ເຢໂຫ', 'ວາ']);
  expect(editorPair(store, 'anna', ids[2]).tgtTokens.map((t) => t.text)).toEqual(['พระ', 'ยะ', 'โฮ', 'วา', 'รัก', 'เรา']);
  const once = srcTokens(store, ids[4]);
  expect(once.slice(0, 3)).toEqual(['ອັບ', 'ລາ', 'ຫາມ']);
  // gold links from the name's first syllable ເຢໂຫ to พระ, and from ຮັກ to รัก
  const gold = goldAlignmentOf(store, 'anna');
  store.transaction(() =>
    linkInserter(store, gold)(ids[2], [
      { s: 0, t: 0, kind: 'sure', score: null },
      { s: 2, t: 4, kind: 'sure', score: null },
    ]),
  );
  const dry = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', learnWords: true, dryRun: true });
  expect(dry.learned.find((l) => l.lang === 'lo')?.words.map((w) => w.word)).toContain('ເຢໂຫວາ');
  expect(srcTokens(store, ids[2]).slice(0, 2)).toEqual(['ເຢໂຫ', 'ວາ']);
  expect(dbOf(store).prepare('SELECT count(*) AS n FROM word_list').get()).toEqual({ n: 0 });

  const report = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', learnWords: true });
  expect(report.kept).toEqual([]);
  expect(formatResegmentReport(report)).toContain('learned');
  for (const k of [0, 1, 2, 3]) expect(srcTokens(store, ids[k])).toContain('ເຢໂຫວາ');
  // the name met once stays as it was
  expect(srcTokens(store, ids[4])).toEqual(once);
  const pair = editorPair(store, 'anna', ids[2]);
  expect(pair.src).toBe(PAIRS[2][0]);
  expect(pair.srcTokens.map((t) => t.text)).toEqual(['ເຢໂຫວາ', 'ຮັກ', 'ພວກເຮົາ']);
  // the target side learned พระยะโฮวา too: each link goes to the token that now holds its old target token
  expect(pair.tgtTokens.map((t) => t.text)).toEqual(['พระยะโฮวา', 'รัก', 'เรา']);
  expect(pair.gold.map((l) => `${l.s}-${l.t}`).sort()).toEqual(['0-0', '1-1']);
  const rows = dbOf(store).prepare('SELECT word, added_by FROM word_list WHERE lang = ?').all('lo') as { word: string; added_by: string }[];
  expect(rows).toContainEqual({ word: 'ເຢໂຫວາ', added_by: LEARNED });
  // the next segmentation (import, resegment) cuts with them; they only merge
  const lists = await projectWordLists(store);
  expect(lists.lo.data().mergeOnly).toContain('ເຢໂຫວາ');
  // a second run learns nothing new and changes nothing
  const again = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', learnWords: true });
  expect(again.changed).toBe(0);
});

test("the app's Re-segment (resegment.start) learns the words when asked, and only then", async () => {
  const { store, ids } = await project();
  const ctx = { ...createContext('browser', 'anna', dir), store };
  const run = async (learnWords?: boolean) => {
    const end = new Promise<JobEvent>((resolve) => {
      const off = ctx.jobs.onEvent((e) => {
        if (e.type === 'job.progress') return;
        off();
        resolve(e);
      });
    });
    expect(await dispatch(ctx, 'resegment.start', { side: 'both', ...(learnWords === undefined ? {} : { learnWords }) })).toMatchObject({
      ok: true,
    });
    expect(await end).toMatchObject({ type: 'job.done' });
  };
  await run();
  expect(srcTokens(store, ids[2]).slice(0, 2)).toEqual(['ເຢໂຫ', 'ວາ']);
  await run(true);
  expect(srcTokens(store, ids[2])).toContain('ເຢໂຫວາ');
});

test("the app lists the learned words ('wordList.list') and removes one ('wordList.remove'); the next re-segment cuts it again", async () => {
  const { store, ids } = await project();
  const ctx = { ...createContext('browser', 'anna', dir), store };
  const resegment = async (learnWords: boolean) => {
    const end = new Promise<JobEvent>((resolve) => {
      const off = ctx.jobs.onEvent((e) => {
        if (e.type === 'job.progress') return;
        off();
        resolve(e);
      });
    });
    expect(await dispatch(ctx, 'resegment.start', { side: 'both', learnWords })).toMatchObject({ ok: true });
    expect(await end).toMatchObject({ type: 'job.done' });
  };
  await resegment(true);
  const listed = await dispatch(ctx, 'wordList.list', { learned: true });
  expect(listed).toMatchObject({ ok: true });
  const words = (listed as { ok: true; value: { words: { lang: string; word: string; addedBy: string }[] } }).value.words;
  expect(words).toContainEqual({ lang: 'lo', word: 'ເຢໂຫວາ', addedBy: LEARNED });
  expect(words.every((w) => w.addedBy === LEARNED)).toBe(true);
  expect(await dispatch(ctx, 'wordList.remove', { words: [{ lang: 'lo', word: 'ເຢໂຫວາ' }] })).toEqual({ ok: true, value: { removed: 1 } });
  expect(await dispatch(ctx, 'wordList.remove', { words: [{ lang: 'lo', word: 'ເຢໂຫວາ' }] })).toEqual({ ok: true, value: { removed: 0 } });
  expect(srcTokens(store, ids[2])).toContain('ເຢໂຫວາ');
  await resegment(false);
  expect(srcTokens(store, ids[2]).slice(0, 2)).toEqual(['ເຢໂຫ', 'ວາ']);
});
