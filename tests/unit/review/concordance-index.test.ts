// The concordance's word index (store/word-index.ts): the concordance gives the same rows
// whether the index is empty, partly built (pairs imported since, pairs whose tokens changed
// since) or complete; a pair whose tokens change is checked as it is until the index holds its
// new words; Lao and Thai words (no spaces, vowel and tone marks), words with ASCII punctuation
// and a merged token holding a space are all found.
import { describe, expect, test } from 'vitest';
import { occurrences } from '../../../src/main/review/concordance.ts';
import { mergeTokensEdit, splitTokenEdit } from '../../../src/main/review/segmentation-fixes.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import type { ProjectStore } from '../../../src/main/store/project-store.ts';
import { keepWordIndex, updateWordIndex, wordCandidates, wordIndexBehind } from '../../../src/main/store/word-index.ts';
import { pretokenizedOffsets } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { project } from './fixture.ts';

const dir = tempDir('mekong-concordance-index-');

const PAIRS: [string, string][] = [
  ['ສະຖານທູດ ໄທ ປະຈຳ ສປປ ລາວ', 'สถานทูต ไทย ที่ เวียงจันทน์ ประจำ ปี'],
  ["Don't go , e.g. now", 'Geh nicht , z.B. jetzt'],
  ['The house of the people', 'Das Haus des Volkes die'],
  ['ÜBER the river', 'ΟΔΟΣ über die Brücke'],
  ['new york is big', 'new york ist groß'],
  ['the end', 'die Ende'],
  ['theory', 'die Theorie'], // theory is not the word the
  ['(the) x', 'die x'], // "(the)" is one token, not the word the
];

/** Word pairs asked in every test: frequent, rare, Lao/Thai, punctuated, cased, absent. */
const QUERIES: [string, string][] = [
  ['the', 'die'],
  ['the end', 'die'],
  ['ປະຈຳ', 'ประจำ'],
  ['ປະຈຳ', 'ที่'],
  ["don't", 'z.b.'],
  [',', ','],
  ['(the)', 'die'],
  ['über', 'οδος'],
  ['THE', 'Die'],
  ['the', 'nowhere'],
];

function importPairs(store: ProjectStore, pairs: [string, string][], finish = true): { importId: number; ids: number[] } {
  const importId = beginImport(store, 'more.tsv', 'tsv');
  const ids = store.transaction(() =>
    pairInserter(
      store,
      importId,
    )(pairs.map(([src, tgt]) => ({ src, tgt, srcOffsets: pretokenizedOffsets(src), tgtOffsets: pretokenizedOffsets(tgt) }))),
  );
  if (finish) finishImport(store, importId, true);
  return { importId, ids };
}

/** Every query's result: the rows as the concordance gives them, a page of 2 and the total. */
function answers(store: ProjectStore) {
  return QUERIES.map(([s, t]) => {
    const all = occurrences(store, 'ann', s, t, null);
    const page = occurrences(store, 'ann', s, t, null, 2);
    return { all, page };
  });
}

