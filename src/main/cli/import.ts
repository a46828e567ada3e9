// `mekong import`: a corpus file (and optionally a links file) into a project, segmented
// with the project's word lists and those given here (word-list-options.ts), which join the
// project's lists once the import has succeeded. Then names and loans are learned from the
// whole project's corpus and it is segmented with them (review/resegment-project.ts
// learnAfterImport), learning from the tokens the import just wrote rather than cutting its
// pairs a second time: by default on Lao and Thai sides from runs that recur; --learn-words
// also on Chinese sides and from runs aligned to one word of the other side
// (`mekong resegment --learn-words`); --no-learn-words not at all. Last, the concordance's word
// index of the new pairs is built (indexWords), so that the app has none to build while a
// linguist edits.
import { Option, type Command } from 'commander';
import { importOptionsSchema } from '../../shared/api.ts';
import { CancelledError, UserError } from '../errors.ts';
import type { JobContext } from '../jobs/job-context.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { updateWordIndex } from '../store/word-index.ts';
import { runImport } from '../corpus/import-pipeline.ts';
import { loginName } from '../api/create-context.ts';
import { formatResegmentReport, learnAfterImport } from '../review/resegment-project.ts';
import { detectFormat } from '../corpus/formats.ts';
import { nextPairId } from '../store/pairs.ts';
import { parseOptions, runProjectJob } from './project-job.ts';
import { readWordListFlags, wordListOptions, type Side, type WordListFlags } from './word-list-options.ts';

interface ImportFlags extends WordListFlags {
  wordListSide?: Side;
  format?: string;
  tgtFile?: string;
  header?: boolean;
  srcColumn?: string;
  tgtColumn?: string;
  pretokenized?: boolean;
  links?: string;
  linksFormat?: string;
  linksOneBased?: boolean;
  anyScript?: boolean;
  maxLineBytes?: number;
  maxFileBytes?: number;
  learnWords?: boolean;
}

const column = (v: string | undefined) => (v === undefined ? undefined : /^\d+$/.test(v) ? Number(v) : v);

export function register(program: Command): void {
  const command = program
    .command('import')
    .description('import a parallel corpus into a project (all or nothing)')
    .argument('<project>', 'the project file')
    .argument('<file>', 'the corpus: .tsv, .csv, .tmx, .jsonl, or the source side of a Moses pair')
    .option('--format <format>', 'tsv | csv | moses | tmx | jsonl (default: from the extension)')
    .option('--tgt-file <file>', 'Moses: the target-side file')
    .option(
      '--header',
      'TSV/CSV: the first row is a header (default: a first row of header words such as "vi,en" or "source,target" is taken for one and skipped)',
    )
    .option('--no-header', 'TSV/CSV: the first row is a sentence pair, whatever it holds')
    .option('--src-column <name|index>', 'TSV/CSV: source column (default: the first)')
    .option('--tgt-column <name|index>', 'TSV/CSV: target column (default: the second)')
    .option('--pretokenized', 'tokens are already separated by spaces (no segmentation)')
    .option('--links <file>', 'word links for the pairs (stored as an import alignment)')
    .option('--links-format <format>', 'pharaoh | talp (default pharaoh)')
    .option('--any-script', "import even when a side's script does not match the project's language")
    .option('--max-line-bytes <n>', 'the longest line accepted (default 67108864: 64 MiB)', Number)
    .option('--max-file-bytes <n>', 'the largest file accepted (default 17179869184: 16 GiB)', Number)
    .option('--links-one-based', 'link indices start at 1')
    .option(
      '--learn-words',
      "then learn Lao, Thai and Chinese words from the project's corpus (names, loans: runs of syllables that recur and hold together, or that align to one word of the other side) and segment with them, as `mekong resegment --learn-words` (default: Lao and Thai sides, runs that recur only)",
    )
    .option('--no-learn-words', "learn no words from the project's corpus");
  wordListOptions(command, '--word-list-side, else both when the languages are one, else the side whose script they are in')
    .addOption(new Option('--word-list-side <side>', 'the side --word-list files are for').choices(['src', 'tgt']))
    .action(async (projectFile: string, file: string, o: ImportFlags) => {
      const format = o.format ?? (o.tgtFile ? 'moses' : detectFormat(file));
      if (!format) throw new UserError(`${file}: cannot tell the format from the extension; give --format`);
      const options = parseOptions(importOptionsSchema, {
        file,
        format,
        tgtFile: o.tgtFile,
        header: o.header,
        srcColumn: column(o.srcColumn),
        tgtColumn: column(o.tgtColumn),
        tokenization: o.pretokenized ? 'pretokenized' : 'segment',
        linksFile: o.links,
        linksFormat: o.links ? (o.linksFormat ?? 'pharaoh') : undefined,
        linksOneBased: o.linksOneBased,
        anyScript: o.anyScript,
        maxLineBytes: o.maxLineBytes,
        maxFileBytes: o.maxFileBytes,
      });
      if (o.pretokenized && (o.wordList || o.srcWordList || o.tgtWordList))
        throw new UserError('--pretokenized keeps the given tokens: a word list has nothing to segment');
      if (o.pretokenized && o.learnWords === true)
        throw new UserError('--pretokenized keeps the given tokens: --learn-words has nothing to segment');
      await runProjectJob(projectFile, 'import', async (store, run) => {
        const words = readWordListFlags(o, store.meta(), o.wordListSide) ?? undefined;
        const segmentedFrom = nextPairId(store);
        const imported = await runImport(store, options, { ...run, words });
        // the imported pairs were just cut with the lists the learning cuts with: their tokens teach it as they are
        const report = await learnAfterImport(store, {
          learnWords: o.pretokenized ? false : o.learnWords,
          segmentedFrom,
          annotator: loginName(),
          ...run,
        });
        const lines = [imported, ...(report ? [formatResegmentReport(report)] : []), await indexWords(store, run)];
        return lines.join('\n');
      });
    });
}

/**
 * The concordance's word index of the new pairs, built here rather than on the thread that
 * serves the project's editor next (store/word-index.ts). The pairs are in whatever happens:
 * a Ctrl+C or a failure here leaves the rest of the index to the app, which finishes it when it
 * opens the project.
 */
async function indexWords(store: ProjectStore, run: JobContext): Promise<string> {
  try {
    await updateWordIndex(store, {
      signal: run.signal,
      noEditor: true,
      progress: (done, total) => run.progress({ done, total, message: 'indexing words' }),
    });
    return 'word index: up to date';
  } catch (err) {
    const why = err instanceof CancelledError ? 'stopped by Ctrl+C' : `not finished (${err instanceof Error ? err.message : String(err)})`;
    return `word index: ${why}; the app finishes it when it opens the project`;
  }
}
