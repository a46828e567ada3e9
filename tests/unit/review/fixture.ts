// A small project for the editor's tests: whitespace-tokenised pairs in a real SQLite
// file, with an optional model alignment whose links carry posteriors.
import { join } from 'node:path';
import type { Link } from '../../../src/shared/domain.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { beginImport, finishImport } from '../../../src/main/store/imports.ts';
import { pairInserter } from '../../../src/main/store/pairs.ts';
import { createAlignment, goldAlignmentOf, linkInserter } from '../../../src/main/store/alignments.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { encodeOffsets } from '../../../src/main/text/offsets.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { pretokenized } from '../../../src/main/text/segment.ts';

let n = 0;

export function project(dir: string, pairs: [string, string][]): { store: ProjectStore; ids: number[] } {
  const store = ProjectStore.create(join(dir, `e${n++}.mekong`), { name: 'editor', srcLang: 'lo', tgtLang: 'th' });
  const importId = beginImport(store, 'test.tsv', 'tsv');
  const ids = store.transaction(() =>
    pairInserter(
      store,
      importId,
    )(
      pairs.map(([src, tgt]) => ({
        src,
        tgt,
        srcOffsets: encodeOffsets(pretokenized(src)),
        tgtOffsets: encodeOffsets(pretokenized(tgt)),
      })),
    ),
  );
  finishImport(store, importId, true);
  return { store, ids };
}

/** A model alignment: `links[k]` are pair `ids[k]`'s links as [s, t, score]. */
export function model(store: ProjectStore, ids: number[], links: [number, number, number][][], name = 'model'): number {
  const id = createAlignment(store, { origin: 'model', name });
  const insert = linkInserter(store, id);
  store.transaction(() =>
    links.forEach((ls, k) =>
      insert(
        ids[k],
        ls.map(([s, t, score]): Link => ({ s, t, kind: 'sure', score })),
      ),
    ),
  );
  return id;
}

/** Marks pairs Done, as a linguist who finished them would: their gold then counts (store/pair-corpus.ts). */
export function markDone(store: ProjectStore, ids: readonly number[]): void {
  const done = dbOf(store).prepare(`UPDATE pairs SET status = 'done' WHERE id = ?`);
  store.transaction(() => ids.forEach((id) => done.run(id)));
}

export const sure = (s: number, t: number): Link => ({ s, t, kind: 'sure', score: null });
export const possible = (s: number, t: number): Link => ({ s, t, kind: 'possible', score: null });

/** A closed project of 16 synthetic pairs whose first four are Done with anna's gold links: enough for a tiny training run; returns its path. */
export function trainableProject(dir: string): string {
  const c = syntheticCorpus(16, 12);
  const { store, ids } = project(
    dir,
    c.src.map((s, k) => [s.join(' '), c.tgt[k].join(' ')]),
  );
  const insert = linkInserter(store, goldAlignmentOf(store, 'anna'));
  store.transaction(() =>
    [0, 1, 2, 3].forEach((k) =>
      insert(
        ids[k],
        c.gold[k].map((l) => sure(l.s, l.t)),
      ),
    ),
  );
  markDone(store, ids.slice(0, 4));
  store.close();
  return store.path;
}
