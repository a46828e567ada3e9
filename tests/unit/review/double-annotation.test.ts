// Double annotation kept apart, on real project files: adjudication writes the project's
// adjudicated gold and never a compared annotator's own (issue 43 item 3), training and
// merged exports prefer it; under blind annotation each annotator has their own status and
// note of a pair (item 15), kept by undo, by the migration of older files and by the views.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { runExport } from '../../../src/main/corpus/export-pipeline.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { editorPair, setGold } from '../../../src/main/review/editor.ts';
import { adjudication, setAdjudicated } from '../../../src/main/review/adjudication.ts';
import { agreementReport } from '../../../src/main/review/agreement.ts';
import { reviewQueue } from '../../../src/main/review/queue.ts';
import { goldByPair } from '../../../src/main/store/pair-corpus.ts';
import { adjudicatedGoldId, goldIdOf } from '../../../src/main/store/gold-layer.ts';
import { setAnnotatorsShare } from '../../../src/main/store/annotation-mode.ts';
import { reviewViewer } from '../../../src/main/store/pair-reviews.ts';
import { mergeLayers } from '../../../src/renderer/lib/editor/adjudicate.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { oldSchemaProject } from '../helpers/old-schema-project.ts';
import { model, project, sure } from './fixture.ts';

const dir = tempDir('mekong-double-');
const keys = (links: readonly { s: number; t: number }[]) => links.map((l) => `${l.s}-${l.t}`);

