// The word list options `mekong import` and `mekong resegment` share, and which side's
// language a list's words go to:
//   --src-word-list <file>, --tgt-word-list <file>   the list's side, said outright;
//   --word-list <file>                               the side said by --word-list-side
//                                                    (import) or --side src|tgt (resegment),
//                                                    else both sides when the project's two
//                                                    languages are one, else the one side
//                                                    whose script the words are written in;
//                                                    when both scripts fit (en–vi), an error
//                                                    asks for the side.
// Each option may be given more than once. Files are read by text/word-list-file.ts.
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { UserError } from '../errors.ts';
import { canonicalLang, scriptMismatch } from '../text/lang.ts';
import { readWordListFile } from '../text/word-list-file.ts';
import type { SideWords } from '../store/word-lists.ts';

export type Side = 'src' | 'tgt';

export interface WordListFlags {
  wordList?: string[];
  srcWordList?: string[];
  tgtWordList?: string[];
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const FILE_FORMAT = 'UTF-8, one word a line (spaces allowed: "sinh viên"), blank and # lines skipped';

/** Adds --word-list, --src-word-list and --tgt-word-list to `command`. */
export function wordListOptions(command: Command, sideHint: string): Command {
  return command
    .addOption(
      new Option('--word-list <file>', `words to segment with (${FILE_FORMAT}); their side: ${sideHint}; repeatable`).argParser(collect),
    )
    .addOption(new Option('--src-word-list <file>', "words for the source side's language; repeatable").argParser(collect))
    .addOption(new Option('--tgt-word-list <file>', "words for the target side's language; repeatable").argParser(collect));
}

/** The side(s) a --word-list file's words go to (see the header). */
function sidesOf(file: string, words: string[], langs: { srcLang: string; tgtLang: string }, side: Side | undefined): Side[] {
  if (side) return [side];
  const { srcLang, tgtLang } = langs;
  if ((canonicalLang(srcLang) ?? srcLang) === (canonicalLang(tgtLang) ?? tgtLang)) return ['src', 'tgt'];
  const sample = words.slice(0, 500).join(' ');
  const fits = (['src', 'tgt'] as const).filter((s) => scriptMismatch(s === 'src' ? srcLang : tgtLang, sample) === null);
  if (fits.length === 1) return fits;
  const why =
    fits.length === 2 ? `its words could be ${srcLang} or ${tgtLang}` : `its words are written in neither ${srcLang} nor ${tgtLang} script`;
  throw new UserError(`--word-list ${file}: ${why}; give --src-word-list or --tgt-word-list instead`);
}

/** The words of every word list option, by side, and the file names they came from (null when none was given). */
export function readWordListFlags(
  flags: WordListFlags,
  langs: { srcLang: string; tgtLang: string },
  side?: Side,
): { side: SideWords; from: string } | null {
  const src: string[] = [];
  const tgt: string[] = [];
  const files: string[] = [];
  const add = (file: string, sides: (words: string[]) => Side[]) => {
    const words = readWordListFile(file);
    for (const s of sides(words)) (s === 'src' ? src : tgt).push(...words);
    files.push(basename(file));
  };
  for (const f of flags.srcWordList ?? []) add(f, () => ['src']);
  for (const f of flags.tgtWordList ?? []) add(f, () => ['tgt']);
  for (const f of flags.wordList ?? []) add(f, (words) => sidesOf(f, words, langs, side));
  if (files.length === 0) return null;
  return { side: { src, tgt }, from: `word list ${files.join(', ')}` };
}
