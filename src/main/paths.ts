// Where bundled resources and per-user data live, from source (tsx, tests) and from the
// Electron bundle (out/main) alike.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The repository's (or packaged app's) resources/ folder. */
export function resourcesDir(): string {
  const candidates = [join(here, '../../resources'), join(here, '../../../resources'), join(process.cwd(), 'resources')];
  const found = candidates.find((c) => existsSync(join(c, 'sample')));
  if (!found) throw new Error(`resources/ not found near ${here}`);
  return found;
}

/** The built renderer (out/renderer), served in browser mode. */
export function rendererDir(): string {
  const candidates = [join(here, '../renderer'), join(here, '../../out/renderer'), join(here, '../../../out/renderer')];
  // From src/main, '../renderer' is the renderer's source (its index.html loads main.ts): skip it.
  return candidates.find((c) => existsSync(join(c, 'index.html')) && !existsSync(join(c, 'main.ts'))) ?? candidates[1];
}

/** Per-user data folder (sample project, settings); MEKONG_DATA_DIR overrides it. */
export function defaultDataDir(): string {
  if (process.env.MEKONG_DATA_DIR) return process.env.MEKONG_DATA_DIR;
  const base =
    process.env.XDG_DATA_HOME ??
    (process.platform === 'win32' ? process.env.APPDATA : undefined) ??
    (process.platform === 'darwin' ? join(homedir(), 'Library', 'Application Support') : join(homedir(), '.local', 'share'));
  return join(base ?? homedir(), 'mekong');
}
