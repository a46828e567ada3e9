// The editor's store: gold link edits with "not translated" marks and tags, rejections,
// undo/redo (single and grouped), blind and shared double annotation, adjudication,
// review-queue order, lexicon counts, the bulk fix and agreement.
import { describe, expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { editorPair, setGold, setRejected } from '../../../src/main/review/editor.ts';
import { reviewQueue } from '../../../src/main/review/queue.ts';
import { bulkFix, lexiconEntries, occurrences } from '../../../src/main/review/concordance.ts';
import { agreementReport } from '../../../src/main/review/agreement.ts';
import { adjudication, setAdjudicated } from '../../../src/main/review/adjudication.ts';
import { mergeTokensEdit, splitTokenEdit } from '../../../src/main/review/segmentation-fixes.ts';
import { setLinkTags } from '../../../src/main/store/project-link-tags.ts';
import { setAnnotatorsShare } from '../../../src/main/store/annotation-mode.ts';
import { createAlignment, linkInserter, rejectedWithAnnotator } from '../../../src/main/store/alignments.ts';
import { createModelRun, setRunSetup } from '../../../src/main/store/training-runs.ts';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { markDone, model, possible, project, sure } from './fixture.ts';

const dir = tempDir('mekong-editor-');
const PAIRS: [string, string][] = [
  ['a b c', 'x y z'],
  ['a d', 'x w'],
  ['b a', 'y x'],
  ['ee', 'v'],
];

describe('gold edits', () => {
  test('are committed, logged, survive reopening, and undo/redo step by step', () => {
    const { store, ids } = project(dir, PAIRS);
    expect(editorPair(store, 'ann', ids[0]).goldId).toBeNull();
    setGold(store, 'ann', ids[0], [sure(0, 0)], []);
    const two = setGold(store, 'ann', ids[0], [sure(0, 0), possible(1, 1)], [{ side: 'tgt', index: 2 }]);
    expect(two.gold).toEqual([sure(0, 0), possible(1, 1)]);
    expect(two.untranslated).toEqual([{ side: 'tgt', index: 2 }]);
    const path = store.path;
    store.close();
    const again = ProjectStore.open(path);
    expect(editorPair(again, 'ann', ids[0]).gold).toEqual([sure(0, 0), possible(1, 1)]);
    expect(editorPair(again, 'other', ids[0]).gold).toEqual([]);
    again.undo('ann');
    expect(editorPair(again, 'ann', ids[0])).toMatchObject({ gold: [sure(0, 0)], untranslated: [] });
    again.undo('ann');
    expect(editorPair(again, 'ann', ids[0]).gold).toEqual([]);
    expect(again.undo('ann')).toBeNull();
    again.redo('ann');
    again.redo('ann');
    expect(editorPair(again, 'ann', ids[0]).untranslated).toEqual([{ side: 'tgt', index: 2 }]);
    again.close();
  });

  test("carry a tag from the project's set; an unknown tag is refused, a tag dropped from the set stays on its link", () => {
    const { store, ids } = project(dir, PAIRS);
    expect(store.info().linkTags).toEqual([
      'semantic',
      'function',
      'grammatically inferred',
      'contextually inferred',
      'translated incorrectly',
    ]);
    const tagged = { ...sure(0, 0), tag: 'function' };
    expect(setGold(store, 'ann', ids[0], [tagged, sure(1, 1)], []).gold).toEqual([tagged, sure(1, 1)]);
    expect(() => setGold(store, 'ann', ids[0], [{ ...sure(1, 1), tag: 'deixis' }], [])).toThrow(
      /link 1-1: "deixis" is not one of the project's link tags/,
    );
    setLinkTags(store, ['deixis', 'semantic']);
    expect(store.info().linkTags).toEqual(['deixis', 'semantic']);
    // 'function' is no longer in the set: the link keeps it through other edits, and may not gain it elsewhere.
    const next = setGold(store, 'ann', ids[0], [tagged, { ...sure(1, 1), tag: 'deixis' }], []);
    expect(next.gold.map((l) => l.tag)).toEqual(['function', 'deixis']);
    expect(() => setGold(store, 'ann', ids[0], [tagged, { ...sure(1, 1), tag: 'function' }], [])).toThrow(/not one of/);
    expect(() => setLinkTags(store, ['a', 'a'])).toThrow(/must differ/);
    expect(() =>
      setLinkTags(
        store,
        Array.from({ length: 10 }, (_, i) => `t${i}`),
      ),
    ).toThrow();
    store.undo('ann');
    expect(editorPair(store, 'ann', ids[0]).gold).toEqual([tagged, sure(1, 1)]);
    store.close();
  });

  test('reject links outside the pair and ignore no-op edits', () => {
    const { store, ids } = project(dir, PAIRS);
    expect(() => setGold(store, 'ann', ids[1], [sure(5, 0)], [])).toThrow(/outside/);
    setGold(store, 'ann', ids[1], [], []);
    expect(store.undo('ann')).toBeNull();
    store.close();
  });

  test('rejections are stored and undoable; split and merge re-index links, marks and rejections', () => {
    const { store, ids } = project(dir, PAIRS);
    setRejected(store, 'ann', ids[0], [{ s: 2, t: 0 }]);
    expect(editorPair(store, 'ann', ids[0]).rejected).toEqual([{ s: 2, t: 0 }]);
    store.undo('ann');
    expect(editorPair(store, 'ann', ids[0]).rejected).toEqual([]);
    setGold(store, 'ann', ids[3], [sure(0, 0)], []);
    splitTokenEdit(store, 'ann', ids[3], 'src', 0, 1);
    expect(editorPair(store, 'ann', ids[3]).gold).toEqual([sure(0, 0), sure(1, 0)]);
    store.undo('ann');
    expect(editorPair(store, 'ann', ids[3])).toMatchObject({ gold: [sure(0, 0)], srcTokens: [{ text: 'ee' }] });
    // Marks and rejections follow their tokens through a merge, and back on undo.
    setGold(store, 'ann', ids[0], [], [{ side: 'src', index: 2 }]);
    setRejected(store, 'ann', ids[0], [
      { s: 2, t: 1 },
      { s: 0, t: 0 },
    ]);
    mergeTokensEdit(store, 'ann', ids[0], 'src', 0);
    expect(editorPair(store, 'ann', ids[0])).toMatchObject({
      untranslated: [{ side: 'src', index: 1 }],
      rejected: [
        { s: 0, t: 0 },
        { s: 1, t: 1 },
      ],
    });
    store.undo('ann');
    expect(editorPair(store, 'ann', ids[0])).toMatchObject({
      untranslated: [{ side: 'src', index: 2 }],
      rejected: [
        { s: 0, t: 0 },
        { s: 2, t: 1 },
      ],
    });
    store.close();
  });
});

describe('double annotation', () => {
  test("blind by default: a second annotator sees neither the first one's gold nor their rejections; shared on request", () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [[[1, 2, 0.8]], [], [], []]);
    setGold(store, 'ann', ids[0], [sure(0, 0)], []);
    setRejected(store, 'ann', ids[0], [{ s: 1, t: 2 }]);
    const annGold = editorPair(store, 'ann', ids[0]).goldId!;
    const bob = editorPair(store, 'bob', ids[0]);
    expect(bob.alignments.map((a) => a.alignmentId)).toEqual([m]);
    expect(bob.rejected).toEqual([]);
    // Both reject the same link; one un-rejecting leaves the other's rejection.
    setRejected(store, 'bob', ids[0], [{ s: 1, t: 2 }]);
    setRejected(store, 'ann', ids[0], []);
    expect(editorPair(store, 'bob', ids[0]).rejected).toEqual([{ s: 1, t: 2 }]);
    expect(editorPair(store, 'ann', ids[0]).rejected).toEqual([]);
    store.undo('ann');
    expect(rejectedWithAnnotator(store, ids[0]).map((r) => r.annotator)).toEqual(['ann', 'bob']);
    // A merge re-indexes everyone's rejections, and its undo puts them back with who made them.
    mergeTokensEdit(store, 'bob', ids[0], 'src', 0);
    expect(rejectedWithAnnotator(store, ids[0]).map((r) => `${r.s}-${r.t}:${r.annotator}`)).toEqual(['0-2:ann', '0-2:bob']);
    store.undo('bob');
    expect(rejectedWithAnnotator(store, ids[0]).map((r) => `${r.s}-${r.t}:${r.annotator}`)).toEqual(['1-2:ann', '1-2:bob']);
    // Shared: everyone's gold and rejections are seen; an un-reject then removes the link's rejections, undone with attribution.
    setAnnotatorsShare(store, true);
    expect(store.info().annotatorsShare).toBe(true);
    const shared = editorPair(store, 'carl', ids[0]);
    expect(shared.alignments.map((a) => a.alignmentId).sort()).toEqual([annGold, m].sort());
    expect(shared.rejected).toEqual([{ s: 1, t: 2 }]);
    setRejected(store, 'carl', ids[0], []);
    expect(rejectedWithAnnotator(store, ids[0])).toEqual([]);
    store.undo('carl');
    expect(rejectedWithAnnotator(store, ids[0]).map((r) => r.annotator)).toEqual(['ann', 'bob']);
    store.close();
  });
});

