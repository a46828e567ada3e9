// The `mekong` launcher (bin/mekong.js) runs the app's build of the CLI only when no source
// file is newer than it, and otherwise the TypeScript sources: checked on a copy of the
// launcher in a folder whose "build" and "source" CLIs each say which one ran.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const repo = join(import.meta.dirname, '../../..');
const root = mkdtempSync(join(tmpdir(), 'mekong-launcher-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

mkdirSync(join(root, 'bin'));
for (const f of ['mekong.js', 'fresh-build.js', 'malloc-tuning.js']) copyFileSync(join(repo, 'bin', f), join(root, 'bin', f));
symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
writeFileSync(join(root, 'electron.vite.config.ts'), '');
mkdirSync(join(root, 'src/main/cli'), { recursive: true });
mkdirSync(join(root, 'src/shared'));
const say = (what: string) => `console.log(JSON.stringify({ ran: '${what}', bundleDir: process.env.MEKONG_BUNDLE_DIR ?? null }));\n`;
writeFileSync(join(root, 'src/main/cli.ts'), `const from: string = 'source';\n${say('source')}`);
writeFileSync(join(root, 'src/shared/types.ts'), 'export type A = 1;\n');
mkdirSync(join(root, 'out/main'), { recursive: true });
writeFileSync(join(root, 'out/main/cli.js'), say('build'));

/** Sets a file's modification time to `seconds` after the epoch. */
const age = (file: string, seconds: number) => utimesSync(join(root, file), seconds, seconds);
// folders count too: a source file added or removed changes its folder's time; the CLI's build holds bin/malloc-tuning.js
const sources = [
  'package.json',
  'electron.vite.config.ts',
  'bin/malloc-tuning.js',
  'src/main/cli.ts',
  'src/main/cli',
  'src/shared/types.ts',
];

function ran(env: NodeJS.ProcessEnv = {}): { ran: string; bundleDir: string | null } {
  const { MEKONG_BUNDLE_DIR: _, MEKONG_FROM_SOURCE: __, ...rest } = process.env;
  const r = spawnSync('node', [join(root, 'bin/mekong.js'), 'info'], { encoding: 'utf8', env: { ...rest, ...env } });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { ran: string; bundleDir: string | null };
}

test('a build newer than every source runs, with its workers beside it', () => {
  for (const f of sources) age(f, 1_000_000);
  age('out/main/cli.js', 2_000_000);
  expect(ran()).toEqual({ ran: 'build', bundleDir: join(root, 'out/main') });
});

test('a source file newer than the build, in any source folder, runs the sources', () => {
  for (const stale of ['src/main/cli.ts', 'src/main/cli', 'src/shared/types.ts', 'package.json', 'bin/malloc-tuning.js']) {
    for (const f of sources) age(f, 1_000_000);
    age('out/main/cli.js', 2_000_000);
    age(stale, 3_000_000);
    expect(ran().ran).toBe('source');
  }
});

test('no build, or MEKONG_FROM_SOURCE=1, runs the sources', () => {
  for (const f of sources) age(f, 1_000_000);
  age('out/main/cli.js', 2_000_000);
  expect(ran({ MEKONG_FROM_SOURCE: '1' }).ran).toBe('source');
  rmSync(join(root, 'out'), { recursive: true });
  expect(ran().ran).toBe('source');
});
