// better-sqlite3 for Electron's ABI, kept apart from the Node build the CLI and tests
// use (rebuilding in place would break them): the binding is fetched (prebuild-install,
// which better-sqlite3 ships) or compiled (node-gyp against Electron's headers) into
// out/native/electron-<version>/ and handed to the main process via MEKONG_SQLITE_BINDING.
// Both ways need the internet once; offline this returns null and `npm start` falls back
// to browser mode.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronSqliteBinding(root) {
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const work = join(root, 'out', 'native', `electron-${electronVersion}`, 'better-sqlite3');
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(built)) return built;
  mkdirSync(work, { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), work, {
    recursive: true,
    filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
  });
  const require = createRequire(join(root, 'node_modules', 'better-sqlite3', 'package.json'));
  const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js');
  const opts = { cwd: work, stdio: 'ignore', timeout: 300_000 };
  const fetched = spawnSync(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion], opts);
  if (fetched.status !== 0) {
    const gyp = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    spawnSync(process.execPath, [gyp, 'rebuild', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'], opts);
  }
  return existsSync(built) ? built : null;
}
