// The benches' real parallel text (../shared/data/bench-corpora, SOURCE.md there) and the one
// generator of large corpora from it: uniq39k's 39,000 English–German lines, lowercased,
// cycled to any number of pairs (100,000: dup100k, the speed anchor of the align bench; a
// project's pairs skip the one line whose English side is empty).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const DATA = join(import.meta.dirname, '../../../shared/data');
export const CORPORA = join(DATA, 'bench-corpora');

/** A text file's lines (a last empty line, the file's final newline, dropped). */
export const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l, i, a) => l.length > 0 || i < a.length - 1);

/**
 * uniq39k's first 39,000 lines of one side ('en' or 'de'), lowercased, cycled to `pairs` lines
 * (100,000: dup100k). `bothSides`: only the lines whose pair holds text on both sides (38,999:
 * a project has no pair with an empty side).
 */
export function cycledLines(side: string, pairs: number, bothSides = false): string[] {
  const read = (s: string) =>
    lines(join(CORPORA, `uniq39k.${s}`))
      .slice(0, 39000)
      .map((l) => l.toLowerCase());
  let uniq = read(side);
  if (bothSides) {
    const other = read(side === 'en' ? 'de' : 'en');
    uniq = uniq.filter((l, k) => l.trim() && other[k]?.trim());
  }
  return Array.from({ length: pairs }, (_, k) => uniq[k % uniq.length]);
}