describe('adjudication writes the adjudicated gold', () => {
  test("issue 43 #3: root vs noy → adjudicate #44 as noy → accept left → save keeps noy's 3-1", async () => {
    const path = join(dir, 'sample.mekong');
    const store = ProjectStore.create(path, { name: 'sample', srcLang: 'lo', tgtLang: 'th' });
    await runImport(store, sampleImport());
    const pair = store.getPair(44);
    expect(pair.srcTokens.length).toBeGreaterThan(3);
    setGold(store, 'root', 44, [sure(0, 0), sure(1, 1)], []);
    setGold(store, 'noy', 44, [sure(0, 0), sure(3, 1)], [{ side: 'tgt', index: 0 }]);
    store.updatePair('root', 44, { status: 'done' });
    store.updatePair('noy', 44, { status: 'done' });
    const root = goldIdOf(store, 'root')!;
    const noy = goldIdOf(store, 'noy')!;
    // Agreement → root vs noy → Adjudicate #44 (as noy) → Accept left → Save.
    expect(agreementReport(store, root, noy).pairs.map((p) => p.pairId)).toContain(44);
    const adj = adjudication(store, 44, root, noy);
    const merged = mergeLayers(adj.left, adj.right, 'left');
    const saved = setAdjudicated(store, 'noy', 44, merged.links, merged.untranslated);
    expect(keys(saved.links)).toEqual(['0-0', '1-1']);
    store.close();

    const again = ProjectStore.open(path);
    // noy's own gold is untouched; the merge is the adjudicated gold's.
    expect(keys(editorPair(again, 'noy', 44).gold)).toEqual(['0-0', '3-1']);
    expect(editorPair(again, 'noy', 44).untranslated).toEqual([{ side: 'tgt', index: 0 }]);
    expect(keys(editorPair(again, 'root', 44).gold)).toEqual(['0-0', '1-1']);
    const adjudicated = adjudicatedGoldId(again)!;
    expect(again.info().alignments.find((a) => a.id === adjudicated)).toMatchObject({ origin: 'gold', adjudicated: true, links: 2 });
    expect(adjudication(again, 44, root, noy).result.links.map((l) => `${l.s}-${l.t}`)).toEqual(['0-0', '1-1']);
    // Blind annotators do not see it; adjudicated vs each annotator is an agreement like any other.
    expect(editorPair(again, 'noy', 44).alignments.some((a) => a.alignmentId === adjudicated)).toBe(false);
    expect(agreementReport(again, adjudicated, noy).overall).toMatchObject({ pairs: 1, reference: 2, candidate: 2, both: 1 });
    expect(agreementReport(again, adjudicated, root).overall).toMatchObject({ pairs: 1, both: 2, aer: 0 });
    // Training reads the adjudicated gold where it has the pair, the annotators' union elsewhere.
    setGold(again, 'ann', 45, [sure(0, 0)], []);
    setGold(again, 'ben', 45, [sure(1, 1)], []);
    const [g44, g45] = goldByPair(again, [44, 45], 'all');
    expect(g44!.sure.map(([s, t]) => `${s}-${t}`)).toEqual(['0-0', '1-1']);
    expect(g45!.sure.map(([s, t]) => `${s}-${t}`).sort()).toEqual(['0-0', '1-1']);
    // The adjudicator's undo takes the adjudication back, and only it.
    again.undo('noy');
    expect(adjudication(again, 44, root, noy).result.links).toEqual([]);
    expect(keys(editorPair(again, 'noy', 44).gold)).toEqual(['0-0', '3-1']);
    again.close();
  });

  test('exports mark the adjudicated gold: JSONL field, its own Pharaoh file, and merged gold prefers it', async () => {
    const { store, ids } = project(dir, [
      ['a b', 'x y'],
      ['c d', 'z w'],
    ]);
    setGold(store, 'anna', ids[0], [sure(0, 0)], []);
    setGold(store, 'ben', ids[0], [sure(0, 1)], []);
    setGold(store, 'ben', ids[1], [sure(1, 1)], []);
    setAdjudicated(store, 'carl', ids[0], [sure(1, 1)], []);
    const jsonl = join(dir, 'adj.jsonl');
    await runExport(store, { file: jsonl, format: 'jsonl' });
    const first = JSON.parse(readFileSync(jsonl, 'utf8').split('\n')[0]);
    expect(first.alignments[0]).toEqual({ origin: 'gold', source: 'adjudicated', adjudicated: true, links: [[1, 1, 'sure', null]] });
    expect(first.alignments.slice(1).map((a: { source: string }) => a.source)).toEqual(['anna', 'ben']);
    const out = join(dir, 'adj.pharaoh');
    expect(await runExport(store, { file: out, format: 'pharaoh', linksFrom: 'merged-gold' })).toMatch(
      /merged gold of anna, ben, adjudicated where adjudicated/,
    );
    expect(readFileSync(out, 'utf8')).toBe('1-1\n1-1\n');
    await runExport(store, { file: join(dir, 'each.pharaoh'), format: 'pharaoh', linksFrom: 'each' });
    expect(readFileSync(join(dir, 'each.adjudicated.pharaoh'), 'utf8')).toBe('1-1\n\n');
    expect(readFileSync(join(dir, 'each.gold-anna.pharaoh'), 'utf8')).toBe('0-0\n\n');
    // And the JSONL round trip brings it back as the adjudicated gold, not as an annotator "adjudicated".
    const again = ProjectStore.create(join(dir, 'again.mekong'), { name: 't', srcLang: 'en', tgtLang: 'vi' });
    await runImport(again, { file: jsonl, format: 'jsonl', tokenization: 'segment' });
    const id = again.listPairs({}, 0, 1).pairs[0].id;
    expect(adjudicatedGoldId(again)).not.toBeNull();
    expect(goldIdOf(again, 'adjudicated')).toBeNull();
    expect(keys(again.getPair(id).alignments.find((a) => a.alignmentId === adjudicatedGoldId(again))!.links)).toEqual(['1-1']);
    store.close();
    again.close();
  });
});