describe('adjudication', () => {
  test("reads two annotators' layers with their marks and the adjudicated gold; refuses what is not two annotators' golds", () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [[[0, 0, 0.9]], [], [], []]);
    const a = setGold(store, 'ann', ids[0], [sure(0, 0)], [{ side: 'tgt', index: 2 }]).goldId as number;
    const b = setGold(store, 'bob', ids[0], [possible(0, 1)], []).goldId as number;
    const adj = adjudication(store, ids[0], a, b);
    expect(adj.left).toEqual({ annotator: 'ann', alignmentId: a, links: [sure(0, 0)], untranslated: [{ side: 'tgt', index: 2 }] });
    expect(adj.right).toMatchObject({ annotator: 'bob', links: [possible(0, 1)], untranslated: [] });
    expect(adj.result).toEqual({ annotator: 'adjudicated', alignmentId: null, links: [], untranslated: [] });
    expect(() => adjudication(store, ids[0], a, a)).toThrow(/two different/);
    expect(() => adjudication(store, ids[0], a, m)).toThrow(/not an annotator's gold/);
    const result = setAdjudicated(store, 'cur', ids[0], [sure(0, 0)], []);
    expect(() => adjudication(store, ids[0], a, result.alignmentId as number)).toThrow(/not an annotator's gold/);
    store.close();
  });
});

