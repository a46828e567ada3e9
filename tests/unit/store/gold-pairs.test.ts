// Which pairs count as gold (store/pair-corpus.ts): a pair holding gold links is a gold pair
// when it is In review or Done; links a lexicon "Link all" put on pairs nobody reviewed are
// partial gold. Every counter keeps to that rule: training's gold pairs and its held-out
// evaluation, agreement against a gold layer; the links themselves stay for an Align to keep.
import { describe, expect, test } from 'vitest';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';
import { bulkFix } from '../../../src/main/review/concordance.ts';
import { agreementReport } from '../../../src/main/review/agreement.ts';
import { editorPair, setGold } from '../../../src/main/review/editor.ts';
import { goldByPair, goldCountingPairIds } from '../../../src/main/store/pair-corpus.ts';
import { trainingSet } from '../../../src/main/train/project-data.ts';
import { model, project, sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-gold-pairs-');

describe('gold pairs', () => {
  test('are the pairs In review or Done: bulk links on pairs nobody reviewed are partial gold, in every counter', async () => {
    const { store, ids } = project(dir, [
      ['ປະຈຳ ແຂວງ', 'ประจำ จังหวัด'],
      ['ປະຈຳ ປີ', 'ประจำ ปี'],
      ['ທູດ ປະຈຳ', 'ทูต ประจำ'],
      ['ປະຈຳ ວັນ', 'ประจำ วัน'],
      ['ງານ ປະຈຳ', 'งาน ประจำ'],
      ['ປະຈຳ ເດືອນ', 'ประจำ เดือน'],
    ]);
    const m = model(store, ids, [
      [
        [0, 0, 0.9],
        [1, 1, 0.9],
      ],
      [[0, 0, 0.9]],
      [[1, 1, 0.9]],
      [[0, 0, 0.9]],
      [[1, 1, 0.9]],
      [[0, 0, 0.9]],
    ]);
    // Pairs 0 and 1 reviewed in the editor (Done, In review); pair 5 flagged.
    const goldId = setGold(store, 'ann', ids[0], [sure(0, 0), sure(1, 1)], []).goldId!;
    setGold(store, 'ann', ids[1], [sure(0, 0), sure(1, 1)], []);
    store.updatePair('ann', ids[0], { status: 'done' });
    store.updatePair('ann', ids[1], { status: 'in-review' });
    store.updatePair('ann', ids[5], { status: 'flagged' });
    store.updatePair('ann', ids[4], { split: 'dev' });
    // Link all puts one link on each of pairs 2–5, which nobody reviewed.
    await bulkFix(store, 'ann', 'ປະຈຳ', 'ประจำ', 'add', true, m);
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.length)).toEqual([2, 2, 1, 1, 1, 1]);

    expect(goldCountingPairIds(store)).toEqual(new Set([ids[0], ids[1]]));
    const sizes = (gold: ReturnType<typeof goldByPair>) => Array.from(gold, (g) => g?.sure.length ?? 0);
    expect(sizes(goldByPair(store, ids, 'counting'))).toEqual([2, 2, 0, 0, 0, 0]);
    // Every gold link stays a link: an Align keeps them all.
    expect(sizes(goldByPair(store, ids, 'all'))).toEqual([2, 2, 1, 1, 1, 1]);

    const set = trainingSet(store, trainOptionsSchema.parse({ pseudoAlignmentId: m }));
    expect(set.stats).toMatchObject({ goldPairs: 2, partialGoldPairs: 4, pseudoPairs: 4, evalPairs: 0 });
    // A partial-gold pair is supervised as any unreviewed pair (here by the pseudo alignment), not by its one bulk link.
    expect(set.supervision[2]).toEqual([{ s: 1, t: 1 }]);
    expect(set.evalIndex).toEqual([]);

    const report = agreementReport(store, goldId, m);
    expect(report.overall).toMatchObject({ pairs: 2, reference: 4, candidate: 3, both: 3 });
    expect(report.partialGoldPairs).toBe(4);
    expect(report.pairs.map((p) => p.pairId)).toEqual([ids[0], ids[1]]);

    // Reviewing a pair makes its gold count, in training and agreement alike.
    store.updatePair('ann', ids[4], { status: 'done' });
    expect(trainingSet(store, trainOptionsSchema.parse({ pseudoAlignmentId: m })).stats).toMatchObject({
      goldPairs: 2,
      partialGoldPairs: 3,
      evalPairs: 1,
    });
    expect(agreementReport(store, goldId, m)).toMatchObject({ overall: { pairs: 3 }, partialGoldPairs: 3 });
    store.close();
  });
});
