// Runs after `npm ci` / `npm install` in this repository.
// 1. Links bin/mekong.js into node_modules/.bin so `npx mekong` works from the repo root
//    (npm links the bins of dependencies, never the package's own).
// 2. Fetches the optional native parts that live outside the npm registry, each with a
//    time limit and a one-line message when it cannot: Electron's binary (GitHub) and
//    onnxruntime-node's CUDA provider (nuget, Linux x64 only). Offline, or in CI, Mekong
//    still installs: the app opens in browser mode and ORT runs on the CPU.
//    `npm run setup:native` retries both later.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binDir = join(root, 'node_modules', '.bin');

function linkOwnBin() {
  mkdirSync(binDir, { recursive: true });
  const link = join(binDir, 'mekong');
  rmSync(link, { force: true });
  symlinkSync(relative(binDir, join(root, 'bin', 'mekong.js')), link);
}

function tryStep(label, args, env = {}) {
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 180_000,
    env: { ...process.env, ...env },
  });
  if (r.status === 0) return console.log(`mekong: ${label}: ready`);
  console.log(`mekong: ${label}: not fetched (offline, blocked or unsupported here); run \`npm run setup:native\` later`);
}

linkOwnBin();
const skip = process.env.CI === 'true' || process.env.MEKONG_SKIP_NATIVE_DOWNLOADS === '1';
if (skip && !process.argv.includes('--force')) {
  console.log('mekong: CI or MEKONG_SKIP_NATIVE_DOWNLOADS set: skipping the Electron binary and the CUDA provider');
} else {
  const electronInstall = join(root, 'node_modules', 'electron', 'install.js');
  if (existsSync(electronInstall)) tryStep('Electron binary', [electronInstall]);
  const ortInstall = join(root, 'node_modules', 'onnxruntime-node', 'script', 'install.js');
  if (existsSync(ortInstall) && process.platform === 'linux' && process.arch === 'x64') {
    tryStep('onnxruntime CUDA provider', [ortInstall, '--onnxruntime-node-install=cuda12']);
  }
}
