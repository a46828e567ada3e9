// The lexicon's "Link all" never writes a guess (review/concordance.ts): occurrences are
// paired along the model's links only, a pairing no link supports is listed unticked with
// its reason and is written only when the user keeps it; and the lexicon's model counts
// leave out links the annotator rejected. The pairs are the issue's: ປະຈຳ of "the embassy
// in Lao PDR" next to ประจำ of "annual", and two occurrences on each side that the model
// pairs against their positions.
import { describe, expect, test } from 'vitest';
import { bulkFix, lexiconEntries } from '../../../src/main/review/concordance.ts';
import { editorPair, setRejected } from '../../../src/main/review/editor.ts';
import { setAnnotatorsShare } from '../../../src/main/store/annotation-mode.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { model, project } from './fixture.ts';

const dir = tempDir('mekong-lexicon-bulk-');
const [LO, TH] = ['ປະຈຳ', 'ประจำ'];

const PAIRS: [string, string][] = [
  // 0: the embassy in Lao PDR (ປະຈຳ 2) and an annual event (ประจำ 5): the model links ປະຈຳ to เวียงจันทน์, not to ประจำ
  ['ສະຖານທູດ ໄທ ປະຈຳ ສປປ ລາວ ຈັດ ງານ', 'สถานทูต ไทย ณ เวียงจันทน์ จัด งาน ประจำ ปี'],
  // 1: two occurrences on each side, ປະຈຳ 1 and 5, ประจำ 4 and 7; the model pairs 5 with 4 (position would cross them: 1→4, 5→7)
  ['ກອງ ປະຈຳ ແຂວງ ແລະ ທູດ ປະຈຳ ລາວ ໃໝ່', 'กอง ทูต ลาว ใหม่ ประจำ แขวง และ ประจำ'],
  // 2: the model supports the one pairing
  ['ທູດ ປະຈຳ', 'ทูต ประจำ'],
  // 3: twice on the Lao side, once on the Thai side: the model links the second
  ['ປະຈຳ ເດືອນ ປະຈຳ', 'ประจำ'],
];

function plan(changes: Awaited<ReturnType<typeof bulkFix>>, pairId: number) {
  const c = changes.find((x) => x.pairId === pairId)!;
  return { add: c.add.map((l) => ({ link: `${l.s}-${l.t}`, by: l.by, reason: l.reason })), unmatched: c.unmatched };
}

describe('Link all', () => {
  test('pairs occurrences along the model links only; unsupported pairings are listed for review, never written unasked', async () => {
    const { store, ids } = project(dir, PAIRS);
    const m = model(store, ids, [[[2, 3, 0.97]], [[5, 4, 1]], [[1, 1, 0.9]], [[2, 0, 0.8]]]);
    const preview = await bulkFix(store, 'ann', LO, TH, 'add', false, m);
    expect(plan(preview, ids[0])).toEqual({
      add: [{ link: '2-6', by: 'unsupported', reason: 'no model link between these occurrences' }],
      unmatched: { src: [], tgt: [] },
    });
    expect(plan(preview, ids[1])).toEqual({
      add: [
        { link: '1-7', by: 'unsupported', reason: 'no model link between these occurrences' },
        { link: '5-4', by: 'model', reason: undefined },
      ],
      unmatched: { src: [], tgt: [] },
    });
    expect(plan(preview, ids[2]).add).toEqual([{ link: '1-1', by: 'model', reason: undefined }]);
    expect(plan(preview, ids[3])).toEqual({ add: [{ link: '2-0', by: 'model', reason: undefined }], unmatched: { src: [0], tgt: [] } });

    // Applying without a choice writes the supported links only.
    await bulkFix(store, 'ann', LO, TH, 'add', true, m);
    expect(ids.map((id) => editorPair(store, 'ann', id).gold.map((l) => `${l.s}-${l.t}`))).toEqual([[], ['5-4'], ['1-1'], ['2-0']]);
    // What is left is listed for review again; the user ticks one of them and only that one is written.
    const again = await bulkFix(store, 'ann', LO, TH, 'add', false, m);
    expect(again.flatMap((c) => c.add.map((l) => `${c.pairId}:${l.s}-${l.t}:${l.by}`))).toEqual([
      `${ids[0]}:2-6:unsupported`,
      `${ids[1]}:1-7:unsupported`,
    ]);
    await bulkFix(store, 'ann', LO, TH, 'add', true, m, [{ pairId: ids[1], s: 1, t: 7 }]);
    expect(editorPair(store, 'ann', ids[1]).gold.map((l) => `${l.s}-${l.t}`)).toEqual(['1-7', '5-4']);
    expect(editorPair(store, 'ann', ids[0]).gold).toEqual([]);
    store.close();
  });

  test('a rejected model link supports nothing: its pairing is listed for review, saying so', async () => {
    const { store, ids } = project(dir, [PAIRS[2]]);
    const m = model(store, ids, [[[1, 1, 0.9]]]);
    setRejected(store, 'ann', ids[0], [{ s: 1, t: 1 }]);
    const preview = await bulkFix(store, 'ann', LO, TH, 'add', false, m);
    expect(plan(preview, ids[0]).add).toEqual([
      { link: '1-1', by: 'unsupported', reason: "the model's link between these occurrences was rejected" },
    ]);
    expect(await bulkFix(store, 'ann', LO, TH, 'add', true, m)).toEqual([]);
    expect(editorPair(store, 'ann', ids[0]).gold).toEqual([]);
    store.close();
  });

  test('without a model alignment every pairing is listed for review', async () => {
    const { store, ids } = project(dir, [PAIRS[2]]);
    const preview = await bulkFix(store, 'ann', LO, TH, 'add', false, null);
    expect(plan(preview, ids[0]).add).toEqual([{ link: '1-1', by: 'unsupported', reason: 'no model link between these occurrences' }]);
    store.close();
  });
});

describe('lexicon counts', () => {
  test("leave out the model links the annotator rejected (everyone's when annotators share)", async () => {
    const { store, ids } = project(dir, [
      ['ປະຈຳ ວຽງຈັນ', 'ประจำ เวียงจันทน์'],
      ['ປະຈຳ ລາວ', 'ประจำ เวียงจันทน์'],
      ['ປະຈຳ ປີ', 'เวียงจันทน์ ปี'],
    ]);
    const m = model(store, ids, [[[0, 1, 0.6]], [[0, 1, 0.6]], [[0, 0, 0.6]]]);
    const count = (who: string) => lexiconEntries(store, who, m, 'ປະຈຳ', 10).find((e) => e.tgt === 'เวียงจันทน์')?.model ?? 0;
    expect(count('ann')).toBe(3);
    const rejected = await bulkFix(store, 'ann', LO, 'เวียงจันทน์', 'reject', true, m, [
      { pairId: ids[0], s: 0, t: 1 },
      { pairId: ids[1], s: 0, t: 1 },
    ]);
    expect(rejected).toHaveLength(2);
    expect(count('ann')).toBe(1);
    // Blind annotation: another annotator's counts keep the links only ann rejected.
    expect(count('bob')).toBe(3);
    setAnnotatorsShare(store, true);
    expect(count('bob')).toBe(1);
    await bulkFix(store, 'ann', LO, 'เวียงจันทน์', 'reject', true, m);
    expect(lexiconEntries(store, 'ann', m, 'ປະຈຳ', 10).some((e) => e.tgt === 'เวียงจันทน์')).toBe(false);
    store.close();
  });
});
