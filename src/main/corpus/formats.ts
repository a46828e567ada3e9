// The one table of file formats: what each is called, its extensions, how many files it
// spans, and its reader and writer, so the CLI, the API and the UI list formats from here.
// Pair formats read to PairRecords; links formats (Pharaoh, TALP) read to LinkGroups that
// links.ts attaches to a pair stream. Every format can be written; Parquet (for training
// pipelines) is written only.
import { ByteProgress } from './input.ts';
import { open } from 'node:fs/promises';
import { UserError } from '../errors.ts';
import { readDelimited, writeDelimited, type DelimitedReadOptions, type DelimitedWriteOptions } from './delimited.ts';
import { readFastAlign, writeFastAlign } from './fastalign.ts';
import { readJsonl, writeJsonl } from './jsonl.ts';
import type { LinkGroup } from './links.ts';
import { readMoses, writeMoses } from './moses.ts';
import { writeParquet } from './parquet.ts';
import type { RecordSource, WriteTarget } from './output.ts';
import { readPharaoh, writePharaoh, type LinksReadOptions, type PharaohWriteOptions } from './pharaoh.ts';
import type { PairRecord } from './record.ts';
import { readTalp, writeTalp } from './talp.ts';
import { readTmx, type TmxReadOptions } from './tmx.ts';
import { writeTmx, type TmxWriteOptions } from './tmx-write.ts';

export type PairFormat = 'tsv' | 'csv' | 'moses' | 'fastalign' | 'tmx' | 'jsonl' | 'parquet';
export type LinksFormat = 'pharaoh' | 'talp';
export type Format = PairFormat | LinksFormat;

/** Options for any reader; each reads the fields that concern it. */
export type AnyReadOptions = DelimitedReadOptions & TmxReadOptions;
/** Options for any writer; TMX needs srcLang and tgtLang. */
export type AnyWriteOptions = DelimitedWriteOptions & PharaohWriteOptions & Partial<TmxWriteOptions>;

export type PairReader = (files: string[], opts?: AnyReadOptions) => AsyncGenerator<PairRecord>;
export type LinksReader = (file: string, opts?: LinksReadOptions) => AsyncGenerator<LinkGroup>;
export type Writer = (records: RecordSource, targets: WriteTarget[], opts?: AnyWriteOptions) => Promise<void>;

export interface FormatInfo {
  id: Format;
  label: string;
  /** Lower-case extensions with the dot; the first is the one to suggest. */
  extensions: string[];
  /** Files per corpus: Moses has a source and a target file. */
  files: 1 | 2;
  kind: 'pairs' | 'links';
  write: Writer;
}

interface PairFormatInfo extends FormatInfo {
  kind: 'pairs';
  /** Absent for a format that is exported only. */
  read?: PairReader;
}

interface LinksFormatInfo extends FormatInfo {
  kind: 'links';
  readLinks: LinksReader;
}

function needLangs(opts: AnyWriteOptions): TmxWriteOptions {
  const { srcLang, tgtLang } = opts;
  if (!srcLang || !tgtLang) throw new UserError('TMX export needs the source and target languages');
  return { ...opts, srcLang, tgtLang };
}

/** TSV or CSV: the format fixes the delimiter unless the options name one. */
const delimited = (delimiter: string): { read: PairReader; write: Writer } => ({
  read: (files, opts) => readDelimited(files[0], { ...opts, delimiter: opts?.delimiter ?? delimiter }),
  write: (records, [t], opts) => writeDelimited(records, t, { ...opts, delimiter: opts?.delimiter ?? delimiter }),
});

