// A full disk: an import that runs out of space says so in one line and keeps nothing of
// itself (the project still opens and reads), an edit is answered 507 with the reason, and
// everything saved before is there. Each test gets a real 3 MiB tmpfs, which needs root to
// mount (as CI runs); elsewhere the file is skipped.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { startServer } from '../../../src/main/server.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-full-');
const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
const mekong = (...args: string[]) => {
  const r = sh(process.execPath, 'bin/mekong.js', ...args);
  return { code: r.status, out: r.stdout, err: r.stderr };
};

/** A fresh 3 MiB disk holding a project of two pairs, unmounted after `body`. */
async function onSmallDisk(body: (path: string) => Promise<void> | void): Promise<void> {
  const disk = mkdtempSync(join(dir, 'disk-'));
  expect(sh('mount', '-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', disk).status).toBe(0);
  try {
    const path = join(disk, 'p.mekong');
    expect(mekong('project', 'create', path, '--src-lang', 'en', '--tgt-lang', 'vi').code).toBe(0);
    const small = join(dir, 'small.tsv');
    writeFileSync(small, 'a b\tx y\nc d\tz w\n');
    expect(mekong('import', path, small).code).toBe(0);
    await body(path);
  } finally {
    sh('umount', '-l', disk);
  }
}

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = join(dir, 'probe');
  mkdirSync(probe);
  const ok = sh('mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe).status === 0;
  if (ok) sh('umount', probe);
  return ok;
})();

describe.skipIf(!canMount)('a full disk', () => {
  test('an import that fills the disk: one line naming the file; nothing of it kept; the project still reads', () =>
    onSmallDisk((path) => {
      const big = join(dir, 'big.tsv');
      writeFileSync(
        big,
        Array.from({ length: 40_000 }, (_, i) => `sentence number ${i} with some words\tcâu số ${i} có vài từ\n`).join(''),
      );
      const r = mekong('import', path, big);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`mekong: disk full while importing ${big}: nothing from this import was kept\n`);
      const info = mekong('info', path, '--json');
      expect(info.err).toBe('');
      expect(JSON.parse(info.out)).toMatchObject({ pairs: 2 });
    }));

  test('an edit on a full disk answers 507 with the reason; nothing saved before is lost', () =>
    onSmallDisk(async (path) => {
      const ctx = createContext('browser', 'anna', join(dir, 'data'));
      ctx.store = ProjectStore.open(path);
      const server = await startServer(ctx);
      const call = (channel: string, input: unknown) =>
        fetch(`http://127.0.0.1:${server.port}/api/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-mekong-token': server.token },
          body: JSON.stringify(input),
        });
      try {
        const id = ctx.store.listPairs({}, 0, 1).pairs[0].id;
        expect((await call('pairs.update', { id, note: 'saved first' })).status).toBe(200);
        const filler = join(path, '..', 'filler');
        sh('dd', 'if=/dev/zero', `of=${filler}`, 'bs=64k');
        let refused: Response | null = null;
        for (let k = 0; k < 50 && !refused; k++) {
          const r = await call('pairs.update', { id, note: `a longer note that needs a new page ${'x'.repeat(3000)} ${k}` });
          if (r.status !== 200) refused = r;
        }
        expect(refused?.status).toBe(507);
        expect(await refused!.json()).toEqual({
          kind: 'full',
          error: 'the disk is full: this change was not saved (everything saved before is kept)',
        });
        rmSync(filler);
        expect((await call('pairs.update', { id, note: 'after' })).status).toBe(200);
        expect(ctx.store.getPair(id).note).toBe('after');
      } finally {
        await server.close();
        ctx.store?.close();
      }
    }));
});
