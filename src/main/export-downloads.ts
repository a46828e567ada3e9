// Browser mode's downloads: an export the browser asked to download is written into a
// folder of its own under the server's download root (one random id per export, so one
// export's files — a links file and its tokenised sentences beside it, or one file per
// alignment — are listed together), then fetched by `GET /download/<id>/<name>`. The root
// is the server's, removed when it stops (server.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UserError } from './errors.ts';

const ID = /^[\w-]{12}$/;

/** A new folder for one export; `name` must be a bare file name (no folders). */
export function newDownload(root: string, name: string): { id: string; file: string } {
  if (!name || name !== basename(name) || name === '.' || name === '..')
    throw new UserError(`"${name}": give a file name, without folders`);
  const id = randomBytes(9).toString('base64url');
  mkdirSync(join(root, id), { recursive: true });
  return { id, file: join(root, id, name) };
}

/** The files one export wrote, with their sizes. */
export function downloadFiles(root: string, id: string): { name: string; bytes: number }[] {
  if (!ID.test(id)) throw new UserError(`no download "${id}"`);
  const dir = join(root, id);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new UserError(`no download "${id}" (the server was restarted since the export?)`);
  }
  return names.sort().map((name) => ({ name, bytes: statSync(join(dir, name)).size }));
}

/** The path of one downloadable file, or null when the id or name is not one of ours. */
export function downloadPath(root: string, id: string, name: string): string | null {
  if (!ID.test(id) || name !== basename(name) || name.startsWith('.')) return null;
  const path = join(root, id, name);
  try {
    return statSync(path).isFile() ? path : null;
  } catch {
    return null;
  }
}
