// TSV/CSV reader and writer on the embassy corpus and hand-made files: header and column
// choice, quoted multi-line fields, BOM, CRLF, record start lines, and exact errors.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDelimited, writeDelimited } from '../../../src/main/corpus/delimited.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, expectInputError, put, SHARED } from './helpers.ts';

const dir = tempDir('mekong-delimited-');
const SENT = join(SHARED, 'thai-lao-embassy/vientiane-thaiembassy-sent.csv');
const PARA = join(SHARED, 'thai-lao-embassy/vientiane-thaiembassy.csv');

describe('embassy CSV', () => {
  it('reads the sentence file with columns chosen by name', async () => {
    const recs = await collect(readDelimited(SENT, { srcColumn: 'lao_sent', tgtColumn: 'thai_sent' }));
    expect(recs).toHaveLength(265);
    expect(recs[0].line).toBe(2);
    expect(recs[0].src.startsWith('ເມື່ອວັນທີ 26 ກຸມພາ')).toBe(true);
    expect(recs[0].tgt.startsWith('เมื่อวันที่ 26 กุมภาพันธ์')).toBe(true);
    expect(recs[264].line).toBe(266);
  });

  it('reads multi-line quoted paragraphs and reports the line each record starts on', async () => {
    const recs = await collect(readDelimited(PARA, { header: true }));
    expect(recs).toHaveLength(118);
    expect(recs.slice(0, 2).map((r) => r.line)).toEqual([2, 11]);
    expect(recs[117].line).toBe(760);
    expect(recs[0].src.split('\n')).toHaveLength(5);
    expect(recs[0].src).toContain('UXO LAO');
  });

  it('swaps columns by index and reports progress up to the file size', async () => {
    const seen: [number, number][] = [];
    const recs = await collect(
      readDelimited(SENT, { header: true, srcColumn: 1, tgtColumn: 0, progress: ({ done, total }) => void seen.push([done, total]) }),
    );
    expect(recs[0].src.startsWith('เมื่อวันที่')).toBe(true);
    const size = readFileSync(SENT).length;
    expect(seen.at(-1)).toEqual([size, size]);
  });
});