describe('review queue', () => {
  test('orders by uncertainty and by disagreement, with filters', () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [
      [
        [0, 0, 0.99],
        [1, 1, 0.98],
        [2, 2, 0.97],
      ],
      [
        [0, 0, 0.5],
        [1, 1, 0.6],
      ],
      [[0, 1, 0.9]],
      [[0, 0, 1]],
    ]);
    const q = reviewQueue(store, { alignmentId: m, offset: 0, limit: 10 });
    expect(q.items.map((i) => i.id)).toEqual([ids[1], ids[2], ids[0], ids[3]]);
    const n = model(store, ids, [
      [
        [0, 0, 1],
        [1, 1, 1],
        [2, 2, 1],
      ],
      [[0, 1, 1]],
      [[0, 1, 1]],
      [[0, 0, 1]],
    ]);
    const d = reviewQueue(store, { alignmentId: m, versusId: n, offset: 0, limit: 10 });
    expect(d.items[0]).toMatchObject({ id: ids[1], score: 1 });
    setGold(store, 'ann', ids[3], [sure(0, 0)], []);
    expect(reviewQueue(store, { alignmentId: m, annotator: 'ann', offset: 0, limit: 10 }).items.map((i) => i.id)).toEqual([ids[3]]);
    expect(reviewQueue(store, { alignmentId: m, text: 'd', offset: 0, limit: 10 }).total).toBe(1);
    store.close();
  });
});

