// An export's read of one alignment's links for a batch of pairs (alignments.ts
// linkColumnsOfPairs) gives every pair's links as the per-pair read gives them, whichever way
// the batch is read: whole links in one integer (scores of 4 decimals, small indices, a short
// id range), or in columns when a score has more decimals, an index is 4096 or more, or the ids
// are scattered; tags with either. And the pair rows of a batch (pairs.ts pairRowBatches, the
// token blobs read as one concatenation) give each pair its own tokens.
import { expect, test } from 'vitest';
import type { Link } from '../../../src/shared/domain.ts';
import { createAlignment, linkColumnsOfPairs, linkInserter, linksIn, linksOfPair } from '../../../src/main/store/alignments.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { iteratePairRows, offsetsOf } from '../../../src/main/store/pairs.ts';
import { encodeOffsets } from '../../../src/main/text/offsets.ts';
import { pretokenized } from '../../../src/main/text/segment.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-link-columns-');

const DENSE_SCORES = [0, 0.0001, 0.5, 0.9978, 1, null, 0.3, 2 / 10000];

test('a batch of pairs reads the same links however it is read', () => {
  const rows: [string, string][] = Array.from({ length: 300 }, (_, i) => [`ສະບາຍ ${i} ດີ ${'ກ '.repeat(i % 5)}`, `สวัสดี ${i} ครับ`]);
  const { store, ids } = project(dir, rows);
  const a = createAlignment(store, { origin: 'model', name: 'm' });
  const insert = linkInserter(store, a);
  store.transaction(() =>
    ids.forEach((id, k) => {
      if (k % 7 === 3) return; // pairs without links between pairs with them
      const links: Link[] = Array.from({ length: 1 + (k % 4) }, (_, i) => ({
        s: i,
        t: (i + k) % 3,
        kind: (i + k) % 3 ? 'sure' : 'possible',
        score: DENSE_SCORES[(i + k) % DENSE_SCORES.length],
        ...((i + k) % 5 === 2 ? { tag: k % 2 ? 'idiom' : 'x "y" ✓' } : {}),
      }));
      insert(id, links);
    }),
  );
  const expectSame = (pairIds: number[]) => {
    const c = linkColumnsOfPairs(store, a, pairIds);
    for (const id of pairIds)
      expect(linksIn(c, id), `pair ${id}`).toEqual(linksOfPair(store, id).find((g) => g.alignmentId === a)?.links ?? []);
  };
  expectSame(ids); // whole links in one integer
  expectSame(ids.filter((_, k) => k % 3 === 0)); // scattered: the ids as a list
  store.transaction(() => insert(ids[10], [{ s: 0, t: 0, kind: 'sure', score: 0.1 + 0.2 }]));
  expectSame(ids); // a score of more than 4 decimals: columns
  store.transaction(() => {
    insert(ids[10], [{ s: 0, t: 0, kind: 'sure', score: 0.25 }]);
    insert(ids[20], [{ s: 4096, t: 5, kind: 'possible', score: 0.75, tag: 'far' }]);
  });
  expectSame(ids); // an index of 4096: columns
  store.transaction(() => insert(ids[20], [{ s: 3, t: 4095, kind: 'possible', score: 0.75, tag: 'far' }]));
  dbOf(store).prepare('DELETE FROM links WHERE alignment_id = ? AND s >= 4096').run(a);
  expectSame(ids); // back in one integer, with an index of 4095
  store.close();
});

test('the pair rows of a batch carry their own tokens', () => {
  // pairs of every token count, none included, so the blobs of a batch are of every length
  const rows: [string, string][] = Array.from({ length: 2500 }, (_, i) => [
    Array.from({ length: i % 13 }, (_, k) => `w${k}`).join(' ') || 'x',
    Array.from({ length: (i * 7) % 17 }, (_, k) => `ค${k}`).join(' ') || 'y',
  ]);
  const { store, ids } = project(dir, rows);
  let seen = 0;
  for (const batch of iteratePairRows(store, {}, 1000)) {
    for (const r of batch) {
      const [src, tgt] = rows[ids.indexOf(r.id)];
      expect(Array.from(offsetsOf(r.src_tokens))).toEqual(Array.from(encodeOffsets(pretokenized(src))));
      expect(Array.from(offsetsOf(r.tgt_tokens))).toEqual(Array.from(encodeOffsets(pretokenized(tgt))));
      seen++;
    }
  }
  expect(seen).toBe(rows.length);
  store.close();
});
