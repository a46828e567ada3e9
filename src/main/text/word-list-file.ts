// Reading a word list file a user gives (`mekong import --word-list`, `mekong resegment`):
// UTF-8, one word a line; blank lines and lines starting with # are skipped; a word may hold
// spaces (Vietnamese "sinh viên"). A line that cannot be a word is refused with a one-line
// InputError naming the file and the line: bytes that are not UTF-8, a tab (a second column:
// frequencies or glosses do not belong here), a control character, or more than
// MAX_WORD_LENGTH characters.
// Several files are read together for one project (readWordLists: the CLI's word list
// options, cli/word-list-options.ts, and the Re-segment dialog): each file's words go to the
// side it names, else to both sides when the project's two languages are one, else to the one
// side whose script they are written in; when both scripts fit (en–vi), an error asks for the side.
import { readFileSync } from 'node:fs';
import { InputError, UserError } from '../errors.ts';
import { canonicalLang, scriptMismatch } from './lang.ts';
import { canonicalWord } from './word-list.ts';

type Side = 'src' | 'tgt';

/** A word list file to read for a project: its path, the side it is for (absent: said by its words), and its name. */
export interface WordListSource {
  path: string;
  side?: Side;
  /** The file's name, as the project's word lists record who added the words. */
  name: string;
  /** How a message names it (default: `name`). */
  label?: string;
}

/** The words of several word list files by side, and what they were read from. */
export interface WordListWords {
  side: { src: string[]; tgt: string[] };
  /** "word list a.txt, b.txt": who added the words, in the project's word lists. */
  from: string;
  /** Per file: its name, how many words it has, and the side(s) they go to. */
  files: { name: string; words: number; sides: Side[] }[];
}

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

/**
 * The side(s) the words of a file given without a side go to (see the header); `askSide`
 * says, in the caller's words, how to name the side when the words do not tell it.
 */
function sidesOf(name: string, words: string[], langs: { srcLang: string; tgtLang: string }, askSide: string): Side[] {
  const { srcLang, tgtLang } = langs;
  if ((canonicalLang(srcLang) ?? srcLang) === (canonicalLang(tgtLang) ?? tgtLang)) return ['src', 'tgt'];
  const sample = words.slice(0, 500).join(' ');
  const fits = (['src', 'tgt'] as const).filter((s) => scriptMismatch(s === 'src' ? srcLang : tgtLang, sample) === null);
  if (fits.length === 1) return fits;
  const why =
    fits.length === 2 ? `its words could be ${srcLang} or ${tgtLang}` : `its words are written in neither ${srcLang} nor ${tgtLang} script`;
  throw new UserError(`${name}: ${why}; ${askSide}`);
}

/** Reads `files` for a project of languages `langs` (see the header); null when there are none. */
export function readWordLists(
  files: readonly WordListSource[],
  langs: { srcLang: string; tgtLang: string },
  askSide: string,
): WordListWords | null {
  if (files.length === 0) return null;
  const out: WordListWords = { side: { src: [], tgt: [] }, from: '', files: [] };
  for (const f of files) {
    const words = readWordListFile(f.path);
    const sides = f.side ? [f.side] : sidesOf(f.label ?? f.name, words, langs, askSide);
    for (const s of sides) out.side[s].push(...words);
    out.files.push({ name: f.name, words: words.length, sides });
  }
  out.from = `word list ${out.files.map((f) => f.name).join(', ')}`;
  return out;
}
