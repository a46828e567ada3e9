// The start screen's recent projects: every project opened or created goes first in the list,
// which survives the app (a file in the data folder) and drops files that are gone.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import type { AppInfo } from '../../../src/shared/api.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-recent-');

test('opened and created projects come first; a deleted one drops out; a new app sees the list', async () => {
  const data = join(dir, 'data');
  const ctx = createContext('browser', 'anna', data);
  const info = async () => ((await dispatch(ctx, 'app.info', {})) as { value: AppInfo }).value;
  expect((await info()).recentProjects).toEqual([]);
  const [a, b] = [join(dir, 'a.mekong'), join(dir, 'b.mekong')];
  await dispatch(ctx, 'project.create', { path: a, name: 'a', srcLang: 'lo', tgtLang: 'th' });
  await dispatch(ctx, 'project.create', { path: b, name: 'b', srcLang: 'lo', tgtLang: 'th' });
  expect((await info()).recentProjects).toEqual([b, a]);
  await dispatch(ctx, 'project.open', { path: a });
  expect((await info()).recentProjects).toEqual([a, b]);
  ctx.store?.close();
  const again = createContext('browser', 'anna', data);
  await dispatch(again, 'project.close', {});
  rmSync(b);
  expect(((await dispatch(again, 'app.info', {})) as { value: AppInfo }).value.recentProjects).toEqual([a]);
});
