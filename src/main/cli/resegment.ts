// `mekong resegment P [--word-list W] [--side src|tgt|both] [--dry-run] [--learn-words]
// [--learned-words FILE]`: every pair of a project segmented anew with its word lists (and
// those given here), links, marks and rejected links following their tokens; pairs whose
// links cannot follow keep their tokens and are listed (review/resegment-project.ts). Short
// transactions, one undoable edit group. --learn-words also learns names and loans from the
// corpus (text/corpus-words.ts); --learned-words writes them as a word list file to review.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { formatLearnedWords } from '../text/corpus-words.ts';
import { loginName } from '../api/create-context.ts';
import { formatResegmentReport, resegmentProject } from '../review/resegment-project.ts';
import { runProjectJob } from './project-job.ts';
import { readWordListFlags, wordListOptions, type WordListFlags } from './word-list-options.ts';

interface ResegmentFlags extends WordListFlags {
  side: 'src' | 'tgt' | 'both';
  dryRun?: boolean;
  flagKept?: boolean;
  annotator?: string;
  learnWords?: boolean;
  learnedWords?: string;
}

export function register(program: Command): void {
  const command = program
    .command('resegment')
    .description(
      "segment every pair again with the project's word lists (and --word-list files, which join them); links, " +
        '"not translated" marks and rejected links follow their tokens; a pair where a token holding any of them ' +
        'would be cut across keeps its old tokens and is listed. Edits in the app go on meanwhile; undone as one edit there. ' +
        'Every pair is segmented, those imported --pretokenized too: leave such a side alone with --side',
    )
    .argument('<project>', 'the project file')
    .addOption(new Option('--side <side>', 'the side(s) to segment again').choices(['src', 'tgt', 'both']).default('both'))
    .option('--dry-run', 'only report what would change')
    .option('--flag-kept', 'also mark the pairs that keep their old tokens flagged, the reason added to their note')
    .option('--annotator <name>', 'whose undo reverses it (default: the login name)')
    .option(
      '--learn-words',
      'also learn Lao, Thai and Chinese words from the corpus (runs of syllables that recur and hold together: names, loans) and segment with them; they join the word list',
    )
    .option('--learned-words <file>', 'write the learned words to this word list file, to review (implies --learn-words)');
  wordListOptions(
    command,
    '--side when it is src or tgt, else both when the languages are one, else the side whose script they are in',
  ).action(async (projectFile: string, o: ResegmentFlags) => {
    await runProjectJob(projectFile, 'resegment', async (store, run) => {
      const side = o.side === 'both' ? undefined : o.side;
      const words = readWordListFlags(o, store.meta(), side) ?? undefined;
      const report = await resegmentProject(store, {
        sides: o.side === 'both' ? ['src', 'tgt'] : [o.side],
        annotator: o.annotator ?? loginName(),
        words,
        dryRun: o.dryRun,
        learnWords: o.learnWords === true || o.learnedWords !== undefined,
        ...run,
      });
      if (o.learnedWords !== undefined)
        writeFileSync(o.learnedWords, report.learned.map((l) => formatLearnedWords(l.lang, l.words)).join('\n'));
      return formatResegmentReport(report) + (o.learnedWords !== undefined ? `\nlearned words written to ${o.learnedWords}` : '');
    });
  });
}
