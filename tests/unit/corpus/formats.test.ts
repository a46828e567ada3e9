// The format table and the pipelines' entry points: detection by extension (and by
// content for links files), readers and writers looked up by name, and openRecords /
// writeRecords from API options, with a links file attached and TMX languages passed on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFormats, detectFormat, detectLinksFormat, FORMATS, readerFor, writerFor } from '../../../src/main/corpus/formats.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import { openRecords, writeRecords } from '../../../src/main/corpus/format-streams.ts';
import { UserError } from '../../../src/main/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, FIXTURES, put, SHARED } from './helpers.ts';

const dir = tempDir('mekong-formats-');
const recs: PairRecord[] = [
  {
    line: 0,
    src: 'ສະບາຍດີ ໂລກ',
    tgt: 'สวัสดี โลก',
    alignments: [{ origin: 'gold', source: 'anna', links: [{ s: 1, t: 1, kind: 'possible', score: null }] }],
  },
  { line: 0, src: 'ຂອບໃຈ', tgt: 'ขอบคุณ' },
];

describe('format table', () => {
  it('detects formats by extension, Moses by two paths', () => {
    expect(['a.tsv', 'a.TAB', 'b.csv', 'c.tmx', 'd.jsonl', 'e.txt', 'f.align', 'g.talp', 'h.doc'].map((p) => detectFormat(p))).toEqual([
      'tsv',
      'tsv',
      'csv',
      'tmx',
      'jsonl',
      'fastalign',
      'pharaoh',
      'talp',
      undefined,
    ]);
    expect(detectFormat(['corpus.lo', 'corpus.th'])).toBe('moses');
  });

  it('describes the table as plain data', () => {
    const table = describeFormats();
    expect(table.map((f) => `${f.id}:${f.kind}:${f.files}`)).toEqual([
      'tsv:pairs:1',
      'csv:pairs:1',
      'moses:pairs:2',
      'fastalign:pairs:1',
      'tmx:pairs:1',
      'jsonl:pairs:1',
      'parquet:pairs:1',
      'pharaoh:links:1',
      'talp:links:1',
    ]);
    expect(JSON.parse(JSON.stringify(table))).toEqual(table);
  });

  it('tells TALP from Pharaoh lines by content (the std-gold-align .talp files are Pharaoh)', async () => {
    expect(await detectLinksFormat(join(SHARED, 'std-gold-align/deen.talp'))).toBe('pharaoh');
    expect(await detectLinksFormat(put(dir, 'x.talp', '\n1 2 3 S\n'))).toBe('talp');
  });

  it('writes every format and reads the pair formats back', async () => {
    for (const f of FORMATS) {
      const targets = f.files === 2 ? [join(dir, `w.${f.id}.src`), join(dir, `w.${f.id}.tgt`)] : [join(dir, `w${f.extensions[0]}`)];
      await writerFor(f.id)(recs, targets, { srcLang: 'lo', tgtLang: 'th' });
      if (f.kind === 'links' || !f.read) continue;
      const back = await collect(readerFor(f.id)(targets, { tgtLang: 'th' }));
      expect(back.map((r) => [r.src, r.tgt])).toEqual(recs.map((r) => [r.src, r.tgt]));
    }
    expect(readFileSync(join(dir, 'w.align'), 'utf8')).toBe('1?1\n\n');
    expect(readFileSync(join(dir, 'w.talp'), 'utf8')).toBe('1 2 2 P\n');
  });

  it('refuses unknown formats, wrong file counts and TMX without languages', async () => {
    expect(() => readerFor('docx')).toThrow(
      new UserError('unknown format "docx" (known: tsv, csv, moses, fastalign, tmx, jsonl, parquet, pharaoh, talp)'),
    );
    expect(() => readerFor('parquet')).toThrow(
      new UserError('Parquet (the JSONL records, for Hugging Face datasets) is an export format: import the JSONL export instead'),
    );
    expect(() => readerFor('pharaoh')).toThrow(UserError);
    expect(() => readerFor('moses')(['a.lo'])).toThrow(
      new UserError('Moses pair (two files, one sentence per line) reads 2 file(s), got 1'),
    );
    await expect(writerFor('tmx')(recs, join(dir, 'x.tmx'))).rejects.toThrow('TMX export needs the source and target languages');
  });
});

describe('openRecords / writeRecords', () => {
  it('reads a TSV with a 1-based Pharaoh links file as an import alignment', async () => {
    const tsv = put(dir, 'p.tsv', 'lo\tth\nກ ຂ\tก ข\nຄ\tค\n');
    const links = put(dir, 'p.align', '1-1 2p2\n1-1\n');
    const out = await collect(
      openRecords({
        file: tsv,
        format: 'tsv',
        srcColumn: 'lo',
        tgtColumn: 'th',
        tokenization: 'pretokenized',
        linksFile: links,
        linksOneBased: true,
      }),
    );
    expect(out.map((r) => [r.line, r.alignments?.[0].links.length, 'linksLine' in r ? r.linksLine : 0])).toEqual([
      [2, 2, 1],
      [3, 1, 2],
    ]);
    expect(out[0].alignments![0]).toMatchObject({ origin: 'import', source: links });
  });

  it('reads TMX with the languages it is given and a TALP file detected by content', async () => {
    const wa = put(dir, 'i.wa', '3 1 1 S\n');
    const out = await collect(
      openRecords(
        { file: join(FIXTURES, 'inline.tmx'), format: 'tmx', tokenization: 'segment', linksFile: wa },
        { srcLang: 'lo', tgtLang: 'th' },
      ),
    );
    expect(out.map((r) => r.alignments![0].links.length)).toEqual([0, 0, 1]);
  });

  it('reports a target it cannot create instead of crashing', async () => {
    const f = join(dir, 'no-such-dir', 'o.jsonl');
    await expect(writeRecords('jsonl', recs, f)).rejects.toThrow(/ENOENT/);
  });

  it('writes Pharaoh 1-based through writeRecords', async () => {
    const f = join(dir, 'o.align');
    await writeRecords('pharaoh', recs, f, { oneBased: true });
    expect(readFileSync(f, 'utf8')).toBe('2?2\n\n');
  });
});
