// The app's Align job on a real project: a model alignment with posteriors is stored (the
// engine's links pair for pair), gold links are kept, rejected links are never proposed, and the summary names the
// dictionaries used (attached ones, and the shipped ones of the project's languages); the
// job reads and aligns on a thread of its own, so the thread that serves the project keeps
// answering meanwhile.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignProject } from '../../../src/main/align/project-align.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { attachDictionary, setUsesShippedDictionaries } from '../../../src/main/store/dictionaries.ts';
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { goldAsLinks, withCorrections } from '../../../src/main/align/corrections.ts';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { cutToThreshold, decodeThreshold } from '../../../src/main/align/posterior-decode.ts';
import { projectDictionary } from '../../../src/main/aligners/app-jobs.ts';
import { goldByPair, loadCorpus, rejectedByPair } from '../../../src/main/store/pair-corpus.ts';

const dir = tempDir();

test('aligns the sample, keeps gold, honours rejections, stores scores', async () => {
  const store = ProjectStore.create(join(dir, 'a.mekong'), { name: 'a', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  const first = store.listPairs({}, 0, 1).pairs[0];
  const gold = goldAlignmentOf(store, 'anna');
  linkInserter(store, gold)(first.id, [{ s: 0, t: 0, kind: 'sure', score: null }]);
  dbOf(store).prepare(`INSERT INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, 1, 1, 'anna', 'now')`).run(first.id);
  const steps: number[] = [];
  const message = await alignProject(
    store,
    { method: 'ibm1', sym: 'gdfa' },
    { progress: (p) => steps.push(p.done), signal: new AbortController().signal },
  );
  expect(message).toMatch(/aligned 265 pairs with ibm1 \+ gdfa/);
  expect(steps.length).toBeGreaterThan(0);
  const model = store.info().alignments.find((a) => a.origin === 'model')!;
  expect(model.links).toBeGreaterThan(265 * 5);
  const links = store.getPair(first.id).alignments.find((a) => a.alignmentId === model.id)!.links;
  expect(links).toContainEqual(expect.objectContaining({ s: 0, t: 0 }));
  expect(links).not.toContainEqual(expect.objectContaining({ s: 1, t: 1 }));
  for (const l of links) expect(l.score).toBeGreaterThanOrEqual(0);
  for (const l of links) expect(l.score).toBeLessThanOrEqual(1);
  store.close();
});

test("the job's summary names the dictionaries it used, or says there was none", async () => {
  const store = ProjectStore.create(join(dir, 'd.mekong'), { name: 'd', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  expect(await alignProject(store, { method: 'ibm1', sym: 'grow-diag-final-and' })).toMatch(
    /^aligned 265 pairs with ibm1 \+ grow-diag-final-and, no dictionary: \d+ links$/,
  );
  attachDictionary(store, {
    name: 'lo-th:embassy.tsv',
    source: { dicts: ['lo-th:embassy.tsv'] },
    text: 'ສະຖານທູດ\tสถานทูต\t1\n',
    entries: 1,
  });
  attachDictionary(store, {
    name: 'lo-en:bundled via en',
    source: { dicts: ['lo-en:bundled', 'en-th:x'], via: 'en' },
    text: 'ໄທ\tไทย\t1\n',
    entries: 1,
  });
  expect(await alignProject(store, { method: 'ibm1', sym: 'gdfa' })).toMatch(
    /^aligned 265 pairs with ibm1 \+ gdfa, dictionaries "lo-th:embassy\.tsv", "lo-en:bundled via en": \d+ links$/,
  );
  store.close();
});

test('a project uses the shipped dictionaries of its languages unless it switches them off', async () => {
  const store = ProjectStore.create(join(dir, 'zh.mekong'), { name: 'zh', srcLang: 'zh', tgtLang: 'en' });
  const file = join(dir, 'zh.tsv');
  writeFileSync(file, '我 喜欢 猫\tI like cats\n猫 喝 水\tthe cat drinks water\n我 喝 茶\tI drink tea\n');
  await runImport(store, { file, format: 'tsv', tokenization: 'pretokenized' });
  expect(await alignProject(store, { method: 'ibm1', sym: 'gdfa' })).toMatch(
    /^aligned 3 pairs with ibm1 \+ gdfa, dictionaries "Chinese–English, simplified \(CC-CEDICT, CC BY-SA 4\.0\) \(shipped\)", "Chinese–English, traditional \(CC-CEDICT, CC BY-SA 4\.0\) \(shipped\)": \d+ links$/,
  );
  setUsesShippedDictionaries(store, false);
  expect(await alignProject(store, { method: 'ibm1', sym: 'gdfa' })).toMatch(
    /^aligned 3 pairs with ibm1 \+ gdfa, no dictionary: \d+ links$/,
  );
  store.close();
});

test('the job leaves the serving thread free: reading and preparing 50,000 pairs stall it for no long', async () => {
  const store = ProjectStore.create(join(dir, 'free.mekong'), { name: 'f', srcLang: 'en', tgtLang: 'vi' });
  // 50,000 pairs of 12 tokens over a 2,000-word vocabulary, pretokenized: reading them and
  // numbering their cells took seconds of the serving thread when the job ran on it
  let seed = 7;
  const word = (side: string) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return `${side}${seed % 2000}`;
  };
  const lines = Array.from({ length: 50_000 }, () => {
    const src = Array.from({ length: 12 }, () => word('s'));
    return `${src.join(' ')}\t${src.map((w) => `t${w.slice(1)}`).join(' ')}`;
  });
  const file = join(dir, 'free.tsv');
  writeFileSync(file, lines.join('\n') + '\n');
  await runImport(store, { file, format: 'tsv', tokenization: 'pretokenized', anyScript: true });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const message = await alignProject(store, { method: 'ibm1', sym: 'gdfa' });
  delay.disable();
  expect(message).toMatch(/^aligned 50000 pairs/);
  // 0.2–0.3 s here (the slices of the links' writing); 1.5 s when the job ran on this thread
  expect(delay.max / 1e6).toBeLessThan(1000);
  store.close();
});

test("the stored links are the engine's, pair for pair, cut to the threshold and corrected", async () => {
  // The job streams the engine's links through the corrections into growing flat arrays (the
  // sample's ~2,600 links grow them past their first capacity): every pair must keep its own.
  const store = ProjectStore.create(join(dir, 'same.mekong'), { name: 's', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  const corpus = loadCorpus(store, false);
  const [p0, p1] = corpus.ids;
  linkInserter(store, goldAlignmentOf(store, 'anna'))(p1, [{ s: 0, t: 1, kind: 'possible', score: null }]);
  dbOf(store).prepare(`INSERT INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, 0, 0, 'anna', 'now')`).run(p0);
  await alignProject(store, { method: 'agree', sym: 'post', threshold: 0.3 });
  const model = store.info().alignments.find((a) => a.origin === 'model')!;

  const gold = goldByPair(store, corpus.ids, 'all').map(goldAsLinks);
  const rejected = rejectedByPair(store, corpus.ids);
  const { entries } = projectDictionary(store);
  const direct = await alignCorpus(
    corpus.src,
    corpus.tgt,
    { method: 'agree', sym: 'post', threshold: decodeThreshold(0.3), dictionary: entries },
    { gold, rejected },
  );
  const expected = cutToThreshold(direct.links, 0.3).links.map((ls, k) => withCorrections(ls, gold[k], rejected[k]));
  expect(expected[0].some((l) => l.s === 0 && l.t === 0)).toBe(false);
  expect(expected[1]).toContainEqual({ s: 0, t: 1, kind: 'possible', score: 1 });
  let total = 0;
  corpus.ids.forEach((id, k) => {
    const stored = store.getPair(id).alignments.find((a) => a.alignmentId === model.id)!.links;
    const key = (l: { s: number; t: number; kind: string }) => `${l.s}-${l.t}-${l.kind}`;
    expect(stored.map(key), `pair ${id}`).toEqual(expected[k].map(key));
    stored.forEach((l, j) => expect(l.score).toBeCloseTo(expected[k][j].score ?? 1, 9));
    total += stored.length;
  });
  expect(total).toBe(model.links);
  expect(total).toBeGreaterThan(1024);
  store.close();
});
