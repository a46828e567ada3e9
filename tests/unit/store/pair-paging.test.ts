// The pair list's pages: a page read after or before a neighbouring page (keyset) is the
// page read at its list position, under every filter, with pairs of a running import and
// deleted pairs in between; counts are remembered until the project changes, from this
// connection or another one.
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import type { PairFilter } from '../../../src/shared/api.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { encodeOffsets } from '../../../src/main/text/offsets.ts';
import { pretokenized } from '../../../src/main/text/segment.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir('mekong-paging-');

function corpus() {
  const rows: [string, string][] = Array.from({ length: 157 }, (_, i) => [`ສະບາຍ ${i} ${i % 3 ? 'ດີ' : 'ຫຼາຍ'}`, `สวัสดี ${i}`]);
  const { store, ids } = project(dir, rows);
  // Pairs of an import still running sit between the visible ones and must never show.
  const running = beginImport(store, 'half.tsv', 'tsv');
  store.transaction(() =>
    pairInserter(
      store,
      running,
    )([{ src: 'x', tgt: 'y', srcOffsets: encodeOffsets(pretokenized('x')), tgtOffsets: encodeOffsets(pretokenized('y')) }]),
  );
  const more = beginImport(store, 'more.tsv', 'tsv');
  const moreIds = store.transaction(() =>
    pairInserter(
      store,
      more,
    )(
      Array.from({ length: 40 }, (_, i) => ({
        src: `ຕື່ມ ${i}`,
        tgt: `เพิ่ม ${i}`,
        srcOffsets: encodeOffsets(pretokenized(`ຕື່ມ ${i}`)),
        tgtOffsets: encodeOffsets(pretokenized(`เพิ่ม ${i}`)),
      })),
    ),
  );
  finishImport(store, more, true);
  dbOf(store).prepare('DELETE FROM pairs WHERE id IN (?, ?, ?)').run(ids[10], ids[11], ids[99]);
  dbOf(store).prepare(`UPDATE pairs SET status = 'done' WHERE id % 4 = 0`).run();
  return { store, ids: [...ids, ...moreIds] };
}

test('keyset pages equal the pages at their list positions, under every filter', () => {
  const { store } = corpus();
  const filters: PairFilter[] = [{}, { status: ['done'] }, { status: ['new', 'done'] }, { text: 'ດີ' }, { split: ['train'] }];
  for (const filter of filters) {
    const all = store.listPairs(filter, 0, 1000).pairs.map((p) => p.id);
    expect(all.length).toBe(store.countPairs(filter));
    expect([...all].sort((a, b) => a - b)).toEqual(all);
    const size = 17;
    for (let offset = 0; offset < all.length; offset += size) {
      const byOffset = store.listPairs(filter, offset, size).pairs.map((p) => p.id);
      expect(byOffset).toEqual(all.slice(offset, offset + size));
      if (offset > 0) expect(store.listPairs(filter, { afterId: all[offset - 1] }, size).pairs.map((p) => p.id)).toEqual(byOffset);
      const end = offset + byOffset.length;
      if (end < all.length) expect(store.listPairs(filter, { beforeId: all[end] }, size).pairs.map((p) => p.id)).toEqual(byOffset);
    }
    expect(store.listPairs(filter, all.length, size).pairs).toEqual([]);
  }
  expect(store.listPairs({}, 0, 1000).pairs.some((p) => p.src === 'x')).toBe(false);
  store.close();
});

test('counts are remembered until this connection or another one writes', () => {
  const { store, ids } = corpus();
  const before = store.listPairs({}, 0, 5).total;
  expect(before).toBe(194);
  dbOf(store).prepare('DELETE FROM pairs WHERE id = ?').run(ids.at(-1));
  expect(store.listPairs({}, 0, 5).total).toBe(before - 1);
  const other = new Database(store.path);
  other.prepare(`UPDATE pairs SET status = 'flagged' WHERE id IN (SELECT id FROM pairs ORDER BY id LIMIT 3)`).run();
  other.close();
  expect(store.listPairs({ status: ['flagged'] }, 0, 5).total).toBe(3);
  expect(store.info().byStatus.flagged).toBe(3);
  store.close();
});

test('pairs.list takes keyset starts and refuses two at once', async () => {
  const { store } = corpus();
  const api = dispatchApi({ mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir });
  const first = await api.invoke('pairs.list', { filter: {}, offset: 0, limit: 10 });
  const next = await api.invoke('pairs.list', { filter: {}, offset: 10, limit: 10, afterId: first.pairs[9].id });
  expect(next.pairs.map((p) => p.id)).toEqual(
    (await api.invoke('pairs.list', { filter: {}, offset: 10, limit: 10 })).pairs.map((p) => p.id),
  );
  const back = await api.invoke('pairs.list', { filter: {}, offset: 0, limit: 10, beforeId: next.pairs[0].id });
  expect(back.pairs).toEqual(first.pairs);
  await expect(api.invoke('pairs.list', { filter: {}, offset: 0, limit: 10, afterId: 1, beforeId: 5 })).rejects.toThrow(
    /exclude each other/,
  );
  store.close();
});
