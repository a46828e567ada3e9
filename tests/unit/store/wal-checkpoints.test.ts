// A large WAL left by a bulk write (an import, a stored model alignment) is copied into the
// project file on a worker thread, and until that copy ends no commit on the serving
// connection runs SQLite's automatic checkpoint (which would copy the whole WAL inside an
// editor's commit); an editor's deferred checkpoint keeps it off after the copy too. Once
// checkpointed, the WAL file is cut back to WAL_KEPT_BYTES when it is reset.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { setGold } from '../../../src/main/review/editor.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { WAL_KEPT_BYTES } from '../../../src/main/store/database.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { encodeOffsets } from '../../../src/main/text/offsets.ts';
import { pretokenized } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-wal-');

/** A project whose one import wrote a WAL well above WAL_KEPT_BYTES; the import not yet finished. */
function bulkImported(name: string) {
  const store = ProjectStore.create(join(dir, name), { name: 'w', srcLang: 'lo', tgtLang: 'th' });
  const importId = beginImport(store, 'big.tsv', 'tsv');
  const text = (k: number, w: string) => Array.from({ length: 60 }, (_, i) => `${w}${(k * 61 + i) % 9973}`).join(' ');
  const insert = pairInserter(store, importId);
  for (let b = 0; b < 6; b++)
    store.transaction(() =>
      insert(
        Array.from({ length: 5000 }, (_, i) => {
          const [src, tgt] = [text(b * 5000 + i, 'ສ'), text(b * 5000 + i, 'ท')];
          return { src, tgt, srcOffsets: encodeOffsets(pretokenized(src)), tgtOffsets: encodeOffsets(pretokenized(tgt)) };
        }),
      ),
    );
  const wal = `${store.path}-wal`;
  expect(statSync(wal).size).toBeGreaterThan(2 * WAL_KEPT_BYTES);
  return { store, importId, wal, autocheckpoint: () => dbOf(store).pragma('wal_autocheckpoint', { simple: true }) };
}

test("a bulk write's large WAL is copied off the thread, the automatic checkpoint paused until it is, then the WAL cut back", async () => {
  const { store, importId, wal, autocheckpoint } = bulkImported('a.mekong');
  const copied = finishImport(store, importId, true);
  expect(autocheckpoint()).toBe(0); // the worker copies; a commit now must not copy the WAL again
  store.updatePair('anna', 1, { note: 'during the copy' });
  expect(autocheckpoint()).toBe(0);
  await copied;
  expect(autocheckpoint()).toBe(1000);
  store.updatePair('anna', 2, { note: 'after the copy' }); // resets the WAL, which journal_size_limit cuts back
  expect(statSync(wal).size).toBeLessThanOrEqual(WAL_KEPT_BYTES);
  expect(store.getPair(1).note).toBe('during the copy');
  store.close();
});

test("an editor's edit during the copy keeps the automatic checkpoint off after it (its own checkpoint is deferred)", async () => {
  const { store, importId, autocheckpoint } = bulkImported('b.mekong');
  const copied = finishImport(store, importId, true);
  setGold(store, 'anna', 1, [{ s: 0, t: 0, kind: 'sure', score: null }], []);
  await copied;
  expect(autocheckpoint()).toBe(0);
  store.close();
});