describe('hand-made TSV/CSV', () => {
  it('reads a quoted field of 9,000 lines (delimiters and doubled quotes inside) as one record, and the record after it', async () => {
    const lines = Array.from({ length: 9000 }, (_, i) => `line ${i}, with a comma and "quotes"`);
    const f = put(dir, 'long.csv', 'src,tgt\n"' + lines.join('\n').replace(/"/g, '""') + '",x\nok,"y\nz"\n');
    const recs = await collect(readDelimited(f, { header: true }));
    expect(recs.map((r) => [r.line, r.tgt])).toEqual([
      [2, 'x'],
      [9002, 'y\nz'],
    ]);
    expect(recs[0].src).toBe(lines.join('\n'));
  });

  it('handles BOM, CRLF (read as LF inside quotes), quoted tabs and newlines, blank lines, no header', async () => {
    const f = put(dir, 'a.tsv', '\uFEFFid\tlo\tth\r\n1\tສະບາຍດີ\tสวัสดี\r\n\r\n2\t"ແຖວ\r\nສອງ"\t"a\tb ""q"""\r\n');
    const recs = await collect(readDelimited(f, { srcColumn: 1, tgtColumn: 2 }));
    expect(recs.map((r) => [r.line, r.src, r.tgt])).toEqual([
      [1, 'lo', 'th'],
      [2, 'ສະບາຍດີ', 'สวัสดี'],
      [4, 'ແຖວ\nສອງ', 'a\tb "q"'],
    ]);
  });

  it('reads quotes inside or after fields as text, and no quoting at all when asked', async () => {
    const f = put(dir, 'q.tsv', 'จอ 5" นิ้ว\tຈໍ 5" ນິ້ວ\n"Hi," he said\t"ສະບາຍດີ"\n');
    expect((await collect(readDelimited(f))).map((r) => [r.src, r.tgt])).toEqual([
      ['จอ 5" นิ้ว', 'ຈໍ 5" ນິ້ວ'],
      ['"Hi," he said', 'ສະບາຍດີ'],
    ]);
    expect((await collect(readDelimited(f, { quote: false })))[1].tgt).toBe('"ສະບາຍດີ"');
  });

  it('matches header names case-insensitively and picks the delimiter from the extension', async () => {
    const f = put(dir, 'b.csv', 'Lao,Thai,Note\nກ,ก,x\n');
    const recs = await collect(readDelimited(f, { srcColumn: 'lao', tgtColumn: 'THAI' }));
    expect(recs.map((r) => [r.line, r.src, r.tgt])).toEqual([[2, 'ກ', 'ก']]);
  });

  it('names the line of an unclosed quote, a short record, an empty side and a bad column', async () => {
    const q = put(dir, 'q.csv', 'a,b\nc,d\n"e\nf,g\nh,i\n');
    await expectInputError(readDelimited(q), q, 3, 'quoted field not closed before the end of the file');
    const s = put(dir, 's.tsv', 'a\tb\n"x\ny"\tz\nc\n');
    await expectInputError(readDelimited(s), s, 4, 'expected 2 columns, found 1');
    const e = put(dir, 'e.tsv', 'a\tb\nc\t  \n');
    await expectInputError(readDelimited(e), e, 2, 'empty target side');
    expect((await collect(readDelimited(e, { allowEmpty: true })))[1].tgt).toBe('  ');
    const long = put(dir, 'long.tsv', 'a\t"b\n' + 'x\n'.repeat(10_000));
    await expectInputError(readDelimited(long), long, 1, 'quoted field not closed within 10000 lines');
    const n = put(dir, 'n.csv', 'lo,th\nx,y\n');
    await expectInputError(readDelimited(n, { srcColumn: 'vi' }), n, 1, 'no column "vi" in the header (columns: lo, th)');
  });

  it('names the line of invalid UTF-8 inside a quoted field', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n"c\nd'), Buffer.from([0xff]), Buffer.from('",e\n')]);
    const f = put(dir, 'u.csv', bytes);
    await expectInputError(readDelimited(f), f, 3, 'invalid UTF-8');
  });
});

describe('writeDelimited', () => {
  it('quotes what needs quoting so the reader gets the texts back', async () => {
    const recs: PairRecord[] = [
      { line: 0, src: 'ກ\tຂ', tgt: 'ก\nข' },
      { line: 0, src: '"quoted"', tgt: 'plain' },
      { line: 0, src: 'a,b', tgt: 'c\r\nd' },
    ];
    for (const [name, delimiter] of [
      ['w.tsv', '\t'],
      ['w.csv', ','],
    ]) {
      const f = join(dir, name);
      await writeDelimited(recs, f, { delimiter, header: ['lo', 'th'] });
      const back = await collect(readDelimited(f, { header: true }));
      expect(back.map((r) => [r.src, r.tgt])).toEqual(recs.map((r) => [r.src, r.tgt.replace('\r\n', '\n')]));
    }
    expect(readFileSync(join(dir, 'w.tsv'), 'utf8')).toBe('lo\tth\n"ກ\tຂ"\t"ก\nข"\n"""quoted"""\tplain\na,b\t"c\r\nd"\n');
  });
});

describe('quoted records split by hand', () => {
  const dir = tempDir();
  it('keeps empty quoted fields empty, doubles as quotes, delimiters and newlines inside quotes', async () => {
    const f = put(dir, 'e.csv', 'a,b,c\n"",x,"say ""hi"""\n"one, two","three\nfour",z\n');
    const recs = await collect(readDelimited(f, { header: true, srcColumn: 0, tgtColumn: 2, allowEmpty: true }));
    expect(recs.map((r) => [r.line, r.src, r.tgt])).toEqual([
      [2, '', 'say "hi"'],
      [3, 'one, two', 'z'],
    ]);
  });
});
