// `mekong import --learn-words` learns from the tokens its import just wrote instead of
// cutting every pair a second time (resegmentProject's segmentedFrom), on the bundled
// Lao–Thai embassy sample: the pairs, their tokens and the learned words come out the same
// as with a second full cut, and pairs from segmentedFrom on are never cut again.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { resegmentProject } from '../../../src/main/review/resegment-project.ts';
import { iteratePairRows, nextPairId } from '../../../src/main/store/pairs.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { addFixedWords, LEARNED } from '../../../src/main/store/word-lists.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
let n = 0;

async function imported(): Promise<{ store: ProjectStore; from: number }> {
  const store = ProjectStore.create(join(dir, `s${n++}.mekong`), { name: 's', srcLang: 'lo', tgtLang: 'th' });
  const from = nextPairId(store);
  await runImport(store, sampleImport());
  return { store, from };
}

/** Every pair's texts and token blobs, in id order, and the learned words. */
function contents(store: ProjectStore) {
  const pairs = [...iteratePairRows(store, {})]
    .flat()
    .map((r) => [r.src_text, r.tgt_text, r.src_tokens.toString('hex'), r.tgt_tokens.toString('hex')]);
  const learned = dbOf(store).prepare('SELECT lang, word FROM word_list WHERE added_by = ? ORDER BY lang, word').all(LEARNED);
  return { pairs, learned };
}

test('learning from the imported tokens gives the tokens and words a second full cut gives', async () => {
  const twice = await imported();
  const cutAgain = await resegmentProject(twice.store, { sides: ['src', 'tgt'], annotator: 'anna', learnWords: true });
  const once = await imported();
  const asImported = await resegmentProject(once.store, {
    sides: ['src', 'tgt'],
    annotator: 'anna',
    learnWords: true,
    segmentedFrom: once.from,
  });
  expect(asImported.learned.map((l) => l.words.length)).toEqual(cutAgain.learned.map((l) => l.words.length));
  expect(asImported.learned.flatMap((l) => l.words).length).toBeGreaterThan(10);
  expect({ ...asImported, changes: asImported.changes.length }).toEqual({ ...cutAgain, changes: cutAgain.changes.length });
  expect(contents(once.store)).toEqual(contents(twice.store));
  twice.store.close();
  once.store.close();
});

test('pairs from segmentedFrom on keep their tokens as the first cut; earlier pairs are cut again', async () => {
  const { store, from } = await imported();
  // a linguist's word joining the first pair's first two tokens: a new cut would change that pair
  const [first] = [...iteratePairRows(store, {}, 1)][0];
  const tokens = store.getPair(first.id).srcTokens.map((t) => t.text);
  addFixedWords(store, 'lo', [tokens[0] + tokens[1]], 'anna');
  const before = contents(store);
  const kept = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', segmentedFrom: from, dryRun: true });
  expect(kept.changed).toBe(0);
  expect(contents(store)).toEqual(before);
  const cut = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', segmentedFrom: first.id + 1, dryRun: true });
  expect(cut.changed).toBe(1);
  expect(cut.changes[0].pairId).toBe(first.id);
  store.close();
});