export const FORMATS: readonly (PairFormatInfo | LinksFormatInfo)[] = [
  { id: 'tsv', label: 'TSV (tab-separated)', extensions: ['.tsv', '.tab'], files: 1, kind: 'pairs', ...delimited('\t') },
  { id: 'csv', label: 'CSV (comma-separated)', extensions: ['.csv'], files: 1, kind: 'pairs', ...delimited(',') },
  {
    id: 'moses',
    label: 'Moses pair (two files, one sentence per line)',
    extensions: ['.txt'],
    files: 2,
    kind: 'pairs',
    read: (files, opts) => readMoses(files[0], files[1], opts),
    write: (records, [s, t], opts) => writeMoses(records, s, t, opts),
  },
  {
    id: 'fastalign',
    label: 'fast_align bitext (src ||| tgt)',
    extensions: ['.txt', '.bitext'],
    files: 1,
    kind: 'pairs',
    read: (files, opts) => readFastAlign(files[0], opts),
    write: (records, [t], opts) => writeFastAlign(records, t, opts),
  },
  {
    id: 'tmx',
    label: 'TMX 1.4',
    extensions: ['.tmx'],
    files: 1,
    kind: 'pairs',
    read: (files, opts) => readTmx(files[0], opts),
    write: (records, [t], opts = {}) => writeTmx(records, t, needLangs(opts)),
  },
  {
    id: 'jsonl',
    label: 'Mekong JSONL',
    extensions: ['.jsonl', '.ndjson'],
    files: 1,
    kind: 'pairs',
    read: (files, opts) => readJsonl(files[0], opts),
    write: (records, [t], opts) => writeJsonl(records, t, opts),
  },
  {
    id: 'parquet',
    label: 'Parquet (the JSONL records, for Hugging Face datasets)',
    extensions: ['.parquet'],
    files: 1,
    kind: 'pairs',
    write: (records, [t], opts) => writeParquet(records, t, opts),
  },
  {
    id: 'pharaoh',
    label: 'Pharaoh links (i-j, i?j, ipj)',
    extensions: ['.align', '.links', '.pharaoh', '.out'],
    files: 1,
    kind: 'links',
    readLinks: readPharaoh,
    write: (records, [t], opts) => writePharaoh(records, t, opts),
  },
  {
    id: 'talp',
    label: 'TALP / NAACL-2003 links',
    extensions: ['.talp', '.wa'],
    files: 1,
    kind: 'links',
    readLinks: readTalp,
    write: (records, [t], opts) => writeTalp(records, t, opts),
  },
];

/** The table as plain data (for the API and the UI: no functions). */
export function describeFormats(): Pick<FormatInfo, 'id' | 'label' | 'extensions' | 'files' | 'kind'>[] {
  return FORMATS.map(({ id, label, extensions, files, kind }) => ({ id, label, extensions, files, kind }));
}

export function formatInfo(format: string): PairFormatInfo | LinksFormatInfo {
  const info = FORMATS.find((f) => f.id === format);
  if (!info) throw new UserError(`unknown format "${format}" (known: ${FORMATS.map((f) => f.id).join(', ')})`);
  return info;
}

/** The reader of a pair format; it takes `files` (two for Moses). */
export function readerFor(format: string): PairReader {
  const info = formatInfo(format);
  if (info.kind !== 'pairs') throw new UserError(`${info.label} holds links, not sentence pairs`);
  const read = info.read;
  if (!read) throw new UserError(`${info.label} is an export format: import the JSONL export instead`);
  return (files, opts) => {
    if (files.length !== info.files) {
      throw new UserError(`${info.label} reads ${info.files} file(s), got ${files.length}`);
    }
    return read(files, opts);
  };
}

/** The reader of a links format. */
export function linksReaderFor(format: string): LinksReader {
  const info = formatInfo(format);
  if (info.kind !== 'links') throw new UserError(`${info.label} holds sentence pairs, not links`);
  return info.readLinks;
}

/** The writer of any format; `targets` is one path or stream (two for Moses). */
export function writerFor(
  format: string,
): (records: RecordSource, targets: WriteTarget | WriteTarget[], opts?: AnyWriteOptions) => Promise<void> {
  const info = formatInfo(format);
  return async (records, targets, opts) => {
    const list = Array.isArray(targets) ? targets : [targets];
    if (list.length !== info.files) {
      throw new UserError(`${info.label} writes ${info.files} file(s), got ${list.length}`);
    }
    return info.write(records, list, opts);
  };
}

/**
 * The format of `paths` by extension: two paths are a Moses pair; `.txt` alone is a
 * fast_align bitext; links files by their usual extensions (but see detectLinksFormat:
 * many `.talp` files are really Pharaoh). Undefined when unknown.
 */
export function detectFormat(paths: string | string[]): Format | undefined {
  const list = Array.isArray(paths) ? paths : [paths];
  if (list.length === 2) return 'moses';
  const ext = /\.[^./\\]+$/.exec(list[0])?.[0].toLowerCase();
  if (ext === undefined) return undefined;
  return FORMATS.find((f) => f.files === 1 && f.extensions.includes(ext))?.id;
}

/** 'talp' when the first non-blank line of `file` looks like `sentno srcpos tgtpos …`, else 'pharaoh'. */
export async function detectLinksFormat(file: string): Promise<LinksFormat> {
  // The same checks as every reader (a pipe or a device would block the open below for ever).
  await ByteProgress.forFiles([file]);
  const handle = await open(file);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const first =
      buffer
        .subarray(0, bytesRead)
        .toString('utf8')
        .split('\n')
        .find((l) => l.trim() !== '') ?? '';
    return /^\s*\d+\s+\d+\s+\d+(\s+[SP])?(\s+[\d.eE+-]+)?\s*$/.test(first) ? 'talp' : 'pharaoh';
  } finally {
    await handle.close();
  }
}
