// TMX reader and writer: language choice by primary subtag, inline codes dropped and <hi>
// text kept, notes and x-mekong props, broken XML and missing languages named by line,
// and a write → read round trip with characters XML must escape.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTmx } from '../../../src/main/corpus/tmx.ts';
import { writeTmx } from '../../../src/main/corpus/tmx-write.ts';
import type { PairRecord } from '../../../src/main/corpus/record.ts';
import { UserError } from '../../../src/main/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { collect, expectInputError, FIXTURES, put } from './helpers.ts';

const dir = tempDir('mekong-tmx-');
const INLINE = join(FIXTURES, 'inline.tmx');

describe('readTmx', () => {
  it('picks tuvs by language, keeps text and drops inline codes', async () => {
    const recs = await collect(readTmx(INLINE, { srcLang: 'lo', tgtLang: 'th' }));
    expect(recs).toEqual([
      { line: 7, src: 'ສະບາຍດີ ທ່ານ', tgt: 'สวัสดีครับ', note: 'greeting' },
      { line: 13, src: 'ລາຄາ & ພາສີ', tgt: 'ราคา & <ภาษี>', status: 'done', split: 'dev' },
      { line: 19, src: 'ສາມ', tgt: 'สาม' },
    ]);
  });

  it('defaults the source to the header srclang and keeps <hi> text', async () => {
    const recs = await collect(readTmx(INLINE, { tgtLang: 'en-GB', skipMissing: true }));
    expect(recs.map((r) => [r.line, r.src, r.tgt])).toEqual([[7, 'ສະບາຍດີ ທ່ານ', 'Hello sir']]);
    await expectInputError(readTmx(INLINE, { tgtLang: 'en' }), INLINE, 13, '<tu> has no <tuv> for target language "en"');
  });

  it('names the line of broken XML', async () => {
    const f = put(
      dir,
      'broken.tmx',
      '<tmx version="1.4">\n<header srclang="lo"/>\n<body>\n<tu><tuv xml:lang="lo"><seg>a</tuv>\n</tu></body></tmx>\n',
    );
    await expectInputError(readTmx(f, { tgtLang: 'th' }), f, 4, 'broken XML: unexpected close tag');
    const amp =
      '<tmx>\n<body>\n<tu><tuv xml:lang="lo"><seg>a & b</seg></tuv></tu>\n<tu><tuv xml:lang="lo"><seg>c &amp; d</seg></tuv></tu>\n</body></tmx>\n';
    const g = put(dir, 'amp.tmx', amp);
    await expectInputError(readTmx(g, { srcLang: 'lo', tgtLang: 'th' }), g, 3, 'broken XML: invalid character in entity name');
    const h = put(dir, 'cut.tmx', '<tmx>\n<body>\n<tu>\n');
    await expectInputError(readTmx(h, { srcLang: 'lo' }), h, 4, 'broken XML: unclosed root tag');
    const x = put(dir, 'other.tmx', '<?xml version="1.0"?>\n<html><body/></html>\n');
    await expectInputError(readTmx(x, { srcLang: 'lo' }), x, 2, 'not a TMX file (root element <html>)');
  });

  it('names an empty side', async () => {
    const f = put(
      dir,
      'empty.tmx',
      '<tmx><header srclang="lo"/><body>\n<tu><tuv xml:lang="lo"><seg>ກ</seg></tuv><tuv xml:lang="th"><seg> </seg></tuv></tu>\n</body></tmx>',
    );
    await expectInputError(readTmx(f), f, 2, 'empty target side');
  });
});

describe('writeTmx', () => {
  const recs: PairRecord[] = [
    { line: 0, src: 'ກ <b> & "ຂ"', tgt: 'ก\r\nข', status: 'flagged', split: 'test', note: 'a < b' },
    { line: 0, src: 'ສາມ 😀', tgt: 'สาม' },
  ];

  it('writes a TMX 1.4 header and reads back what it wrote', async () => {
    const f = join(dir, 'out.tmx');
    await writeTmx(recs, f, { srcLang: 'lo', tgtLang: 'th' });
    const text = readFileSync(f, 'utf8');
    expect(text).toContain(
      '<header creationtool="Mekong" creationtoolversion="1" datatype="plaintext" segtype="sentence" adminlang="en" srclang="lo" o-tmf="Mekong"/>',
    );
    expect(text).toContain('<seg>ກ &lt;b&gt; &amp; &quot;ຂ&quot;</seg>');
    const back = await collect(readTmx(f, { tgtLang: 'th' }));
    expect(back.map(({ line: _, ...r }) => r)).toEqual(recs.map(({ line: _, ...r }) => r));
  });

  it('refuses characters XML cannot carry, leaving no file behind', async () => {
    const f = join(dir, 'bad.tmx');
    const bad = [...recs, { line: 0, src: 'a\u0001b', tgt: 'c' }];
    await expect(writeTmx(bad, f, { srcLang: 'lo', tgtLang: 'th' })).rejects.toThrow(
      new UserError('pair 3: character U+0001 cannot be written to XML'),
    );
    expect(() => readFileSync(f)).toThrow();
    expect(readdirSync(dir).filter((n) => n.startsWith('bad.tmx'))).toEqual([]);
  });
});