describe('the concordance with its word index', () => {
  test('gives the same rows unindexed, partly indexed and fully indexed', async () => {
    // the same pairs and ids in both projects: an import left running while a second one is made, then discarded
    const { store } = project(dir, PAIRS);
    const discarded = importPairs(store, [['the secret', 'die Geheimnis']], false).importId;
    importPairs(store, PAIRS.slice(2));
    finishImport(store, discarded, false);
    mergeTokensEdit(store, 'ann', 6, 'src', 0); // "the end" one token
    const unindexed = answers(store);
    expect(unindexed[0].all.total).toBe(5);
    expect(unindexed[0].page.occurrences).toHaveLength(2);
    expect(unindexed[1].all.occurrences.map((o) => o.pairId)).toEqual([6]);
    expect(unindexed[2].all.occurrences.map((o) => [o.srcAt, o.tgtAt])).toEqual([[[2], [4]]]);

    // a second project, indexed up to the first import: the second import's pairs above indexed_to
    const { store: partly } = project(dir, PAIRS);
    await updateWordIndex(partly);
    const { importId: running } = importPairs(partly, [['the secret', 'die Geheimnis']], false);
    importPairs(partly, PAIRS.slice(2));
    // an import still running holds the index below its pairs, and its pairs are not seen
    await updateWordIndex(partly);
    expect(wordIndexBehind(partly)).toBe(false);
    expect(wordCandidates(partly, 'the', 'die')!.indexedTo).toBe(PAIRS.length);
    finishImport(partly, running, false);
    mergeTokensEdit(partly, 'ann', 6, 'src', 0); // indexed, now stale
    expect(wordCandidates(partly, 'the end', 'die')!.stale).toEqual([6]);
    expect(wordIndexBehind(partly)).toBe(true);
    expect(answers(partly)).toEqual(unindexed);

    await updateWordIndex(partly);
    expect(wordIndexBehind(partly)).toBe(false);
    const full = wordCandidates(partly, 'the', 'die')!;
    expect(full.exact).toBe(true);
    expect(full.hits).toHaveLength(5);
    expect(answers(partly)).toEqual(unindexed);
    store.close();
    partly.close();
  });

  test('progress counts the pairs above indexed_to as the update found it, step by step to the last', async () => {
    const { store } = project(dir, PAIRS);
    await updateWordIndex(store);
    // 250 pairs more: three steps of at most 100 (STEP_PAIRS), their ids after the first PAIRS.length
    importPairs(
      store,
      Array.from({ length: 250 }, (_, i): [string, string] => [`word${i} the`, `wort${i} die`]),
    );
    const told: [number, number][] = [];
    await updateWordIndex(store, { noEditor: true, progress: (done, of) => told.push([done, of]) });
    expect(told).toEqual([
      [100, 250],
      [200, 250],
      [250, 250],
    ]);
    store.close();
  });

  test('a pair whose tokens change is found by its new words, before and after it is indexed again', async () => {
    const { store, ids } = project(dir, PAIRS);
    await updateWordIndex(store);
    const newYork = ids[4];
    expect(wordCandidates(store, 'new', 'new')!.hits).toEqual([newYork]);
    // "new" + "york" → "new york" on both sides: the pair is stale, out of the index
    mergeTokensEdit(store, 'ann', newYork, 'src', 0);
    mergeTokensEdit(store, 'ann', newYork, 'tgt', 0);
    // its old words are still in the index, and not taken for hits
    expect(wordCandidates(store, 'new', 'new')).toMatchObject({ hits: [], stale: [newYork], exact: true });
    const stale = wordCandidates(store, 'new york', 'new york')!;
    expect(stale).toMatchObject({ hits: [], stale: [newYork], exact: false });
    expect(occurrences(store, 'ann', 'new york', 'New York', null).occurrences.map((o) => [o.pairId, o.srcAt, o.tgtAt])).toEqual([
      [newYork, [0], [0]],
    ]);
    expect(occurrences(store, 'ann', 'new', 'new', null).total).toBe(0);

    // indexed again: its new words, found as the pieces of "new york" and checked
    expect(wordIndexBehind(store)).toBe(true);
    await updateWordIndex(store);
    expect(wordCandidates(store, 'new york', 'new york')).toMatchObject({ hits: [newYork], stale: [], exact: false });
    expect(occurrences(store, 'ann', 'new york', 'new york', null).occurrences.map((o) => o.pairId)).toEqual([newYork]);
    // split again on the source side: "new" there is a word again, never found as a piece of "new york"
    splitTokenEdit(store, 'ann', newYork, 'src', 0, 3);
    await updateWordIndex(store);
    expect(wordCandidates(store, 'new york', 'new york')!.hits).toEqual([]);
    expect(wordCandidates(store, 'new', 'new york')).toMatchObject({ hits: [newYork], exact: false });
    expect(occurrences(store, 'ann', 'new', 'new york', null).occurrences.map((o) => [o.pairId, o.srcAt, o.tgtAt])).toEqual([
      [newYork, [0], [0]],
    ]);
    store.close();
  });

  test('Lao and Thai words with vowel and tone marks, and words with ASCII punctuation, are one term each', async () => {
    const { store, ids } = project(dir, PAIRS);
    await updateWordIndex(store);
    for (const [s, t, pair] of [
      ['ສະຖານທູດ', 'ที่', ids[0]],
      ['ປະຈຳ', 'เวียงจันทน์', ids[0]],
      ["don't", 'z.b.', ids[1]],
      ['e.g.', ',', ids[1]],
      ['(the)', 'x', ids[7]],
    ] as const) {
      expect(wordCandidates(store, s, t)).toMatchObject({ hits: [pair], exact: true });
      expect(occurrences(store, 'ann', s, t, null).occurrences.map((o) => o.pairId)).toEqual([pair]);
    }
    // a piece of a Lao word is not the word
    expect(wordCandidates(store, 'ສະຖານ', 'ที่')!.hits).toEqual([]);
    store.close();
  });

  test('keepWordIndex fills the index in the background', async () => {
    const { store } = project(dir, PAIRS);
    keepWordIndex(store);
    keepWordIndex(store); // once under way, a second call adds nothing
    for (let i = 0; i < 100 && wordIndexBehind(store); i++) await new Promise((r) => setTimeout(r, 10));
    expect(wordIndexBehind(store)).toBe(false);
    expect(wordCandidates(store, 'the', 'die')!.hits).toHaveLength(3);
    store.close();
  });
});
