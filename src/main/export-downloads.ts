// Browser mode's downloads: an export the browser asked to download is written into a
// folder of its own under the server's download root (one random id per export, so one
// export's files — a links file and its tokenised sentences beside it, or one file per
// alignment — are listed together), then fetched by `GET /download/<id>/<name>`. An export
// of several files is bundled into one zip (fflate, streamed file by file), so the browser
// downloads one file. The root is the server's, removed when it stops (server.ts).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { basename, extname, join, sep } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
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

/** The zip's name for an export asked for as `name`: `corpus.pharaoh` → `corpus.zip`. */
function zipName(name: string, taken: readonly string[]): string {
  const stem = `${basename(name, extname(name)) || name}.zip`;
  return taken.includes(stem) ? `${name}.zip` : stem;
}

/**
 * Bundles the files an export wrote into one zip, the only file left in its folder (a links
 * export writes the links and the tokenised sentences beside them, or one file per
 * alignment); returns the zip's name, or null when the export wrote one file.
 */
export async function zipDownload(root: string, id: string, name: string): Promise<string | null> {
  const dir = join(root, id);
  const files = readdirSync(dir).sort();
  if (files.length < 2) return null;
  const zipped = zipName(name, files);
  const out = createWriteStream(join(dir, zipped));
  let failure: Error | null = null;
  const zip = new Zip((err, chunk, final) => {
    if (err) failure ??= err;
    else out.write(chunk);
    if (final || err) out.end();
  });
  try {
    for (const file of files) {
      const entry = new ZipDeflate(file, { level: 6 });
      zip.add(entry);
      for await (const chunk of createReadStream(join(dir, file))) {
        entry.push(chunk as Buffer);
        if (out.writableNeedDrain) await once(out, 'drain');
      }
      entry.push(new Uint8Array(0), true);
    }
    zip.end();
    await finished(out);
    if (failure) throw failure;
  } catch (err) {
    out.destroy();
    rmSync(join(dir, zipped), { force: true });
    throw err;
  }
  for (const file of files) rmSync(join(dir, file));
  return zipped;
}

/** An export's summary naming the files by their names, not the server's download folder. */
export function downloadSummary(root: string, id: string, summary: string, zipped: string | null): string {
  const named = summary.replaceAll(join(root, id) + sep, '');
  return zipped === null ? named : `${named}; all in one download: ${zipped}`;
}
