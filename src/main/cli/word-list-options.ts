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
// Each option may be given more than once. Files are read, and the sides of --word-list
// files found, by text/word-list-file.ts (the app's Re-segment dialog reads them there too).
import { basename } from 'node:path';
import { Option, type Command } from 'commander';
import { readWordLists } from '../text/word-list-file.ts';
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

/** The words of every word list option, by side, and the file names they came from (null when none was given). */
export function readWordListFlags(
  flags: WordListFlags,
  langs: { srcLang: string; tgtLang: string },
  side?: Side,
): { side: SideWords; from: string } | null {
  const file = (path: string, fileSide: Side | undefined, label?: string) => ({ path, side: fileSide, name: basename(path), label });
  const files = [
    ...(flags.srcWordList ?? []).map((f) => file(f, 'src')),
    ...(flags.tgtWordList ?? []).map((f) => file(f, 'tgt')),
    ...(flags.wordList ?? []).map((f) => file(f, side, `--word-list ${f}`)),
  ];
  const read = readWordLists(files, langs, 'give --src-word-list or --tgt-word-list instead');
  return read && { side: read.side, from: read.from };
}
