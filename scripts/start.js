// `npm start`: builds the app and opens it on the bundled sample project: as the desktop
// app when Electron can start here (its binary is installed, a display exists, and the
// Electron build of better-sqlite3 is in place), otherwise — saying so in one line — as
// browser mode at a printed http://127.0.0.1 URL serving the same UI.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronSqliteBinding } from './electron-native.js';
import { withMallocEnv } from '../bin/malloc-tuning.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Runs the app's process with malloc set to return freed memory (bin/malloc-tuning.js), passing signals on. */
function run(cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: withMallocEnv({ ...process.env, ...env }) });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}

/** Why Electron cannot start here, or null when it can. */
function electronBlocker() {
  const dir = join(root, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile) || !existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8')))) {
    return 'no Electron binary; `npm run setup:native` fetches it when online';
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'no display';
  return null;
}

const build = spawnSync(bin('electron-vite'), ['build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);

let blocker = electronBlocker();
let binding = null;
if (!blocker) {
  binding = electronSqliteBinding(root);
  if (!binding) blocker = 'better-sqlite3 for Electron could not be fetched or built';
}
if (blocker) {
  console.log(`Mekong: Electron cannot start here (${blocker}); serving the same UI in browser mode instead:`);
  run(process.execPath, [join(root, 'bin', 'mekong.js'), 'serve', '--sample']);
} else {
  const electron = join(root, 'node_modules', 'electron', 'dist', readFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'utf8'));
  run(electron, [root], { MEKONG_SQLITE_BINDING: binding });
}
