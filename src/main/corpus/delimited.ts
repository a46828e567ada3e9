// TSV and CSV: reader on csv-parse, writer on csv-stringify. Fields may be quoted with '"'
// (quoted fields may hold delimiters and line breaks: the embassy CSV has multi-line
// paragraphs). Columns are chosen by header name or 0-based index (default 0 and 1).
//
// The parser is driven piece by piece (write, then read() what it produced) instead of
// being piped, so records and parse errors stay in step with our own line counting. The
// start line of each record is computed from its raw text: csv-parse's `info.lines`
// counts a quoted "\r\n" twice.
import { parse, type CsvError, type Options as CsvOptions } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { InputError } from '../errors.ts';
import { ByteProgress, checkSides, readTextPieces, type ReadOptions, type TextPiece } from './input.ts';
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
}

/** ',' for *.csv, tab otherwise. */
export function delimiterFor(file: string): string {
  return /\.csv$/i.test(file) ? ',' : '\t';
}

interface RawRecord {
  record: string[];
  raw: string;
}

/**
 * Line breaks in a record's raw text. csv-parse leaves the last character of a "\r\n"
 * record delimiter out of `raw`, so a lone '\r' counts as a break like '\n' and "\r\n".
 */
function lineBreaks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10 || (c === 13 && s.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

/** Breaks before the first other character: the empty lines the parser skipped. */
function leadingLines(raw: string): number {
  return lineBreaks(/^[\r\n]*/.exec(raw)![0]);
}

/** Yields [fields, start line] per record; parse errors become InputError at the record's line. */
async function* csvRecords(
  pieces: AsyncIterable<TextPiece>,
  file: string,
  delimiter: string,
  quote: string | false,
): AsyncGenerator<[string[], number]> {
  // A high readable mark so a whole piece's records are buffered until we read them.
  const options: CsvOptions & { readableHighWaterMark: number } = {
    delimiter,
    quote: quote === false ? null : quote,
    raw: true,
    skip_empty_lines: true,
    readableHighWaterMark: 1 << 30,
  };
  const parser = parse(options);
  const state = { failure: null as CsvError | null, consumed: 0 };
  parser.on('error', (err: CsvError) => (state.failure = err));
  function* drain(): Generator<[string[], number]> {
    for (let r = parser.read() as RawRecord | null; r !== null; r = parser.read()) {
      yield [r.record, state.consumed + 1 + leadingLines(r.raw)];
      state.consumed += lineBreaks(r.raw);
    }
    if (state.failure) throw csvError(file, state.consumed + 1, state.failure);
  }
  for await (const piece of pieces) {
    await new Promise<void>((res) => parser.write(piece.text, () => res()));
    yield* drain();
  }
  await new Promise<void>((res) => parser.end(() => res()));
  yield* drain();
}

/** csv-parse's error as a short reason without its own (possibly off) line numbers. */
function csvError(file: string, line: number, err: CsvError): InputError {
  const lengths = /expect (\d+), got (\d+)/.exec(err.message);
  const reason =
    err.code === 'CSV_QUOTE_NOT_CLOSED'
      ? 'quoted field not closed before the end of the file'
      : err.code === 'CSV_INVALID_CLOSING_QUOTE'
        ? 'unexpected character after a closing quote'
        : lengths
          ? `expected ${lengths[1]} columns, found ${lengths[2]}`
          : err.message.replace(/ (on|at) line \d+/g, '');
  return new InputError(file, line, reason);
}

/** Column indices for source and target from the header (or null) and the options. */
function resolveColumns(
  header: string[] | null,
  opts: DelimitedReadOptions,
  file: string,
): [number, number] {
  const pick = (col: string | number | undefined, fallback: number): number => {
    if (col === undefined) return fallback;
    if (typeof col === 'number') return col;
    if (header === null) throw new InputError(file, 0, `column "${col}" chosen by name but the file is read without a header`);
    const exact = header.indexOf(col);
    const i = exact !== -1 ? exact : header.findIndex((h) => h.trim().toLowerCase() === col.trim().toLowerCase());
    if (i === -1) throw new InputError(file, 1, `no column "${col}" in the header (columns: ${header.join(', ')})`);
    return i;
  };
  return [pick(opts.srcColumn, 0), pick(opts.tgtColumn, 1)];
}

/** Reads a TSV or CSV file, one PairRecord per record (line = the line the record starts on). */
export async function* readDelimited(
  file: string,
  opts: DelimitedReadOptions = {},
): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([file], opts.onBytes);
  const pieces = readTextPieces(file, progress, opts.signal, false);
  const delimiter = opts.delimiter ?? delimiterFor(file);
  const header = opts.header ?? (typeof opts.srcColumn === 'string' || typeof opts.tgtColumn === 'string');
  let cols = header ? null : resolveColumns(null, opts, file);
  for await (const [fields, line] of csvRecords(pieces, file, delimiter, opts.quote ?? '"')) {
    if (cols === null) {
      cols = resolveColumns(fields, opts, file);
      continue;
    }
    const [si, ti] = cols;
    const missing = Math.max(si, ti);
    if (missing >= fields.length) {
      throw new InputError(file, line, `no column ${missing} (the record has ${fields.length} columns, counted from 0)`);
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
export async function writeDelimited(
  records: RecordSource,
  target: WriteTarget,
  opts: DelimitedWriteOptions = {},
): Promise<void> {
  const delimiter = opts.delimiter ?? '\t';
  const row = (fields: string[]): string => stringify([fields], { delimiter, record_delimiter: '\n' });
  await writeRendered(records, target, (rec) => row([rec.src, rec.tgt]), {
    ...opts,
    header: opts.header ? row(opts.header) : undefined,
  });
}
