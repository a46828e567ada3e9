// Runs after `npm ci` / `npm install` in this repository.
// 1. Links bin/mekong.js into node_modules/.bin so `npx mekong` works from the repo root
//    (npm links the bins of dependencies, never the package's own).
// 2. Fetches the optional native parts that live outside the npm registry, each with a
//    time limit and a one-line message when it cannot: Electron's binary (GitHub) and
//    onnxruntime-node's CUDA provider (nuget, Linux x64 only). Offline, or in CI, Mekong
//    still installs: the app opens in browser mode and ORT runs on the CPU.
//    `npm run setup:native` retries both later.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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

/** Where onnxruntime-node keeps its native libraries on this platform. */
const ortBin = join(root, 'node_modules', 'onnxruntime-node', 'bin', 'napi-v6', process.platform, process.arch);
const cudaProvider = join(ortBin, process.platform === 'win32' ? 'onnxruntime_providers_cuda.dll' : 'libonnxruntime_providers_cuda.so');

/** Whether Electron's binary is in place (its install script writes path.txt, then the dist folder). */
function electronPresent() {
  const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim()));
}

/**
 * The line for one fetch step: "ready" only when the file is there afterwards. Installers exit
 * 0 without fetching in several cases (onnxruntime-node's under npm when an
 * `onnxruntime-node-install` setting is in npm's config, which wins over its argument).
 */
export function stepReport(label, status, present, error) {
  if (present) return `mekong: ${label}: ready`;
  const why = status === 0 ? 'the installer fetched nothing' : error ? error.message : `the installer exited with ${status}`;
  return `mekong: ${label}: not installed (${why}: offline, blocked or unsupported here); run \`npm run setup:native\` later`;
}

function tryStep(label, args, present, env = {}) {
  if (present()) return console.log(stepReport(label, 0, true));
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 180_000,
    env: { ...process.env, ...env },
  });
  console.log(stepReport(label, r.status, r.status === 0 && present(), r.error));
}

function main() {
  linkOwnBin();
  const skip = process.env.CI === 'true' || process.env.MEKONG_SKIP_NATIVE_DOWNLOADS === '1';
  if (skip && !process.argv.includes('--force')) {
    console.log('mekong: CI or MEKONG_SKIP_NATIVE_DOWNLOADS set: skipping the Electron binary and the CUDA provider');
  } else {
    const electronInstall = join(root, 'node_modules', 'electron', 'install.js');
    if (existsSync(electronInstall)) tryStep('Electron binary', [electronInstall], electronPresent);
    const ortInstall = join(root, 'node_modules', 'onnxruntime-node', 'script', 'install.js');
    if (existsSync(ortInstall) && process.platform === 'linux' && process.arch === 'x64') {
      // ONNXRUNTIME_NODE_INSTALL is read before npm's config and the command line.
      tryStep('onnxruntime CUDA provider', [ortInstall], () => existsSync(cudaProvider), { ONNXRUNTIME_NODE_INSTALL: 'cuda12' });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
