// Whether the app's build (out/main/cli.js, written by `npm start` and `npm run build`) is
// newer than every source file it is made from: `mekong` runs it then, and otherwise the
// TypeScript sources through tsx (bin/mekong.js); the benches say which one they timed.
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The files the build is made from, and their folders (a file added or removed changes its folder's time). */
function sources() {
  // the CLI's build holds malloc-tuning.js (src/main/cli.ts imports it)
  const files = [join(root, 'electron.vite.config.ts'), join(root, 'package.json'), join(root, 'bin', 'malloc-tuning.js')];
  for (const dir of ['src/main', 'src/shared'])
    for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) files.push(join(root, dir, f));
  return files;
}

/** out/main/cli.js when it exists and no source file is newer (MEKONG_FROM_SOURCE=1: never), else null. */
export function freshBuild() {
  if (process.env.MEKONG_FROM_SOURCE === '1') return null;
  const cli = join(root, 'out', 'main', 'cli.js');
  try {
    const built = statSync(cli).mtimeMs;
    return sources().every((f) => statSync(f).mtimeMs <= built) ? cli : null;
  } catch {
    return null;
  }
}