describe('lexicon', () => {
  test('counts gold and model links, finds occurrences, bulk-adds and undoes as one', async () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [[[0, 0, 0.9]], [[0, 0, 0.9]], [[1, 1, 0.9]], []]);
    setGold(store, 'ann', ids[0], [sure(0, 0), sure(2, 2)], []);
    const entries = lexiconEntries(store, 'ann', m, '', 10);
    expect(entries[0]).toEqual({ src: 'a', tgt: 'x', gold: 1, model: 3 });
    expect(occurrences(store, 'ann', 'A', 'x', m).occurrences.map((o) => o.pairId)).toEqual([ids[0], ids[1], ids[2]]);
    const preview = await bulkFix(store, 'ann', 'a', 'x', 'add', false, m);
    expect(preview.map(({ pairId, add, remove, unmatched }) => ({ pairId, add, remove, unmatched }))).toEqual([
      { pairId: ids[1], add: [{ s: 0, t: 0, score: 0.9, by: 'model' }], remove: [], unmatched: { src: [], tgt: [] } },
      { pairId: ids[2], add: [{ s: 1, t: 1, score: 0.9, by: 'model' }], remove: [], unmatched: { src: [], tgt: [] } },
    ]);
    expect(preview[0].srcTokens.map((t) => t.text)).toEqual(store.getPair(ids[1]).srcTokens.map((t) => t.text));
    expect(editorPair(store, 'ann', ids[1]).gold).toEqual([]);
    await bulkFix(store, 'ann', 'a', 'x', 'add', true, m);
    expect(editorPair(store, 'ann', ids[2]).gold).toEqual([sure(1, 1)]);
    setGold(store, 'ann', ids[3], [sure(0, 0)], []);
    store.undo('ann');
    store.undo('ann');
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([2, 0, 0, 0]);
    store.redo('ann');
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([2, 1, 1, 0]);
    await bulkFix(store, 'ann', 'a', 'x', 'remove', true);
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([1, 0, 0, 0]);
    store.undo('ann');
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([2, 1, 1, 0]);
    store.close();
  });

  test('Link all pairs occurrences one to one along the model links; only the kept links apply', async () => {
    const { store, ids } = project(dir, [
      ['ປະຈຳ ແຂວງ ປະຈຳ', 'ประจำ จังหวัด'], // two Lao occurrences, one Thai: the one the model links
      ['ປະຈຳ ກ ຂ ປະຈຳ', 'ประจำ ค ง ประจำ'], // 2×2, both paired by the model
      ['ປະຈຳ ກ ປະຈຳ', 'ง ประจำ ค ประจำ'], // 2×2 where the model pairs the first only: the other pairing is for review
      ['ປະຈຳ', 'ประจำ'],
    ]);
    const m = model(store, ids, [
      [[2, 0, 0.7]],
      [
        [0, 0, 0.9],
        [3, 3, 0.9],
      ],
      [[0, 3, 0.95]],
      [[0, 0, 0.9]],
    ]);
    const plan = await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'add', false, m);
    const byPair = new Map(plan.map((c) => [c.pairId, c]));
    expect(byPair.get(ids[0])!.add.map(({ s, t }) => `${s}-${t}`)).toEqual(['2-0']);
    expect(byPair.get(ids[0])!.unmatched).toEqual({ src: [0], tgt: [] });
    expect(byPair.get(ids[1])!.add.map(({ s, t }) => `${s}-${t}`)).toEqual(['0-0', '3-3']);
    expect(byPair.get(ids[2])!.add).toEqual([
      { s: 0, t: 3, score: 0.95, by: 'model' },
      { s: 2, t: 1, score: null, by: 'unsupported', reason: 'no model link between these occurrences' },
    ]);
    for (const c of plan) {
      expect(new Set(c.add.map((l) => l.s)).size).toBe(c.add.length);
      expect(new Set(c.add.map((l) => l.t)).size).toBe(c.add.length);
    }
    // Keep all but pair 2's second link.
    const keep = plan
      .flatMap((c) => c.add.map((l) => ({ pairId: c.pairId, s: l.s, t: l.t })))
      .filter((l) => !(l.pairId === ids[1] && l.s === 3));
    await expect(bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'add', true, m, [...keep, { pairId: ids[0], s: 0, t: 0 }])).rejects.toThrow(
      /not one the preview proposed/,
    );
    await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'add', true, m, keep);
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.map((l) => `${l.s}-${l.t}`))).toEqual([
      ['2-0'],
      ['0-0'],
      ['0-3', '2-1'],
      ['0-0'],
    ]);
    // A second Link all adds the remaining pair-2 link only; one undo removes the whole first group.
    expect(
      (await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'add', false, m)).flatMap((c) => c.add.map((l) => `${c.pairId}:${l.s}-${l.t}`)),
    ).toEqual([`${ids[1]}:3-3`]);
    store.undo('ann');
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([0, 0, 0, 0]);
    // A wrong model link is rejected corpus-wide: never suggested again, and labelled so.
    const reject = await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'reject', true, m, [{ pairId: ids[2], s: 0, t: 3 }]);
    expect(reject.flatMap((c) => c.remove.map((l) => `${c.pairId}:${l.s}-${l.t}`))).toEqual([`${ids[2]}:0-3`]);
    expect(editorPair(store, 'ann', ids[2]).rejected).toEqual([{ s: 0, t: 3 }]);
    expect(occurrences(store, 'ann', 'ປະຈຳ', 'ประจำ', m).occurrences.find((o) => o.pairId === ids[2])!.rejected).toEqual([{ s: 0, t: 3 }]);
    expect((await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'reject', false, m)).map((c) => c.pairId)).toEqual([ids[0], ids[1], ids[3]]);
    store.undo('ann');
    expect(editorPair(store, 'ann', ids[2]).rejected).toEqual([]);
    store.close();
  });
});

