// Reading a word list file a user gives (`mekong import --word-list`, `mekong resegment`):
// UTF-8, one word a line; blank lines and lines starting with # are skipped; a word may hold
// spaces (Vietnamese "sinh viên"). A line that cannot be a word is refused with a one-line
// InputError naming the file and the line: bytes that are not UTF-8, a tab (a second column:
// frequencies or glosses do not belong here), a control character, or more than
// MAX_WORD_LENGTH characters.
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.ts';
import { canonicalWord } from './word-list.ts';

export const MAX_WORD_LENGTH = 200;

const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** Why `line` cannot be a listed word, or null when it can. */
function badLine(line: string): string | null {
  if (line.includes('\uFFFD')) return 'not UTF-8 text';
  if (line.includes('\t')) return 'a tab: one word a line, without other columns';
  if (CONTROL.test(line))
    return `a control character (U+${line.match(CONTROL)![0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  if (line.length > MAX_WORD_LENGTH) return `longer than ${MAX_WORD_LENGTH} characters: one word a line`;
  return null;
}

/** The words of a word list file, in file order (canonical form, duplicates kept once). */
export function readWordListFile(path: string): string[] {
  const bytes = readFileSync(path);
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  const lines = decoder.decode(bytes).split('\n');
  const words = new Set<string>();
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const why = badLine(trimmed);
    if (why) throw new InputError(path, i + 1, why);
    const word = canonicalWord(trimmed);
    if (word !== '') words.add(word);
  });
  return [...words];
}
