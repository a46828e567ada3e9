// Parquet export: the JSONL records (jsonl.ts `pairToJson`, so both formats hold the same
// content) as one row per pair, for Hugging Face `datasets` and other Arrow readers. Columns
// keep the JSONL's names and nesting; where JSONL writes a tuple, Parquet has a struct with
// named fields (a list's items must share one type):
//
//   id int64 · src, tgt struct<text string, tokens list<list<int32>>> (tokens [start, end])
//   · alignments list<struct<origin, source string, links list<struct<s, t int32, kind string,
//     score double, tag string>>, adjudicated bool, untranslated struct<src, tgt list<int32>>>>
//   · rejected list<struct<s, t int32, annotator string>> · status, split, note string
//   · reviews list<struct<annotator, status, note string>>
//
// A key the JSONL record lacks is null. Written with hyparquet-writer (pure JavaScript, Snappy)
// one row group per BATCH records, so memory stays bounded; like every writer, the file
// appears only once complete (`<file>.partial-<pid>` meanwhile).
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import { UserError } from '../errors.ts';
import { checkCancelled } from '../jobs/job-context.ts';
import { pairToJson } from './jsonl.ts';
import type { AlignmentJsonValue, PairJsonValue } from './jsonl-schema.ts';
import { removeDeadPartials, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';

/** Rows per row group: about 10–40 MB of a long-sentence corpus before compression. */
const BATCH = 20_000;

type Repetition = 'REQUIRED' | 'OPTIONAL' | 'REPEATED';

const text = (name: string, repetition: Repetition = 'OPTIONAL'): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  repetition_type: repetition,
});
const int32 = (name: string, repetition: Repetition = 'REQUIRED'): SchemaElement => ({ name, type: 'INT32', repetition_type: repetition });
/** A list column (the three-level LIST layout Arrow writes) whose items are `item` (one element or a subtree). */
const list = (name: string, item: SchemaElement[], repetition: Repetition = 'OPTIONAL'): SchemaElement[] => [
  { name, repetition_type: repetition, converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...item,
];
const struct = (name: string, fields: SchemaElement[][], repetition: Repetition = 'REQUIRED'): SchemaElement[] => [
  { name, repetition_type: repetition, num_children: fields.length },
  ...fields.flat(),
];

const side = (name: string) => struct(name, [[text('text', 'REQUIRED')], list('tokens', list('element', [int32('element')], 'REQUIRED'))]);

/** The file's schema, root first, depth first. */
const COLUMNS: SchemaElement[][] = [
  [{ name: 'id', type: 'INT64', repetition_type: 'OPTIONAL' }],
  side('src'),
  side('tgt'),
  list(
    'alignments',
    struct('element', [
      [text('origin', 'REQUIRED')],
      [text('source', 'REQUIRED')],
      [{ name: 'adjudicated', type: 'BOOLEAN', repetition_type: 'OPTIONAL' }],
      list(
        'links',
        struct('element', [
          [int32('s')],
          [int32('t')],
          [text('kind', 'REQUIRED')],
          [{ name: 'score', type: 'DOUBLE', repetition_type: 'OPTIONAL' }],
          [text('tag')],
        ]),
        'REQUIRED',
      ),
      struct('untranslated', [list('src', [int32('element')], 'REQUIRED'), list('tgt', [int32('element')], 'REQUIRED')], 'OPTIONAL'),
    ]),
  ),
  list('rejected', struct('element', [[int32('s')], [int32('t')], [text('annotator', 'REQUIRED')]])),
  [text('status')],
  [text('split')],
  [text('note')],
  list('reviews', struct('element', [[text('annotator', 'REQUIRED')], [text('status', 'REQUIRED')], [text('note')]])),
];
const SCHEMA: SchemaElement[] = [{ name: 'schema', num_children: COLUMNS.length }, ...COLUMNS.flat()];

/** One JSONL value as a row: tuples become structs, absent keys null. */
function row(json: PairJsonValue & { id?: number }) {
  const sideRow = (s: PairJsonValue['src']) => ({ text: s.text, tokens: s.tokens?.map(([start, end]) => [start, end]) ?? null });
  const alignment = (a: AlignmentJsonValue) => ({
    origin: a.origin,
    source: a.source,
    adjudicated: a.adjudicated ?? null,
    links: a.links.map(([s, t, kind, score, tag]) => ({ s, t, kind, score, tag: tag ?? null })),
    untranslated: a.untranslated ?? null,
  });
  return {
    id: json.id === undefined ? null : BigInt(json.id),
    src: sideRow(json.src),
    tgt: sideRow(json.tgt),
    alignments: json.alignments?.map(alignment) ?? null,
    rejected: json.rejected?.map(([s, t, annotator]) => ({ s, t, annotator })) ?? null,
    status: json.status ?? null,
    split: json.split ?? null,
    note: json.note ?? null,
    reviews: json.reviews?.map((r) => ({ annotator: r.annotator, status: r.status, note: r.note ?? null })) ?? null,
  };
}

type Row = ReturnType<typeof row>;

function columnData(rows: Row[]): ColumnSource[] {
  return COLUMNS.map(([head]) => ({ name: head.name, data: rows.map((r) => r[head.name as keyof Row]) }));
}

/** Writes the records to a Parquet file (a path: Parquet's footer is written last, so not to a stream). */
export async function writeParquet(records: RecordSource, target: WriteTarget, opts: WriteOptions = {}): Promise<void> {
  if (typeof target !== 'string') throw new UserError('Parquet is written to a file, not to a stream');
  const { ParquetWriter, fileWriter } = await import('hyparquet-writer');
  removeDeadPartials(dirname(target));
  const partial = join(dirname(target), `${basename(target)}.partial-${process.pid}`);
  try {
    const writer = new ParquetWriter({ writer: fileWriter(partial), schema: SCHEMA, createdBy: 'mekong' });
    let rows: Row[] = [];
    const flush = () => {
      if (rows.length) writer.write({ columnData: columnData(rows), rowGroupSize: BATCH });
      rows = [];
    };
    for await (const rec of records) {
      if ((rows.length & 1023) === 0) checkCancelled(opts.signal);
      rows.push(row(pairToJson(rec)));
      if (rows.length === BATCH) flush();
    }
    checkCancelled(opts.signal);
    flush();
    writer.finish();
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}
