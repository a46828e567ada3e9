// A project on a read-only mount opens read-only: `mekong info` and `export` work, a change
// is refused in one line and leaves the file as it was, and the app's API says read-only.
// The mount is a real read-only bind mount, which needs root (as CI runs); elsewhere the
// file is skipped, since root would write a merely chmod-ed file anyway.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-ro-');
const src = join(dir, 'src');
const mnt = join(dir, 'ro');
mkdirSync(src);
mkdirSync(mnt);

const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
const mounted = process.getuid?.() === 0 && sh('mount', '--bind', src, mnt).status === 0;
const mekong = (...args: string[]) => {
  const r = sh(process.execPath, 'bin/mekong.js', ...args);
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe.skipIf(!mounted)('a project on a read-only mount', () => {
  let file = '';
  let ids: number[] = [];
  beforeAll(() => {
    const made = project(src, [
      ['a b', 'x y'],
      ['c d', 'z w'],
    ]);
    made.store.updatePair('anna', made.ids[0], { note: 'kept' });
    made.store.close();
    ids = made.ids;
    file = join(mnt, made.store.path.slice(src.length + 1));
    expect(sh('mount', '-o', 'remount,bind,ro', mnt).status).toBe(0);
  });
  afterAll(() => void sh('umount', mnt));

  test('info and export work; an import is refused in one line and changes nothing', () => {
    const before = readFileSync(file);
    expect(JSON.parse(mekong('info', file, '--json').out)).toMatchObject({ pairs: 2, readOnly: true });
    const out = join(dir, 'out.jsonl');
    expect(mekong('export', file, out, '--format', 'jsonl').code).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);
    const tsv = join(dir, 'more.tsv');
    writeFileSync(tsv, 'e f\tq r\n');
    const refused = mekong('import', file, tsv);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('mekong: the project is open read-only (its file, folder or mount cannot be written): nothing was changed\n');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test('the app opens it read-only: it reads, and an edit is refused with the reason', async () => {
    const ctx = createContext('browser', 'anna', join(dir, 'data'));
    const opened = await dispatch(ctx, 'project.open', { path: file });
    expect(opened).toMatchObject({ ok: true, value: { readOnly: true, pairs: 2 } });
    expect(ctx.store!.getPair(ids[0]).note).toBe('kept');
    expect(await dispatch(ctx, 'pairs.update', { id: ids[1], note: 'no' })).toEqual({
      ok: false,
      error: { kind: 'input', error: 'the project is open read-only (its file, folder or mount cannot be written): nothing was changed' },
    });
    (ctx.store as ProjectStore).close();
  });
});
