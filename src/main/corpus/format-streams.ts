// The import and export pipelines' way in to the formats: API options (src/shared/api.ts)
// mapped onto the registry in formats.ts, with an optional links file attached to the
// pair stream as an `import` alignment.
import type { ImportOptions } from '../../shared/api.ts';
import { detectLinksFormat, linksReaderFor, readerFor, writerFor, type AnyReadOptions, type AnyWriteOptions } from './formats.ts';
import { attachLinks, type LinkedPair } from './links.ts';
import type { RecordSource, WriteTarget } from './output.ts';
import type { PairRecord } from './record.ts';

/**
 * The records of an import: `options` says which files and how; `read` adds progress,
 * cancel and anything format-specific (TMX srcLang/tgtLang, allowEmpty). With a links
 * file, records are LinkedPairs (see links.ts) whose indices the caller checks.
 */
export async function* openRecords(options: ImportOptions, read: AnyReadOptions = {}): AsyncGenerator<PairRecord | LinkedPair> {
  const files = options.tgtFile ? [options.file, options.tgtFile] : [options.file];
  const pairs = readerFor(options.format)(files, {
    ...read,
    header: options.header ?? read.header,
    srcColumn: options.srcColumn ?? read.srcColumn,
    tgtColumn: options.tgtColumn ?? read.tgtColumn,
    maxLineBytes: options.maxLineBytes ?? read.maxLineBytes,
    maxFileBytes: options.maxFileBytes ?? read.maxFileBytes,
  });
  if (!options.linksFile) {
    yield* pairs;
    return;
  }
  const format = options.linksFormat ?? (await detectLinksFormat(options.linksFile));
  const groups = linksReaderFor(format)(options.linksFile, {
    signal: read.signal,
    base: options.linksOneBased ? 1 : 0,
    maxLineBytes: options.maxLineBytes,
    maxFileBytes: options.maxFileBytes,
  });
  yield* attachLinks(pairs, groups, { file: options.linksFile, openEnded: format === 'talp' });
}

/** Writes `records` in `format`; `oneBased` sets the index base of Pharaoh output. */
export async function writeRecords(
  format: string,
  records: RecordSource,
  target: WriteTarget | WriteTarget[],
  opts: AnyWriteOptions & { oneBased?: boolean } = {},
): Promise<void> {
  const { oneBased, ...rest } = opts;
  await writerFor(format)(records, target, { ...rest, base: rest.base ?? (oneBased ? 1 : 0) });
}
