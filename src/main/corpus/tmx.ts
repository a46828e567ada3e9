// TMX 1.4 reader on the sax streaming XML parser (strict mode). sax rather than saxes:
// saxes reads a stray '&' as the start of an entity up to the next ';', possibly at the
// end of the file, so the most common TMX breakage was reported at the wrong line. Each <tu> gives one pair: the <tuv>
// whose xml:lang matches the source language (exactly, else by primary subtag
// case-insensitively: `lo` matches `lo-LA`) and likewise for the target. Inside <seg> the
// text of <hi> is kept and inline codes (<bpt>, <ept>, <ph>, <it>, <ut> and the <sub> flows
// inside them) are dropped. A <tu>'s <note> becomes the pair's note; the props
// x-mekong-status and x-mekong-split (written by tmx-write.ts) its status and split.
import sax, { type SAXParser, type Tag } from 'sax';
import { InputError } from '../errors.ts';
import { PAIR_STATUSES, SPLITS, type PairStatus, type Split } from '../../shared/domain.ts';
import { ByteProgress, checkSides, readTextPieces, type ReadOptions } from './input.ts';
import type { PairRecord } from './record.ts';

export interface TmxReadOptions extends ReadOptions {
  /** Source language; default the header's srclang. */
  srcLang?: string;
  /** Target language; default the first other language in each <tu>. */
  tgtLang?: string;
  /** Skip <tu>s lacking either language instead of failing. */
  skipMissing?: boolean;
}

const CODES = new Set(['bpt', 'ept', 'ph', 'it', 'ut']);

interface Tuv {
  lang: string;
  text: string;
}

/** Accumulates one <tu> while the parser walks it. */
interface TuState {
  line: number;
  tuvs: Tuv[];
  note?: string;
  props: Map<string, string>;
}

/** `want` matches `lang` exactly (2) or by primary subtag (1), case-insensitively; else 0. */
function langMatch(lang: string, want: string): number {
  const a = lang.toLowerCase();
  const b = want.toLowerCase();
  if (a === b) return 2;
  return a.split(/[-_]/)[0] === b.split(/[-_]/)[0] ? 1 : 0;
}

function pickTuv(tuvs: Tuv[], want: string): Tuv | undefined {
  let best: Tuv | undefined;
  let score = 0;
  for (const t of tuvs) {
    const m = langMatch(t.lang, want);
    if (m > score) [best, score] = [t, m];
  }
  return best;
}

/** Walks the SAX events of a TMX document and hands each finished <tu> to `onTu`. */
class TmxWalker {
  srclang: string | undefined;
  private rooted = false;
  private tu: TuState | null = null;
  private tuv: Tuv | null = null;
  private inSeg = false;
  private codeDepth = 0;
  private textTarget: 'note' | 'prop' | null = null;
  private propType = '';
  private buffer = '';

  constructor(
    private readonly parser: SAXParser,
    private readonly file: string,
    /** The longest segment, note or prop accepted (UTF-16 units; the --max-line-bytes of line formats). */
    private readonly maxText: number,
    private readonly onTu: (tu: TuState) => void,
  ) {
    parser.onopentag = (tag) => this.open(tag as Tag);
    parser.onclosetag = (name) => this.close(name);
    parser.ontext = (text) => this.text(text);
    parser.oncdata = (text) => this.text(text);
  }

  private open(tag: Tag): void {
    const attr = tag.attributes;
    if (!this.rooted && tag.name !== 'tmx') {
      throw new InputError(this.file, this.parser.line + 1, `not a TMX file (root element <${tag.name}>)`);
    }
    this.rooted = true;
    switch (tag.name) {
      case 'header':
        this.srclang = attr.srclang;
        break;
      case 'tu':
        this.tu = { line: this.parser.line + 1, tuvs: [], props: new Map() };
        break;
      case 'tuv':
        this.tuv = { lang: attr['xml:lang'] ?? attr.lang ?? '', text: '' };
        break;
      case 'seg':
        this.inSeg = true;
        break;
      case 'note':
      case 'prop':
        if (this.tu && !this.tuv) [this.textTarget, this.propType, this.buffer] = [tag.name, attr.type ?? '', ''];
        break;
      default:
        if (this.inSeg && CODES.has(tag.name)) this.codeDepth++;
    }
  }

