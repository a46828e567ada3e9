// The JSONL export assembles each line as text straight from the pair rows and the packed link
// columns read a batch at a time (jsonl.ts storedJsonLine; range reads of links, marks,
// rejections and reviews) and encodes it into its output buffer (output.ts TextSink); records
// are written by jsonLine. Both must be, byte for byte, the schema value of every record as
// JSON.stringify writes it (pairToJson, which Parquet's rows are made of), on a real project
// with every kind of alignment, tags, awkward scores and texts, and under every option that
// chooses pairs or alignments.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { ExportOptions } from '../../../src/shared/api.ts';
import type { Link } from '../../../src/shared/domain.ts';
import { runExport, storeRecords } from '../../../src/main/corpus/export-pipeline.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { jsonLine, pairToJson, writeJsonl } from '../../../src/main/corpus/jsonl.ts';
import { writeRendered } from '../../../src/main/corpus/output.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { setAdjudicated } from '../../../src/main/review/adjudication.ts';
import { setGold, setRejected } from '../../../src/main/review/editor.ts';
import { createAlignment, linkInserter } from '../../../src/main/store/alignments.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { collect } from './helpers.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-jsonl-writer-');

/** Scores whose shortest text JSON.stringify must keep: 17 digits, exponents, whole numbers. */
const SCORES = [0.1 + 0.2, 1e-7, 8.853860512051609e-7, 1, 0, 0.5, Math.fround(0.9751728773117065), 2 / 3, null, 0.0001, 0.9978];

test('JSONL export is JSON.stringify(pairToJson(record)) byte for byte, under every option', async () => {
  const store = ProjectStore.create(join(dir, 'all.mekong'), { name: 't', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  const pairs = store.listPairs({}, 0, 1000).pairs;
  const ids = pairs.map((p) => p.id);
  expect(ids.length).toBeGreaterThan(200);
  const size = (id: number) => {
    const p = store.getPair(id);
    return Math.min(p.srcTokens.length, p.tgtTokens.length);
  };
  const model = createAlignment(store, { origin: 'model', name: 'agree + gdfa (run "1")' });
  const imported = createAlignment(store, { origin: 'import', name: 'links.pharaoh' });
  store.transaction(() => {
    ids.forEach((id, k) => {
      const n = size(id);
      const links: Link[] = Array.from({ length: n }, (_, i) => ({
        s: i,
        t: (i + k) % n,
        kind: i % 3 ? 'sure' : 'possible',
        score: SCORES[(i + k) % SCORES.length],
        // several tagged links in a pair, among untagged ones: the tags column is read apart
        ...((i + k) % 4 === 1 ? { tag: k % 2 ? 'x "y" ✓' : 'idiom' } : {}),
      }));
      linkInserter(store, model)(id, links);
      if (k % 4 === 0) linkInserter(store, imported)(id, [{ s: 0, t: 0, kind: 'sure', score: null }]);
    });
  });
  for (const [k, id] of ids.entries()) {
    if (k % 3 === 0)
      setGold(
        store,
        'anna',
        id,
        [
          { s: 0, t: 0, kind: 'sure', score: null },
          ...(size(id) > 2 ? [{ s: 1, t: 2, kind: 'possible' as const, score: null, tag: 'grammatically inferred' }] : []),
        ],
        k % 9 === 0 ? [{ side: 'tgt', index: size(id) - 1 }] : [],
      );
    if (k % 5 === 0) setGold(store, 'bén "b"', id, [{ s: 0, t: 0, kind: 'possible', score: null }], []);
    if (k % 7 === 0) setRejected(store, 'anna', id, [{ s: 0, t: 0 }]);
    if (k % 10 === 0) setAdjudicated(store, 'carl', id, [{ s: 0, t: 0, kind: 'sure', score: null }], [{ side: 'src', index: 1 }]);
    if (k % 6 === 0) store.updatePair('anna', id, { status: 'done', note: k % 12 ? '' : `"q" \\ ✓ 😀\n\ttab\u0001 ${k}` });
    if (k % 8 === 0) store.updatePair('ben', id, { status: 'flagged', split: k % 16 ? 'dev' : 'test' });
  }

  const options: Omit<ExportOptions, 'file' | 'format'>[] = [
    {},
    { status: ['done'] }, // scattered pairs: their ids read as a list
    { status: ['flagged', 'new'] },
    { split: ['dev', 'test'] },
    { alignmentIds: [model] },
    { alignmentIds: [imported, model], status: ['new'] },
  ];
  for (const [k, o] of options.entries()) {
    const file = join(dir, `out${k}.jsonl`);
    await runExport(store, { ...o, file, format: 'jsonl' });
    const records = await collect(storeRecords(store, o));
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(jsonLine(r)).toBe(JSON.stringify(pairToJson(r)));
    expect(readFileSync(file, 'utf8')).toBe(records.map((r) => JSON.stringify(pairToJson(r)) + '\n').join(''));
  }
  // the first file holds every kind of alignment, the marks, the rejections, the reviews
  const all = readFileSync(join(dir, 'out0.jsonl'), 'utf8');
  for (const part of [
    '"adjudicated":true',
    '"untranslated"',
    '"rejected"',
    '"reviews"',
    '"origin":"import"',
    '0.30000000000000004',
    '1e-7',
    '"idiom"]',
    '"x \\"y\\" ✓"]',
  ])
    expect(all).toContain(part);
  store.close();
});

test('the output buffer writes multi-byte text and texts longer than itself byte for byte', async () => {
  // 20,000 repeats: 140,000 characters, up to 4 bytes each, more than the buffer holds
  const texts = Array.from({ length: 3000 }, (_, k) => (k % 500 === 0 ? 'ລາວ 😀 '.repeat(20_000 + k) : `${k} ທ່ານ “ไทย” 😀\n`));
  const file = join(dir, 'texts.txt');
  const records = texts.map((src, line) => ({ line, src, tgt: '' }));
  await writeRendered(records, file, (r) => r.src);
  expect(readFileSync(file).equals(Buffer.from(texts.join(''), 'utf8'))).toBe(true);
});

test('JSONL lines longer than the line buffer, in every script, are JSON.stringify byte for byte', async () => {
  // texts of 140,000+ characters (up to 4 bytes each) and texts that need escapes, among short ones
  const texts = Array.from({ length: 600 }, (_, k) =>
    k % 200 === 0
      ? 'ລາວ 😀 '.repeat(20_000 + k)
      : k % 200 === 100
        ? 'ລາວ ไทย 中文 '.repeat(30_000 + k)
        : k % 3
          ? `${k} ທ່ານ “ไทย” 中文`
          : `${k} "q" \\ \u0001\n\ud800 😀`,
  );
  const records = texts.map((src, line) => ({ line, id: line + 1, src, tgt: `t${line}`, status: 'new' as const }));
  const file = join(dir, 'long.jsonl');
  await writeJsonl(records, file);
  expect(readFileSync(file, 'utf8')).toBe(records.map((r) => JSON.stringify(pairToJson(r)) + '\n').join(''));
});
