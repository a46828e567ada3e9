// The projects opened lately on this machine (newest first, at most RECENT_MAX), kept in the
// data folder as recent-projects.json so the start screen can offer them. A list that cannot
// be read or written is an empty list: it is a convenience, never a reason for an error.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const RECENT_MAX = 8;

const fileOf = (dataDir: string) => join(dataDir, 'recent-projects.json');

/** Recent project paths that still exist, newest first. */
export function recentProjects(dataDir: string): string[] {
  try {
    const list = JSON.parse(readFileSync(fileOf(dataDir), 'utf8')) as unknown;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string' && existsSync(p)).slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Puts `path` first in the list. */
export function rememberProject(dataDir: string, path: string): void {
  const full = resolve(path);
  const list = [full, ...recentProjects(dataDir).filter((p) => p !== full)].slice(0, RECENT_MAX);
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(fileOf(dataDir), JSON.stringify(list, null, 2) + '\n');
  } catch {
    // a read-only data folder: no recent list, nothing else lost
  }
}