describe('each annotator has their own status and note (blind)', () => {
  test("issue 43 #15: the second annotator sees neither the first one's Done nor their note, in the list, the queue and the editor", () => {
    const { store, ids } = project(dir, [
      ['a b', 'x y'],
      ['c d', 'z w'],
      ['e', 'v'],
    ]);
    const m = model(store, ids, [[[0, 0, 0.6]], [[0, 0, 0.7]], [[0, 0, 0.9]]]);
    store.updatePair('anna', ids[0], { status: 'done', note: 'anna: checked' });
    const asBob = reviewViewer(store, 'bob');
    expect(editorPair(store, 'bob', ids[0])).toMatchObject({ status: 'new', note: '' });
    expect(editorPair(store, 'anna', ids[0])).toMatchObject({ status: 'done', note: 'anna: checked' });
    expect(store.listPairs({}, 0, 10, asBob).pairs[0]).toMatchObject({ status: 'new', note: '' });
    expect(store.listPairs({ status: ['done'] }, 0, 10, asBob).total).toBe(0);
    expect(store.listPairs({ status: ['done'] }, 0, 10, reviewViewer(store, 'anna')).total).toBe(1);
    // bob's queue of pairs still to do keeps the pair anna finished.
    const todo = reviewQueue(store, { alignmentId: m, status: ['new', 'in-review'], offset: 0, limit: 10 }, asBob);
    expect(todo.items.map((i) => i.id)).toContain(ids[0]);
    expect(todo.items.find((i) => i.id === ids[0])!.status).toBe('new');
    expect(reviewQueue(store, { alignmentId: m, status: ['new'], offset: 0, limit: 10 }, 'anna').total).toBe(2);
    expect(store.info('bob').byStatus).toMatchObject({ new: 3, done: 0 });
    expect(store.info('anna').byStatus).toMatchObject({ new: 2, done: 1 });
    // bob's own status and note are his; anna's stay hers; the pair's own is the last set.
    const bobs = store.updatePair('bob', ids[0], { status: 'flagged', note: 'bob: unsure' });
    expect(bobs).toMatchObject({ status: 'flagged', note: 'bob: unsure' });
    expect(editorPair(store, 'anna', ids[0])).toMatchObject({ status: 'done', note: 'anna: checked' });
    expect(store.getPair(ids[0])).toMatchObject({ status: 'flagged', note: 'bob: unsure' });
    // Undo takes back bob's, not anna's.
    store.undo('bob');
    expect(editorPair(store, 'bob', ids[0])).toMatchObject({ status: 'new', note: '' });
    expect(editorPair(store, 'anna', ids[0])).toMatchObject({ status: 'done', note: 'anna: checked' });
    expect(store.getPair(ids[0])).toMatchObject({ status: 'done', note: 'anna: checked' });
    // Setting what one sees already changes nothing, the pair's own status neither.
    store.updatePair('bob', ids[0], { status: 'new' });
    expect(store.getPair(ids[0]).status).toBe('done');
    expect(store.undo('bob')).toBeNull();
    // Shared annotation shows the pair's status and note to everyone.
    setAnnotatorsShare(store, true);
    expect(editorPair(store, 'bob', ids[0])).toMatchObject({ status: 'done', note: 'anna: checked' });
    store.close();
  });

  test('the migration makes earlier statuses and notes the own of whoever set them last; imported ones stay the pair’s', () => {
    const path = join(dir, 'schema11.mekong');
    const db = oldSchemaProject(path, 11, 'old.jsonl', 3);
    const blob = Buffer.from(new Uint32Array([0, 1]).buffer);
    const pair = db.prepare(
      `INSERT INTO pairs (id, import_id, src_text, tgt_text, src_tokens, tgt_tokens, status, note) VALUES (?, 1, 'a', 'x', ?, ?, ?, ?)`,
    );
    pair.run(1, blob, blob, 'done', 'by ann');
    pair.run(2, blob, blob, 'flagged', 'imported');
    pair.run(3, blob, blob, 'new', '');
    const event = db.prepare(`INSERT INTO edit_events (at, annotator, pair_id, kind, payload) VALUES ('now', ?, ?, ?, ?)`);
    event.run('bob', 1, 'pair.update', JSON.stringify({ before: {}, after: { status: 'in-review' } }));
    event.run('ann', 1, 'pair.update', JSON.stringify({ before: { status: 'in-review' }, after: { status: 'done', note: 'by ann' } }));
    event.run('bob', 1, 'links.set', JSON.stringify({ before: { links: {} }, after: { links: {} } }));
    db.prepare(`INSERT INTO alignments (origin, annotator, name, created_at) VALUES ('gold', 'ann', 'gold (ann)', 'now')`).run();
    db.exec('COMMIT');
    db.close();

    const store = ProjectStore.open(path);
    expect(editorPair(store, 'ann', 1)).toMatchObject({ status: 'done', note: 'by ann' });
    expect(editorPair(store, 'bob', 1)).toMatchObject({ status: 'new', note: '' });
    expect(editorPair(store, 'bob', 2)).toMatchObject({ status: 'flagged', note: 'imported' });
    expect(editorPair(store, 'ann', 2)).toMatchObject({ status: 'flagged', note: 'imported' });
    // The annotator's gold is found as before; no adjudicated gold until an adjudication.
    expect(goldIdOf(store, 'ann')).toBe(1);
    expect(adjudicatedGoldId(store)).toBeNull();
    store.close();
  });
});
