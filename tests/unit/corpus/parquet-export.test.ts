// The Parquet export holds the JSONL export's content: a project with gold (tags, possible
// links, "not translated" marks), adjudicated gold, model links with scores, rejected links,
// statuses, splits, notes and each annotator's review is exported to both, filtered to Done pairs; the Parquet file read back with
// hyparquet (the reader of the library that wrote it) gives, record for record, the JSONL's
// values, pair ids included, and those ids are the project's pairs.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { describe, expect, test } from 'vitest';
import { runExport } from '../../../src/main/corpus/export-pipeline.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

const LINES = [
  {
    src: {
      text: 'ສະບາຍດີ ໂລກ',
      tokens: [
        [0, 7],
        [8, 11],
      ],
    },
    tgt: {
      text: 'สวัสดี โลก',
      tokens: [
        [0, 6],
        [7, 10],
      ],
    },
    alignments: [
      {
        origin: 'gold',
        source: 'anna',
        links: [
          [0, 0, 'sure', null, 'semantic'],
          [1, 1, 'possible', null],
        ],
        untranslated: { src: [], tgt: [] },
      },
      {
        origin: 'model',
        source: 'ibm2',
        links: [
          [0, 0, 'sure', 0.93],
          [1, 0, 'sure', 0.25],
        ],
      },
      { origin: 'gold', source: 'adjudicated', adjudicated: true, links: [[0, 0, 'sure', null]] },
    ],
    rejected: [[1, 0, 'anna']],
    status: 'done',
    split: 'train',
    note: 'checked "twice"',
    reviews: [
      { annotator: 'anna', status: 'done', note: 'fine' },
      { annotator: 'ben', status: 'done' },
    ],
  },
  { src: 'ກິນ ເຂົ້າ', tgt: 'กิน ข้าว', status: 'new' },
  {
    src: {
      text: 'ເຮືອນ ໃຫຍ່',
      tokens: [
        [0, 5],
        [6, 10],
      ],
    },
    tgt: {
      text: 'บ้าน ใหญ่ มาก',
      tokens: [
        [0, 4],
        [5, 9],
        [10, 13],
      ],
    },
    alignments: [{ origin: 'gold', source: 'noy', links: [[0, 0, 'sure', null]], untranslated: { src: [], tgt: [2] } }],
    status: 'done',
  },
];

type Json = Record<string, unknown>;

/** A Parquet row in the JSONL's shape: structs back to tuples, nulls to absent keys, ids to numbers. */
function asJsonl(row: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null || v === undefined) continue;
    if (k === 'id') out.id = Number(v);
    else if (k === 'src' || k === 'tgt') {
      const side = v as { text: string; tokens: number[][] | null };
      out[k] = side.tokens == null ? { text: side.text } : { text: side.text, tokens: side.tokens };
    } else if (k === 'alignments')
      out[k] = (v as Json[]).map((a) => ({
        origin: a.origin,
        source: a.source,
        ...(a.adjudicated == null ? {} : { adjudicated: a.adjudicated }),
        links: (a.links as Json[]).map((l) => (l.tag == null ? [l.s, l.t, l.kind, l.score] : [l.s, l.t, l.kind, l.score, l.tag])),
        ...(a.untranslated == null ? {} : { untranslated: a.untranslated }),
      }));
    else if (k === 'rejected') out[k] = (v as Json[]).map((r) => [r.s, r.t, r.annotator]);
    else if (k === 'reviews') out[k] = (v as Json[]).map((r) => (r.note == null ? { annotator: r.annotator, status: r.status } : r));
    else out[k] = v;
  }
  return out;
}

describe('Parquet export', () => {
  test('the JSONL records, read back with hyparquet, Done pairs with their ids', async () => {
    const store = ProjectStore.create(join(dir, 'p.mekong'), { name: 'p', srcLang: 'lo', tgtLang: 'th' });
    const input = join(dir, 'in.jsonl');
    writeFileSync(input, LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await runImport(store, { file: input, format: 'jsonl', tokenization: 'segment' });
    const jsonl = join(dir, 'done.jsonl');
    const parquet = join(dir, 'done.parquet');
    await runExport(store, { file: jsonl, format: 'jsonl', status: ['done'] });
    expect(await runExport(store, { file: parquet, format: 'parquet', status: ['done'] })).toBe(`exported 2 pairs to ${parquet}`);

    const expected = readFileSync(jsonl, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    // The ids are the project's: a Done-only export maps back to its pairs.
    expect(expected.map((r) => r.id)).toEqual([1, 3]);
    expect(expected.map((r) => (r.src as Json).text)).toEqual([store.getPair(1).src, store.getPair(3).src]);

    const bytes = readFileSync(parquet);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const rows = (await parquetReadObjects({ file })) as Json[];
    expect(expected[0]).toMatchObject({ reviews: [{ annotator: 'anna' }, { annotator: 'ben' }] });
    expect((expected[0].alignments as Json[]).some((a) => a.adjudicated === true)).toBe(true);
    expect(rows.map(asJsonl)).toEqual(expected);
    const top = parquetSchema(await parquetMetadataAsync(file)).children.map((c) => c.element.name);
    expect(top).toEqual(['id', 'src', 'tgt', 'alignments', 'rejected', 'status', 'split', 'note', 'reviews']);
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
    store.close();
  });

  test('an empty selection writes a valid empty file; a cancelled export leaves none', async () => {
    const store = ProjectStore.create(join(dir, 'e.mekong'), { name: 'e', srcLang: 'lo', tgtLang: 'th' });
    const out = join(dir, 'none.parquet');
    await runExport(store, { file: out, format: 'parquet' });
    const bytes = readFileSync(out);
    expect(await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })).toEqual([]);
    const cancelled = join(dir, 'cancelled.parquet');
    const abort = new AbortController();
    abort.abort();
    await expect(runExport(store, { file: cancelled, format: 'parquet' }, { signal: abort.signal })).rejects.toThrow('cancelled');
    expect(existsSync(cancelled)).toBe(false);
    store.close();
  });
});

test('`mekong export --format parquet` writes the file the library reads', () => {
  const project = join(dir, 'cli.mekong');
  const input = join(dir, 'cli.jsonl');
  writeFileSync(input, LINES.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const mekong = (...args: string[]) => spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  expect(mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th').status).toBe(0);
  expect(mekong('import', project, input).status).toBe(0);
  const out = join(dir, 'cli.parquet');
  const r = mekong('export', project, out, '--format', 'parquet', '--status', 'new');
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe(`exported 1 pair to ${out}`);
  const bytes = readFileSync(out);
  return parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) }).then((rows) =>
    expect(rows.map((row) => [Number(row.id), (row.src as { text: string }).text])).toEqual([[2, 'ກິນ ເຂົ້າ']]),
  );
}, 240_000);
