// TSV and CSV: a streaming reader, and a writer on csv-stringify. Fields may be quoted
// with '"' (quoted fields may hold delimiters and line breaks: the embassy CSV has
// multi-line paragraphs; a doubled quote is a quote); a quote inside an unquoted field,
// or text after a closing quote, is read as plain text (csv-parse's relax_quotes).
// Columns are chosen by header name or 0-based index (default 0 and 1). Line breaks
// inside quoted fields are read as '\n'.
//
// Hand-written rather than csv-parse: its streaming API measured ~90k records/s here and
// its sync API ~20 MB/s on long quoted fields (80 µs per embassy record), which made CSV
// parsing the bottleneck of a segmenting import. Lines without a quote character mean the
// same in every CSV dialect, so they are split on the delimiter directly; a line with a
// quote is joined with the following lines until its quoted fields close
// (`quotesClose`, one scan per line), then split by `splitQuotedRecord`, the same scan.
// When nobody said whether the first record is a header, a first record whose two chosen
// cells are both header words (the project's language codes or names, "source", "tgt", …)
// is taken for one and skipped, and the caller is told (`onHeaderSkipped`).
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../errors.ts';
import { ByteProgress, checkSides, readLineBatches, type ReadOptions } from './input.ts';
import { writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
import type { PairRecord } from './record.ts';

export interface DelimitedReadOptions extends ReadOptions {
  /** Field delimiter; default '\t' unless the file name ends in .csv (','). */
  delimiter?: string;
  /** Quote character, or false for none (default '"'). */
  quote?: string | false;
  /** First record is a header; default: true when a column is chosen by name. */
  header?: boolean;
  /** Source column: header name or 0-based index (default 0). */
  srcColumn?: string | number;
  /** Target column: header name or 0-based index (default 1). */
  tgtColumn?: string | number;
  /** The project's languages: their codes and names are header words. */
  srcLang?: string;
  tgtLang?: string;
  /** Called when `header` is not given and the first record was taken for a header and skipped. */
  onHeaderSkipped?: (line: number, cells: [string, string]) => void;
}

/** ',' for *.csv, tab otherwise. */
export function delimiterFor(file: string): string {
  return /\.csv$/i.test(file) ? ',' : '\t';
}

/** A quoted record may span at most this many lines (a stray quote must not swallow the file). */
const MAX_RECORD_LINES = 10_000;

/**
 * Whether every field of `text` that opens with `quote` closes again within it. A record's
 * next line is scanned alone, starting inside the open field (`inQuote`): a line break in
 * a quoted field never ends it, so each line is scanned once however many lines a record
 * spans (rescanning the joined record per line took 4.0 s for a 9,000-line quoted field,
 * 0.02 s now).
 */
function quotesClose(text: string, delimiter: string, quote: string, inQuote = false): boolean {
  let i = 0;
  for (;;) {
    if (inQuote || text.startsWith(quote, i)) {
      if (!inQuote) i += quote.length;
      inQuote = false;
      for (;;) {
        const q = text.indexOf(quote, i);
        if (q === -1) return false;
        i = q + quote.length;
        if (!text.startsWith(quote, i)) break;
        i += quote.length;
      }
    }
    const d = text.indexOf(delimiter, i);
    if (d === -1) return true;
    i = d + delimiter.length;
  }
}

/**
 * The fields of a record whose quoted fields all close (see quotesClose). A quoted
 * field followed by more text before the delimiter is kept as written, quotes included.
 */
function splitQuotedRecord(text: string, delimiter: string, quote: string): string[] {
  const fields: string[] = [];
  for (let start = 0; ;) {
    let i = start;
    let field = '';
    if (text.startsWith(quote, i)) {
      for (i += quote.length; ; i += quote.length) {
        const q = text.indexOf(quote, i);
        field += text.slice(i, q);
        i = q + quote.length;
        if (!text.startsWith(quote, i)) break;
        field += quote;
      }
    }
    const d = text.indexOf(delimiter, i);
    const end = d === -1 ? text.length : d;
    const closedAtEnd = i > start && i === end;
    fields.push(closedAtEnd ? field : text.slice(start, end));
    if (d === -1) return fields;
    start = d + delimiter.length;
  }
}

/** Yields [fields, start line] per non-empty record. */
async function* delimitedRecords(file: string, progress: ByteProgress, opts: DelimitedReadOptions): AsyncGenerator<[string[], number]> {
  const delimiter = opts.delimiter ?? delimiterFor(file);
  const quote = opts.quote ?? '"';
  let pending: string[] = [];
  let start = 0;
  for await (const batch of readLineBatches(file, progress, opts.signal)) {
    for (let i = 0; i < batch.lines.length; i++) {
      const text = batch.lines[i];
      if (pending.length === 0) {
        if (text === '') continue;
        if (quote === false || text.indexOf(quote) === -1) {
          yield [text.split(delimiter), batch.line + i];
          continue;
        }
        start = batch.line + i;
      }
      pending.push(text);
      if (quotesClose(text, delimiter, quote as string, pending.length > 1)) {
        yield [splitQuotedRecord(pending.length === 1 ? text : pending.join('\n'), delimiter, quote as string), start];
        pending = [];
      } else if (pending.length >= MAX_RECORD_LINES) {
        throw new InputError(file, start, `quoted field not closed within ${MAX_RECORD_LINES} lines`);
      }
    }
  }
  if (pending.length) throw new InputError(file, start, 'quoted field not closed before the end of the file');
}

/** Column indices for source and target from the header (or null; at `line`) and the options. */
function resolveColumns(header: string[] | null, opts: DelimitedReadOptions, file: string, line = 0): [number, number] {
  const pick = (col: string | number | undefined, fallback: number): number => {
    if (col === undefined) return fallback;
    if (typeof col === 'number') return col;
    if (header === null) {
      throw new InputError(file, line, `column "${col}" chosen by name but the file is read without a header`);
    }
    const exact = header.indexOf(col);
    const i = exact !== -1 ? exact : header.findIndex((h) => h.trim().toLowerCase() === col.trim().toLowerCase());
    if (i === -1) throw new InputError(file, line, `no column "${col}" in the header (columns: ${header.join(', ')})`);
    return i;
  };
  return [pick(opts.srcColumn, 0), pick(opts.tgtColumn, 1)];
}

/** Words a header cell commonly holds, besides the project's language codes and names. */
const HEADER_WORDS = [
  'src',
  'tgt',
  'trg',
  'source',
  'target',
  'text',
  'sentence',
  'segment',
  'translation',
  'original',
  'src_text',
  'tgt_text',
  'source_text',
  'target_text',
  'source text',
  'target text',
  'source sentence',
  'target sentence',
];

/** A language's header words: its code, the code's language subtag, its English and its own name. */
function languageWords(code: string): string[] {
  const words = [code, code.split('-')[0]];
  for (const locale of ['en', code]) {
    try {
      const name = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' }).of(code);
      if (name) words.push(name);
    } catch {
      // not a code Intl knows: the code itself is still a header word
    }
  }
  return words;
}

/** Whether both cells are header words (case-insensitive): `vi,en`, `Lao,Thai`, `source,target`. */
export function looksLikeHeader(cells: readonly string[], langs: readonly (string | undefined)[]): boolean {
  const words = new Set(
    [...HEADER_WORDS, ...langs.filter((l): l is string => !!l).flatMap(languageWords)].map((w) => w.toLocaleLowerCase()),
  );
  return cells.every((c) => words.has(c.trim().toLocaleLowerCase()));
}

/** Reads a TSV or CSV file, one PairRecord per record (line = the line the record starts on). */
export async function* readDelimited(file: string, opts: DelimitedReadOptions = {}): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  const header = opts.header ?? (typeof opts.srcColumn === 'string' || typeof opts.tgtColumn === 'string');
  let cols = header ? null : resolveColumns(null, opts, file);
  let width = -1;
  let detect = opts.header === undefined && !header;
  for await (const [fields, line] of delimitedRecords(file, progress, opts)) {
    if (width === -1) width = fields.length;
    if (fields.length !== width) {
      throw new InputError(file, line, `expected ${width} columns, found ${fields.length}`);
    }
    if (cols === null) {
      cols = resolveColumns(fields, opts, file, line);
      continue;
    }
    const [si, ti] = cols;
    const missing = Math.max(si, ti);
    if (missing >= fields.length) {
      const reason = `no column ${missing} (the record has ${fields.length} columns, counted from 0)`;
      throw new InputError(file, line, reason);
    }
    if (detect) {
      detect = false;
      if (looksLikeHeader([fields[si], fields[ti]], [opts.srcLang, opts.tgtLang])) {
        opts.onHeaderSkipped?.(line, [fields[si], fields[ti]]);
        continue;
      }
    }
    const rec: PairRecord = { line, src: fields[si], tgt: fields[ti] };
    checkSides(rec, opts.allowEmpty, file);
    yield rec;
  }
}

export interface DelimitedWriteOptions extends WriteOptions {
  /** Default '\t' (TSV); ',' for CSV. */
  delimiter?: string;
  /** Header names to write first, e.g. ['lo', 'th']. */
  header?: [string, string];
}

/** Writes `src<delimiter>tgt` per record; fields with delimiters, quotes or line breaks are quoted. */
export async function writeDelimited(records: RecordSource, target: WriteTarget, opts: DelimitedWriteOptions = {}): Promise<void> {
  const delimiter = opts.delimiter ?? '\t';
  const row = (fields: string[]): string => stringify([fields], { delimiter, record_delimiter: '\n' });
  await writeRendered(records, target, (rec) => row([rec.src, rec.tgt]), {
    ...opts,
    header: opts.header ? row(opts.header) : undefined,
  });
}
