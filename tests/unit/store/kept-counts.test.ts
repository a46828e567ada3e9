// The counts the app reads at a million pairs (issue 41 item 3): the review queue's token
// counts come from an index (migration 16, pairs_queue) and stay exact past the width they are
// packed in; project.info's link counts are kept from the Align job's link summaries, yet
// exact after edits, undo, imports and from a second connection.
import { describe, expect, test } from 'vitest';
import type { Link } from '../../../src/shared/domain.ts';
import { reviewQueue } from '../../../src/main/review/queue.ts';
import { listAlignments, newestModelAlignment, pairLinksReader } from '../../../src/main/store/alignments.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { recordEdit } from '../../../src/main/store/edits.ts';
import { storeModelAlignment } from '../../../src/main/store/model-alignments.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { model, project } from '../review/fixture.ts';

const dir = tempDir('mekong-kept-counts-');

/** Pairs with words in several casings (Ü, final sigma, the Kelvin sign), some repeated. */
const PAIRS: [string, string][] = [
  ['The cat sat', 'Die Katze saß'],
  ['the dog', 'der Hund'],
  ['über THE river', 'ÜBER die Brücke die'],
  ['ΟΔΟΣ the', 'οδος Die'],
  ['\u212Aelvin the', 'kelvin die'],
  ['a b c', 'x y z'],
  ['a b', 'ประจำการทหาร'],
  ['"quoted", the end.', 'die \uE000 ; AND OR NOT *'],
];

describe('the review queue’s token counts', () => {
  test('come from the pairs_queue index, and a pair of more tokens than the packed width gets its exact count', () => {
    const long = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ');
    const { store, ids } = project(dir, [
      [long, 'a b'],
      ['a b c', long],
      ['a b', 'c d'],
    ]);
    const m = model(store, ids, [[[0, 0, 0.5]], [[0, 0, 0.9]], [[0, 0, 1]]]);
    const plan = dbOf(store)
      .prepare(
        `EXPLAIN QUERY PLAN SELECT (p.id << 22) | (min(length(p.src_tokens) / 8, 2047) << 11) | min(length(p.tgt_tokens) / 8, 2047)
        FROM pairs p WHERE p.import_id IN (SELECT id FROM imports WHERE state = 'done')`,
      )
      .all() as { detail: string }[];
    expect(plan.map((r) => r.detail).join('; ')).toMatch(/COVERING INDEX pairs_queue/);
    const H = (p: number) => -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
    const expected = new Map([
      [ids[0], (H(0.5) + 2999 + 1) / (1 + 2999 + 1)],
      [ids[1], (H(0.9) + 2 + 2999) / (1 + 2 + 2999)],
      [ids[2], (0 + 1 + 1) / (1 + 2)],
    ]);
    const { items } = reviewQueue(store, { alignmentId: m, offset: 0, limit: 10 });
    expect(items.map((i) => i.id)).toEqual([...expected].sort((a, b) => b[1] - a[1]).map(([id]) => id));
    for (const i of items) expect(i.score).toBeCloseTo(expected.get(i.id)!, 12);
    store.close();
  });
});

describe('project.info’s link counts', () => {
  const counts = (store: ProjectStore) => Object.fromEntries(listAlignments(store).map((a) => [a.id, a.links]));
  const counted = (store: ProjectStore) =>
    Object.fromEntries(
      (
        dbOf(store).prepare('SELECT a.id, (SELECT count(*) FROM links l WHERE l.alignment_id = a.id) AS n FROM alignments a').all() as {
          id: number;
          n: number;
        }[]
      )
        .filter((r) => r.id in counts(store))
        .map((r) => [r.id, r.n]),
    );

  test('are kept from the Align job’s summaries, and stay exact after edits, undo, imports and reopening', async () => {
    const { store, ids } = project(dir, PAIRS.slice(0, 7));
    // pair k gets min(k + 1, 2) links: 13 over the 7 pairs
    const links = (k: number): Link[] => Array.from({ length: Math.min(k + 1, 2) }, (_, t) => ({ s: 0, t, kind: 'sure', score: 0.5 }));
    await storeModelAlignment(store, { name: 'model' }, ids, links);
    const m = newestModelAlignment(store)!;
    expect(counts(store)).toEqual(counted(store));
    expect(counts(store)[m]).toBe(13);

    // kept: the count is not read from the links again (a write behind the edit log's back is not seen)…
    dbOf(store).prepare('DELETE FROM links WHERE alignment_id = ? AND pair_id = ?').run(m, ids[5]);
    expect(counts(store)[m]).toBe(13);
    // …while an edit of the model's links, its undo and a gold edit are
    const before = pairLinksReader(store)(m, ids[4]);
    recordEdit(store, 'ann', ids[4], 'tokens.merge', { links: { [m]: before } }, { links: { [m]: [] } });
    expect(counts(store)[m]).toBe(11);
    store.undo('ann');
    expect(counts(store)[m]).toBe(13);
    recordEdit(store, 'ann', ids[5], 'tokens.merge', { links: { [m]: [] } }, { links: { [m]: before } });
    expect(counts(store)).toEqual(counted(store));

    // an imported alignment, and a second project connection that keeps no summaries
    const imported = model(store, ids, [[[0, 0, 0.5]], [[1, 1, 0.5]]], 'imported');
    expect(counts(store)).toEqual(counted(store));
    const other = ProjectStore.open(store.path);
    expect(counts(other)).toEqual(counted(other));
    recordEdit(
      store,
      'ann',
      ids[0],
      'tokens.merge',
      { links: { [imported]: pairLinksReader(store)(imported, ids[0]) } },
      { links: { [imported]: [] } },
    );
    expect(counts(other)[imported]).toBe(1);
    expect(counts(other)).toEqual(counted(other));
    expect(counts(store)).toEqual(counted(store));
    other.close();
    store.close();
  });
});