describe('agreement', () => {
  test('a model trained on gold is flagged, and scored apart on the held-out pairs', () => {
    const { store, ids } = project(dir, PAIRS);
    const a = setGold(store, 'ann', ids[0], [sure(0, 0), sure(1, 1)], []).goldId as number;
    setGold(store, 'ann', ids[1], [sure(0, 0), sure(1, 1)], []);
    store.updatePair('ann', ids[1], { split: 'dev' });
    markDone(store, [ids[0], ids[1]]);
    const config = trainOptionsSchema.parse({ method: 'bilstm-ctl' });
    const untrained = model(store, ids, [[[0, 0, 0.9]], [[0, 1, 0.9]], [], []]);
    expect(agreementReport(store, a, untrained).trained).toBeUndefined();
    const { runId } = createModelRun(store, 'bilstm', config);
    setRunSetup(store, runId, config, { pairs: 4, goldPairs: 1, pseudoPairs: 0, evalPairs: 1 });
    const trained = createAlignment(store, { origin: 'model', name: 'bilstm run', runId });
    store.transaction(() => {
      linkInserter(store, trained)(ids[0], [
        { s: 0, t: 0, kind: 'sure', score: 0.9 },
        { s: 1, t: 1, kind: 'sure', score: 0.9 },
      ]);
      linkInserter(store, trained)(ids[1], [{ s: 0, t: 1, kind: 'sure', score: 0.9 }]);
    });
    const r = agreementReport(store, a, trained);
    expect(r.overall.pairs).toBe(2);
    expect(r.trained).toMatchObject({ runId, trainPairs: 1, heldOut: { pairs: 1, precision: 0, recall: 0, aer: 1 } });
    expect(r.overall.aer).toBeCloseTo(1 - 4 / 7);
    store.close();
  });

  test('scores a model and another annotator against gold', () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [
      [
        [0, 0, 0.9],
        [1, 2, 0.9],
      ],
      [[0, 0, 0.9]],
      [],
      [],
    ]);
    const a = setGold(store, 'ann', ids[0], [sure(0, 0), possible(1, 1)], []).goldId as number;
    const b = setGold(store, 'bob', ids[0], [sure(0, 0)], []).goldId as number;
    setGold(store, 'bob', ids[1], [sure(0, 0)], []);
    markDone(store, [ids[0], ids[1]]);
    const r = agreementReport(store, a, m);
    expect(r.overall).toMatchObject({ pairs: 1, precision: 0.5, recall: 1, reference: 2, candidate: 2, both: 1 });
    expect(r.overall.aer).toBeCloseTo(1 - 2 / 3);
    const ab = agreementReport(store, a, b);
    expect(ab.pairs.map((p) => p.pairId)).toEqual([ids[0]]);
    expect(ab.overall).toMatchObject({ precision: 1, recall: 1, aer: 0 });
    store.close();
  });
});
