// Line-based pair formats (Moses pair files, fast_align bitext) and the strict UTF-8
// decoding every reader shares: line counts that differ, invalid bytes at a known line
// (also across 1 MB chunk boundaries), empty sides, cancel, and writers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFastAlign, writeFastAlign } from '../../../src/main/corpus/fastalign.ts';
import { readMoses, writeMoses } from '../../../src/main/corpus/moses.ts';
import { CancelledError } from '../../../src/main/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, expectInputError, put, SHARED } from './helpers.ts';

const dir = tempDir('mekong-lines-');

describe('readMoses', () => {
  it('reads two files in lockstep, with or without a final newline, CRLF and BOM', async () => {
    const lo = put(dir, 'ok.lo', '\uFEFFສະບາຍດີ\r\nຂອບໃຈ\r\n');
    const th = put(dir, 'ok.th', 'สวัสดี\nขอบคุณ');
    const recs = await collect(readMoses(lo, th));
    expect(recs).toEqual([
      { line: 1, src: 'ສະບາຍດີ', tgt: 'สวัสดี' },
      { line: 2, src: 'ຂອບໃຈ', tgt: 'ขอบคุณ' },
    ]);
  });

  it('names both files and the line where the shorter one ends', async () => {
    const lo = put(dir, 'long.lo', 'a\nb\nc\n');
    const th = put(dir, 'short.th', 'x\ny\n');
    await expectInputError(readMoses(lo, th), th, 2, `line counts differ: ${th} ends at line 2 but ${lo} has more lines`);
    await expectInputError(readMoses(th, lo), th, 2, `line counts differ: ${th} ends at line 2 but ${lo} has more lines`);
  });

  it('rejects an empty side unless allowed', async () => {
    const lo = put(dir, 'e.lo', 'a\n \nc\n');
    const th = put(dir, 'e.th', 'x\ny\nz\n');
    await expectInputError(readMoses(lo, th), lo, 2, 'empty source side');
    await expectInputError(readMoses(th, lo), lo, 2, 'empty target side');
    expect(await collect(readMoses(lo, th, { allowEmpty: true }))).toHaveLength(3);
  });

  it('names the line of invalid UTF-8, also past a chunk boundary', async () => {
    const th = put(dir, 'u.th', 'x\ny\nz\n');
    const bad = put(dir, 'u.lo', Buffer.concat([Buffer.from('a\nb\n'), Buffer.from([0xe0, 0xba]), Buffer.from('\n')]));
    await expectInputError(readMoses(bad, th), bad, 3, 'invalid UTF-8');
    // A character cut off by the end of the file (no final newline) is invalid too.
    const cut = put(dir, 'c.lo', Buffer.concat([Buffer.from('a\nb\n'), Buffer.from([0xe0, 0xba])]));
    await expectInputError(readMoses(cut, th), cut, 3, 'invalid UTF-8');
    // 25-byte lines put byte 1 MiB inside a 3-byte Lao letter: valid across the chunk
    // boundary; a lone continuation byte at line 40,001 is not.
    const line = 'ກ'.repeat(8) + '\n';
    const n = Math.ceil((1 << 20) / Buffer.byteLength(line)) + 5;
    const big = Buffer.from(line.repeat(n));
    const bigFile = put(dir, 'big.lo', big);
    const other = put(dir, 'big.th', 't\n'.repeat(n));
    expect((await collect(readMoses(bigFile, other))).length).toBe(n);
    big[40_000 * Buffer.byteLength(line)] = 0x80;
    const badBig = put(dir, 'bad-big.lo', big);
    await expectInputError(readMoses(badBig, other), badBig, 40_001, 'invalid UTF-8');
  });

  it('throws CancelledError when aborted, before or during the read', async () => {
    const lo = put(dir, 'c.lo', 'ກ ຂ ຄ\n'.repeat(300_000));
    const ac = new AbortController();
    ac.abort();
    await expect(collect(readMoses(lo, lo, { signal: ac.signal }))).rejects.toBeInstanceOf(CancelledError);
    const late = new AbortController();
    let n = 0;
    const read = async () => {
      for await (const _ of readMoses(lo, lo, { signal: late.signal })) if (++n === 10) late.abort();
    };
    await expect(read()).rejects.toBeInstanceOf(CancelledError);
    expect(n).toBeLessThan(300_000);
  });

  it('writes two files that read back, line breaks inside texts becoming spaces', async () => {
    const [s, t] = [join(dir, 'w.lo'), join(dir, 'w.th')];
    await writeMoses(
      [
        { line: 0, src: 'ກ\nຂ', tgt: 'ก' },
        { line: 0, src: 'ຄ', tgt: 'ค\r\nง' },
      ],
      s,
      t,
    );
    expect(readFileSync(s, 'utf8')).toBe('ກ ຂ\nຄ\n');
    expect((await collect(readMoses(s, t))).map((r) => r.tgt)).toEqual(['ก', 'ค ง']);
  });
});

describe('readFastAlign', () => {
  it('reads the std-gold-align de-en test set', async () => {
    const f = join(SHARED, 'std-gold-align/test.de-en');
    const recs = await collect(readFastAlign(f));
    expect(recs).toHaveLength(508);
    expect(recs[1]).toEqual({ line: 2, src: 'Das stimmt nicht !', tgt: 'But this is not what happens .' });
  });

  it('reports a missing separator and writes what it reads', async () => {
    const f = put(dir, 'x.txt', 'a ||| b\nc || d\n');
    await expectInputError(readFastAlign(f), f, 2, 'no "|||" between source and target');
    const out = join(dir, 'y.txt');
    await writeFastAlign([{ line: 0, src: 'ກ ຂ', tgt: 'ก\nข' }], out);
    expect(readFileSync(out, 'utf8')).toBe('ກ ຂ ||| ก ข\n');
  });
});
