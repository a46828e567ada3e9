// TMX 1.4 writer: one <tu> per pair with a <tuv> per language, status and split as
// x-mekong-* props and the note as <note> (the reader in tmx.ts reads all of these back).
// Text is escaped for XML; '\r' is written as &#13; so XML line-end normalisation cannot
// eat it. Characters XML 1.0 cannot carry (C0 controls, U+FFFE/F, lone surrogates) are an
// error naming the pair rather than silently dropped.
import { UserError } from '../errors.ts';
import { writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
import type { PairRecord } from './record.ts';

export interface TmxWriteOptions extends WriteOptions {
  srcLang: string;
  tgtLang: string;
  /** Language of notes and props (default 'en'). */
  adminLang?: string;
  /** Value of creationtoolversion (default '1'). */
  toolVersion?: string;
}

const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** Escapes text for element content and double-quoted attributes. */
function escapeXml(text: string, pair: number): string {
  const bad = NOT_XML.exec(text);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new UserError(`pair ${pair}: character U+${code} cannot be written to XML`);
  }
  return text.replace(/[&<>"\r]/g, (c) => ESCAPES[c]);
}

function header(opts: TmxWriteOptions): string {
  const attrs = [
    ['creationtool', 'Mekong'],
    ['creationtoolversion', opts.toolVersion ?? '1'],
    ['datatype', 'plaintext'],
    ['segtype', 'sentence'],
    ['adminlang', opts.adminLang ?? 'en'],
    ['srclang', opts.srcLang],
    ['o-tmf', 'Mekong'],
  ].map(([k, v]) => `${k}="${escapeXml(v, 0)}"`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n  <header ${attrs.join(' ')}/>\n  <body>\n`;
}

function renderTu(rec: PairRecord, n: number, src: string, tgt: string): string {
  const parts = ['    <tu>\n'];
  if (rec.status) parts.push(`      <prop type="x-mekong-status">${rec.status}</prop>\n`);
  if (rec.split) parts.push(`      <prop type="x-mekong-split">${rec.split}</prop>\n`);
  if (rec.note) parts.push(`      <note>${escapeXml(rec.note, n)}</note>\n`);
  parts.push(
    `      <tuv xml:lang="${src}"><seg>${escapeXml(rec.src, n)}</seg></tuv>\n`,
    `      <tuv xml:lang="${tgt}"><seg>${escapeXml(rec.tgt, n)}</seg></tuv>\n`,
    '    </tu>\n',
  );
  return parts.join('');
}

/** Writes a TMX 1.4 document with one <tu> per record. */
export async function writeTmx(records: RecordSource, target: WriteTarget, opts: TmxWriteOptions): Promise<void> {
  const src = escapeXml(opts.srcLang, 0);
  const tgt = escapeXml(opts.tgtLang, 0);
  await writeRendered(records, target, (rec, i) => renderTu(rec, i + 1, src, tgt), {
    signal: opts.signal,
    header: header(opts),
    footer: '  </body>\n</tmx>\n',
  });
}
