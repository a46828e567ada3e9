// What a run trains and is evaluated on (train/project-data.ts), and its progress line
// (train/step-meter.ts): gold of train pairs supervises, dev/test gold is held out with its
// pair's rejected and pseudo links, pseudo links count from the threshold up, attached
// dictionaries add their one-to-one matches.
import { describe, expect, test } from 'vitest';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';
import { goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { trainingSet } from '../../../src/main/train/project-data.ts';
import { attachDictionary } from '../../../src/main/store/dictionaries.ts';
import { StepMeter } from '../../../src/main/train/step-meter.ts';
import { markDone, model, possible, project, sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-training-set-');

describe('training set', () => {
  test('supervision, hard negatives and the evaluation set', () => {
    const { store, ids } = project(dir, [
      ['A b', 'x y'],
      ['a c', 'x z'],
      ['b', 'y'],
      ['c', 'z'],
    ]);
    const insert = linkInserter(store, goldAlignmentOf(store, 'anna'));
    const other = linkInserter(store, goldAlignmentOf(store, 'ben'));
    store.transaction(() => {
      insert(ids[0], [sure(0, 0)]);
      other(ids[0], [possible(0, 0), possible(1, 1)]);
      insert(ids[3], [sure(0, 0)]);
    });
    dbOf(store).prepare(`UPDATE pairs SET split = 'test' WHERE id = ?`).run(ids[3]);
    markDone(store, [ids[0], ids[3]]);
    const reject = dbOf(store).prepare(`INSERT INTO rejected_links (pair_id, s, t, annotator, created_at) VALUES (?, 0, 0, 'anna', 'now')`);
    reject.run(ids[1]);
    reject.run(ids[3]);
    const pseudo = model(store, ids, [
      [[0, 0, 0.95]],
      [
        [0, 0, 0.95],
        [1, 1, 0.5],
      ],
      [[0, 0, 0.9]],
      [[0, 0, 1]],
    ]);
    const set = trainingSet(store, trainOptionsSchema.parse({ pseudoAlignmentId: pseudo }));
    expect(set.corpus.src[0]).toEqual(['a', 'b']);
    expect(set.supervision).toEqual([
      [
        { s: 0, t: 0 },
        { s: 1, t: 1 },
      ],
      [{ s: 0, t: 0 }],
      [{ s: 0, t: 0 }],
      undefined,
    ]);
    expect(set.rejected).toEqual([undefined, [{ s: 0, t: 0 }], undefined, undefined]);
    expect(set.evalIndex).toEqual([3]);
    expect(set.evalGold).toEqual([{ sure: [[0, 0]], possible: [] }]);
    expect(set.stats).toEqual({ pairs: 4, goldPairs: 1, partialGoldPairs: 0, pseudoPairs: 2, dictionaryPairs: 0, evalPairs: 1 });
    const noGold = trainingSet(store, trainOptionsSchema.parse({ useGold: false, useRejected: false, lowercase: false }));
    expect(noGold.corpus.src[0]).toEqual(['A', 'b']);
    expect(noGold.supervision.every((l) => l === undefined)).toBe(true);
    expect(noGold.rejected.every((l) => l === undefined)).toBe(true);
    store.close();
  });

  test("the attached dictionaries' one-to-one matches supervise pairs without gold, next to pseudo links", () => {
    const { store, ids } = project(dir, [
      ['ກິນ ເຂົ້າ', 'eat rice'],
      ['ກິນ ນ້ຳ', 'drink water'],
      ['ເຂົ້າ ເຂົ້າ', 'rice'],
    ]);
    linkInserter(store, goldAlignmentOf(store, 'anna'))(ids[1], [sure(1, 1)]);
    markDone(store, [ids[1]]);
    const pseudo = model(store, ids, [[[1, 1, 0.95]], [], []]);
    attachDictionary(store, {
      name: 'lo-en',
      source: { dicts: ['lo-en:test'] },
      text: 'ກິນ\teat\t1\nເຂົ້າ\trice\t1\nນ້ຳ\twater\t1\n',
      entries: 3,
    });
    const set = trainingSet(store, trainOptionsSchema.parse({ pseudoAlignmentId: pseudo }));
    expect(set.supervision).toEqual([
      [
        { s: 1, t: 1 },
        { s: 0, t: 0 },
      ],
      [{ s: 1, t: 1 }],
      undefined, // ເຂົ້າ twice: no one-to-one match
    ]);
    expect(set.stats).toMatchObject({ goldPairs: 1, pseudoPairs: 1, dictionaryPairs: 1 });
    store.close();
  });
});

test('progress line: epoch, epoch mean loss, speed over recent steps, ETA', () => {
  let now = 0;
  const meter = new StepMeter(10, 3, {}, () => now);
  expect(meter.step(1, 4)).toBe('epoch 1/3 · loss 4.00');
  now = 500;
  expect(meter.step(2, 2)).toBe('epoch 1/3 · loss 3.00 · 2.0 steps/s · ETA 14 s');
  for (let s = 3; s <= 11; s++) meter.step(s, 1);
  expect(meter.step(12, 3)).toMatch(/^epoch 2\/3 · loss 2\.00 · /);
});

test('progress line of a later phase: its own label and epochs, steps counted over the run', () => {
  let now = 0;
  const meter = new StepMeter(5, 2, { firstStep: 40, label: 'self-training epoch' }, () => now);
  expect(meter.total).toBe(50);
  expect(meter.step(41, 2)).toBe('self-training epoch 1/2 · loss 2.00');
  for (let s = 42; s <= 45; s++) {
    now += 1000;
    meter.step(s, 2);
  }
  now += 1000;
  expect(meter.step(46, 1)).toBe('self-training epoch 2/2 · loss 1.00 · 1.0 steps/s · ETA 4 s');
});
