// `mekong export`: a project's pairs (filtered) to JSONL, Parquet, Pharaoh, TALP, TMX, TSV or fast_align.
import type { Command } from 'commander';
import { exportOptionsSchema } from '../../shared/api.ts';
import { runExport } from '../corpus/export-pipeline.ts';
import { parseOptions, runProjectJob } from './project-job.ts';

const list = (v: string | undefined) =>
  v
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function register(program: Command): void {
  program
    .command('export')
    .description('export pairs of a project')
    .argument('<project>', 'the project file')
    .argument('<file>', 'the output file')
    .requiredOption(
      '--format <format>',
      'jsonl | parquet (the JSONL records, for Hugging Face datasets) | pharaoh | talp | tmx | tsv | fastalign',
    )
    .option('--status <list>', 'only pairs with these statuses (new,in-review,done,flagged)')
    .option('--split <list>', 'only pairs in these splits (train,dev,test)')
    .option('--alignments <ids>', 'only these alignment ids (see `mekong info`)')
    .option(
      '--links-from <choice>',
      "pharaoh/talp hold one alignment a file: an alignment id, merged-gold (union of all annotators' gold) or each (one file per alignment, named FILE-STEM.<alignment>.EXT)",
    )
    .option('--one-based', 'Pharaoh: indices start at 1')
    .option('--tokenized', 'tsv, fastalign: the segmented text, tokens joined by one space')
    .option('--by-character', 'Chinese side(s) one token per Han character (LDC convention), links carried to the characters')
    .action(
      async (
        projectFile: string,
        file: string,
        o: {
          format: string;
          status?: string;
          split?: string;
          alignments?: string;
          linksFrom?: string;
          oneBased?: boolean;
          tokenized?: boolean;
          byCharacter?: boolean;
        },
      ) => {
        const options = parseOptions(exportOptionsSchema, {
          file,
          format: o.format,
          status: list(o.status),
          split: list(o.split),
          alignmentIds: list(o.alignments)?.map(Number),
          oneBased: o.oneBased,
          tokenized: o.tokenized,
          byCharacter: o.byCharacter,
          linksFrom: o.linksFrom === undefined || !/^\d+$/.test(o.linksFrom) ? o.linksFrom : Number(o.linksFrom),
        });
        await runProjectJob(projectFile, 'export', (store, run) => runExport(store, options, run));
      },
    );
}