  private close(name: string): void {
    switch (name) {
      case 'tu':
        if (this.tu) this.onTu(this.tu);
        this.tu = null;
        break;
      case 'tuv':
        if (this.tu && this.tuv) this.tu.tuvs.push(this.tuv);
        this.tuv = null;
        break;
      case 'seg':
        this.inSeg = false;
        break;
      case 'note':
      case 'prop':
        this.endNoteOrProp();
        break;
      default:
        if (this.inSeg && CODES.has(name)) this.codeDepth--;
    }
  }

  private endNoteOrProp(): void {
    if (!this.tu || this.textTarget === null) return;
    const { tu, buffer } = this;
    if (this.textTarget === 'note') tu.note = tu.note === undefined ? buffer : `${tu.note}\n${buffer}`;
    else tu.props.set(this.propType, buffer);
    this.textTarget = null;
  }

  private text(text: string): void {
    if (this.inSeg && this.tuv && this.codeDepth === 0) this.tuv.text = this.capped(this.tuv.text + text, 'a <seg>');
    else if (this.textTarget !== null) this.buffer = this.capped(this.buffer + text, `a <${this.textTarget}>`);
  }

  /** A segment holds a sentence or a paragraph: one longer than a line may be is refused, as an over-long line is. */
  private capped(text: string, what: string): string {
    if (text.length > this.maxText) {
      throw new InputError(
        this.file,
        this.tu?.line ?? this.parser.line + 1,
        `${what} longer than ${this.maxText} characters, the longest an import accepts (--max-line-bytes)`,
      );
    }
    return text;
  }
}

function propValue<T extends string>(tu: TuState, type: string, allowed: readonly T[], file: string): T | undefined {
  const v = tu.props.get(type);
  if (v === undefined) return undefined;
  if (!allowed.includes(v as T)) {
    throw new InputError(file, tu.line, `${type} "${v}" is not one of ${allowed.join(', ')}`);
  }
  return v as T;
}

/** The pair of one <tu>, or null when a language is missing and `skipMissing` is set. */
function tuToRecord(tu: TuState, srcLang: string, opts: TmxReadOptions, file: string): PairRecord | null {
  const s = pickTuv(tu.tuvs, srcLang);
  const t = opts.tgtLang ? pickTuv(tu.tuvs, opts.tgtLang) : tu.tuvs.find((v) => v !== s && langMatch(v.lang, srcLang) === 0);
  if (!s || !t) {
    if (opts.skipMissing) return null;
    const target = opts.tgtLang ? `target language "${opts.tgtLang}"` : 'a target language';
    const which = !s ? `source language "${srcLang}"` : target;
    throw new InputError(file, tu.line, `<tu> has no <tuv> for ${which}`);
  }
  const rec: PairRecord = { line: tu.line, src: s.text, tgt: t.text };
  const status = propValue<PairStatus>(tu, 'x-mekong-status', PAIR_STATUSES, file);
  const split = propValue<Split>(tu, 'x-mekong-split', SPLITS, file);
  if (status !== undefined) rec.status = status;
  if (split !== undefined) rec.split = split;
  if (tu.note !== undefined) rec.note = tu.note;
  return rec;
}

/** sax messages go on with "\nLine: …"; InputError carries the line itself. */
function xmlError(file: string, parser: SAXParser, err: Error): InputError {
  const what = err.message.split('\n')[0];
  return new InputError(file, parser.line + 1, `broken XML: ${what.charAt(0).toLowerCase()}${what.slice(1)}`);
}

/** Reads a TMX file, one PairRecord per <tu> (line = the line of its start tag). */
export async function* readTmx(file: string, opts: TmxReadOptions = {}): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  const parser = sax.parser(true, { position: true });
  const ready: PairRecord[] = [];
  const walker = new TmxWalker(parser, file, progress.maxLineBytes, (tu) => {
    const srcLang = opts.srcLang ?? walker.srclang;
    if (!srcLang || srcLang === '*all*') {
      throw new InputError(file, tu.line, 'no source language: the header has no srclang, so choose one');
    }
    const rec = tuToRecord(tu, srcLang, opts, file);
    if (rec === null) return;
    checkSides(rec, opts.allowEmpty, file);
    ready.push(rec);
  });
  parser.onerror = (err) => {
    throw xmlError(file, parser, err);
  };
  for await (const piece of readTextPieces(file, progress, opts.signal, false)) {
    parser.write(piece.text);
    yield* ready.splice(0);
  }
  parser.close();
  yield* ready.splice(0);
}
