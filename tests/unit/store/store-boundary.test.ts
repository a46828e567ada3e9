// store/ is the only module holding a project's database handle: ProjectStore exposes none,
// a store function refuses anything but an open ProjectStore, and no file outside store/
// imports the handle or writes SQL (scripts/check-store-boundary.js, also run by `npm run typecheck`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { listAlignments } from '../../../src/main/store/alignments.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

test('a ProjectStore shows no handle, and store functions take only an open ProjectStore', () => {
  const store = ProjectStore.create(join(dir, 'p.mekong'), { name: 'p', srcLang: 'lo', tgtLang: 'th' });
  expect('db' in store).toBe(false);
  expect(Object.values(store).some((v) => v && typeof v === 'object' && 'prepare' in v)).toBe(false);
  expect(listAlignments(store)).toEqual([]);
  expect(() => listAlignments({ path: store.path })).toThrow(/not a project opened by ProjectStore/);
  store.close();
});

test('no file outside src/main/store/ touches the database', () => {
  const r = spawnSync(process.execPath, ['scripts/check-store-boundary.js'], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
