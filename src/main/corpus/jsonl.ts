// JSONL reader and writer for the schema in jsonl-schema.ts (one pair per line). Reading
// validates each line with the zod schema, checks token offsets against the text and,
// when both sides carry tokens, link indices against the token counts. Blank lines are
// skipped. Writing emits keys in schema order so export → import → export is byte-identical:
// pairToJson gives the schema value (Parquet's rows are made of it), and writeJsonLine the
// same value's JSON text, written as UTF-8 bytes (json-bytes.ts) without the value's objects
// and arrays (an export of a million pairs writes some 25 million links and 40 million token
// offsets); a store's export writes it with writeStoredJsonLine from the rows and links as
// read, without records.
import { InputError } from '../errors.ts';
import type { Link, Token } from '../../shared/domain.ts';
import { ByteProgress, checkSides, readLineBatches, type ReadOptions } from './input.ts';
import { checkRecordIndices } from './links.ts';
import { encodeOffsets } from '../text/offsets.ts';
import { withSinks, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
import { JsonBytes } from './json-bytes.ts';
import { checkCancelled } from '../jobs/job-context.ts';
import {
  describeIssue,
  PairJson,
  type AlignmentJsonValue,
  type PairJsonValue,
  type SideJsonValue,
  type TokenJsonValue,
  type LinkJsonValue,
  type ReviewJsonValue,
} from './jsonl-schema.ts';
import type { AlignmentRecord, PairRecord } from './record.ts';

/** Reads a Mekong JSONL file, one PairRecord per non-blank line. */
export async function* readJsonl(file: string, opts: ReadOptions = {}): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  for await (const batch of readLineBatches(file, progress, opts.signal)) {
    for (let i = 0; i < batch.lines.length; i++) {
      const text = batch.lines[i];
      if (text.trim() === '') continue;
      const rec = parseJsonLine(text, file, batch.line + i);
      checkSides(rec, opts.allowEmpty, file);
      yield rec;
    }
  }
}

/** Parses and validates one JSONL line into a PairRecord. */
export function parseJsonLine(text: string, file: string, line: number): PairRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8's wording changes between Node versions; only the position is kept.
    const at = /position (\d+)/.exec((err as Error).message);
    throw new InputError(file, line, at ? `invalid JSON at column ${Number(at[1]) + 1}` : 'invalid JSON');
  }
  const parsed = PairJson.safeParse(value);
  if (!parsed.success) throw new InputError(file, line, describeIssue(parsed.error));
  const json = parsed.data;
  checkUnicode(json, file, line);
  const rec: PairRecord = { line, src: json.src.text, tgt: json.tgt.text };
  if (json.src.tokens) rec.srcTokens = tokensFromJson(json.src, 'src', file, line);
  if (json.tgt.tokens) rec.tgtTokens = tokensFromJson(json.tgt, 'tgt', file, line);
  if (json.alignments) rec.alignments = json.alignments.map(alignmentFromJson);
  if (json.rejected) rec.rejected = json.rejected.map(([s, t, annotator]) => ({ s, t, annotator }));
  if (json.status !== undefined) rec.status = json.status;
  if (json.split !== undefined) rec.split = json.split;
  if (json.note !== undefined) rec.note = json.note;
  if (json.reviews) rec.reviews = json.reviews.map((r) => ({ annotator: r.annotator, status: r.status, note: r.note ?? '' }));
  if (rec.srcTokens && rec.tgtTokens) checkRecordIndices(rec, rec.srcTokens.length, rec.tgtTokens.length, file, line);
  return rec;
}

/**
 * Tokens of one side, checked the way the store and every view need them: non-empty spans
 * inside the text, in order and not overlapping, each holding a non-space character. The
 * store keeps a token as a span of its sentence, so a third element (the token's text) must
 * equal that span; a normalised form that differs is refused, not silently dropped.
 */
/**
 * Refuses a lone surrogate (`"a\\ud800b"`): JSON escapes can write one, but it is no Unicode
 * text, and SQLite would store it as bytes other readers of the project cannot decode.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkUnicode(json: PairJsonValue, file: string, line: number): void {
  const fields: [string, string | undefined][] = [
    ['src.text', json.src.text],
    ['tgt.text', json.tgt.text],
    ['note', json.note],
    ...(json.alignments ?? []).map((a, k): [string, string] => [`alignments.${k}.source`, a.source]),
    ...(json.rejected ?? []).map((r, k): [string, string] => [`rejected.${k}`, r[2]]),
    ...(json.reviews ?? []).flatMap((r, k): [string, string | undefined][] => [
      [`reviews.${k}.annotator`, r.annotator],
      [`reviews.${k}.note`, r.note],
    ]),
  ];
  for (const [name, value] of fields) {
    if (value !== undefined && LONE_SURROGATE.test(value)) {
      throw new InputError(file, line, `field ${name}: a lone surrogate (an escape like \\ud800 without its pair) is not valid text`);
    }
  }
}

function tokensFromJson(side: SideJsonValue, name: string, file: string, line: number): Token[] {
  const text = side.text;
  let prevEnd = 0;
  return (side.tokens ?? []).map(([start, end, given], k) => {
    const fail = (why: string) => new InputError(file, line, `field ${name}.tokens.${k}: ${why}`);
    if (end > text.length) throw fail(`offsets [${start},${end}] out of range (text has ${text.length} characters)`);
    if (start >= end) throw fail(`empty or reversed span [${start},${end}]`);
    if (start < prevEnd) throw fail(`span [${start},${end}] overlaps or precedes the previous token (ends at ${prevEnd})`);
    const span = text.slice(start, end);
    if (span.trim() === '') throw fail(`span [${start},${end}] holds only whitespace`);
    if (given !== undefined && given !== span) {
      throw fail(
        `token text ${JSON.stringify(given)} differs from the text at [${start},${end}] (${JSON.stringify(span)}); tokens must be spans of the sentence`,
      );
    }
    prevEnd = end;
    return { text: span, start, end };
  });
}

function alignmentFromJson(a: AlignmentJsonValue): AlignmentRecord {
  const links: Link[] = a.links.map(([s, t, kind, score, tag]) => (tag === undefined ? { s, t, kind, score } : { s, t, kind, score, tag }));
  const rec: AlignmentRecord = { origin: a.origin, source: a.source, links };
  if (a.adjudicated) rec.adjudicated = true;
  if (a.untranslated) rec.untranslated = { src: a.untranslated.src, tgt: a.untranslated.tgt };
  return rec;
}

function sideToJson(text: string, tokens: Token[] | undefined): SideJsonValue {
  if (!tokens) return { text };
  const json: TokenJsonValue[] = tokens.map((tok) => [tok.start, tok.end]);
  return { text, tokens: json };
}

function linkToJson(l: Link): LinkJsonValue {
  return l.tag === undefined ? [l.s, l.t, l.kind, l.score] : [l.s, l.t, l.kind, l.score, l.tag];
}

/** The schema value of `rec`, keys in schema order, absent optional fields omitted. */
export function pairToJson(rec: PairRecord): PairJsonValue {
  const json: PairJsonValue = {
    ...(rec.id !== undefined ? { id: rec.id } : {}),
    src: sideToJson(rec.src, rec.srcTokens),
    tgt: sideToJson(rec.tgt, rec.tgtTokens),
  };
  if (rec.alignments) {
    json.alignments = rec.alignments.map((a) => {
      const out: AlignmentJsonValue = a.adjudicated
        ? { origin: a.origin, source: a.source, adjudicated: true, links: a.links.map(linkToJson) }
        : { origin: a.origin, source: a.source, links: a.links.map(linkToJson) };
      if (a.untranslated && (a.untranslated.src.length || a.untranslated.tgt.length))
        out.untranslated = { src: a.untranslated.src, tgt: a.untranslated.tgt };
      return out;
    });
  }
  if (rec.rejected?.length) json.rejected = rec.rejected.map((r) => [r.s, r.t, r.annotator]);
  if (rec.status !== undefined) json.status = rec.status;
  if (rec.split !== undefined) json.split = rec.split;
  if (rec.note !== undefined) json.note = rec.note;
  if (rec.reviews?.length)
    json.reviews = rec.reviews.map((r): ReviewJsonValue =>
      r.note ? { annotator: r.annotator, status: r.status, note: r.note } : { annotator: r.annotator, status: r.status },
    );
  return json;
}

/** A side as JSON from its text and token offsets (start, end, …; offsets.ts), the tokens as [start,end] pairs. */
function sideJson(out: JsonBytes, text: string, offsets: ArrayLike<number> | undefined): void {
  out.ascii('{"text":');
  out.string(text);
  if (offsets) {
    out.ascii(',"tokens":[');
    for (let i = 0; i < offsets.length; i += 2) {
      out.ascii(i ? ',[' : '[');
      out.uint(offsets[i]);
      out.byte(44); // ,
      out.uint(offsets[i + 1]);
      out.byte(93); // ]
    }
    out.byte(93);
  }
  out.byte(125); // }
}

/** sideJson of a record's Token objects. */
const tokensSideJson = (out: JsonBytes, text: string, tokens: Token[] | undefined): void =>
  sideJson(out, text, tokens && encodeOffsets(tokens));

/** One link's JSON (an element of an alignment's "links"), after a comma unless it is the first. */
export function linkJson(
  out: JsonBytes,
  first: boolean,
  s: number,
  t: number,
  kind: Link['kind'],
  score: number | null,
  tag: string | undefined,
): void {
  out.ascii(first ? '[' : ',[');
  out.uint(s);
  out.byte(44);
  out.uint(t);
  out.ascii(kind === 'sure' ? ',"sure",' : ',"possible",');
  if (score === null) out.ascii('null');
  else out.number(score);
  if (tag !== undefined) {
    out.byte(44);
    out.string(tag);
  }
  out.byte(93);
}

function linksJson(out: JsonBytes, links: readonly Link[]): void {
  out.byte(91); // [
  for (let i = 0; i < links.length; i++) {
    const l = links[i];
    linkJson(out, i === 0, l.s, l.t, l.kind, l.score, l.tag);
  }
  out.byte(93);
}

/** Numbers as a JSON array. */
function numbersJson(out: JsonBytes, values: readonly number[]): void {
  out.byte(91);
  for (let i = 0; i < values.length; i++) {
    if (i) out.byte(44);
    out.number(values[i]);
  }
  out.byte(93);
}

/**
 * What a JSON line is written from: a PairRecord (tokens as Token objects, links as Link
 * objects), or an export's pair as the store read it (LineSource<Uint32Array, (out) => void>:
 * token offsets, and each alignment's links as a writer of their JSON, since an export of
 * 100k pairs otherwise makes 3.1M Token and 2M Link objects only to write them).
 */
export interface LineSource<Tokens, Links> {
  id?: number;
  src: string;
  tgt: string;
  srcTokens?: Tokens;
  tgtTokens?: Tokens;
  alignments?: (Omit<AlignmentRecord, 'links'> & { links: Links })[];
  rejected?: PairRecord['rejected'];
  status?: PairRecord['status'];
  split?: PairRecord['split'];
  note?: string;
  reviews?: PairRecord['reviews'];
}

/** `JSON.stringify(pairToJson(rec))` and a line break, written into `out` (see the header) with `side` and `links` writing tokens and links. */
function lineOf<T, L>(
  out: JsonBytes,
  rec: LineSource<T, L>,
  side: (out: JsonBytes, text: string, tokens: T | undefined) => void,
  links: (out: JsonBytes, links: L) => void,
): void {
  if (rec.id !== undefined) {
    out.ascii('{"id":');
    out.number(rec.id);
    out.ascii(',"src":');
  } else out.ascii('{"src":');
  side(out, rec.src, rec.srcTokens);
  out.ascii(',"tgt":');
  side(out, rec.tgt, rec.tgtTokens);
  if (rec.alignments) {
    out.ascii(',"alignments":[');
    for (let i = 0; i < rec.alignments.length; i++) {
      const a = rec.alignments[i];
      out.ascii(i ? ',{"origin":' : '{"origin":');
      out.string(a.origin);
      out.ascii(',"source":');
      out.string(a.source);
      out.ascii(a.adjudicated ? ',"adjudicated":true,"links":' : ',"links":');
      links(out, a.links);
      const u = a.untranslated;
      if (u && (u.src.length || u.tgt.length)) {
        out.ascii(',"untranslated":{"src":');
        numbersJson(out, u.src);
        out.ascii(',"tgt":');
        numbersJson(out, u.tgt);
        out.byte(125);
      }
      out.byte(125);
    }
    out.byte(93);
  }
  if (rec.rejected?.length) {
    out.ascii(',"rejected":[');
    rec.rejected.forEach((r, i) => {
      out.ascii(i ? ',[' : '[');
      out.number(r.s);
      out.byte(44);
      out.number(r.t);
      out.byte(44);
      out.string(r.annotator);
      out.byte(93);
    });
    out.byte(93);
  }
  if (rec.status !== undefined) {
    out.ascii(',"status":');
    out.string(rec.status);
  }
  if (rec.split !== undefined) {
    out.ascii(',"split":');
    out.string(rec.split);
  }
  if (rec.note !== undefined) {
    out.ascii(',"note":');
    out.string(rec.note);
  }
  if (rec.reviews?.length) {
    out.ascii(',"reviews":[');
    rec.reviews.forEach((r, i) => {
      out.ascii(i ? ',{"annotator":' : '{"annotator":');
      out.string(r.annotator);
      out.ascii(',"status":');
      out.string(r.status);
      if (r.note) {
        out.ascii(',"note":');
        out.string(r.note);
      }
      out.byte(125);
    });
    out.byte(93);
  }
  out.ascii('}\n');
}

/** Writes `rec`'s JSON line (`JSON.stringify(pairToJson(rec))` and a line break) into `out`. */
export const writeJsonLine = (out: JsonBytes, rec: PairRecord): void => lineOf(out, rec, tokensSideJson, linksJson);

/** `JSON.stringify(pairToJson(rec))`, assembled directly (see the header). */
export function jsonLine(rec: PairRecord): string {
  const out = new JsonBytes(1 << 12);
  writeJsonLine(out, rec);
  return out.text().slice(0, -1);
}

/** writeJsonLine of an export's pair as the store read it (LineSource): token offsets, and links written by the pair's own writer. */
export const writeStoredJsonLine = (out: JsonBytes, rec: LineSource<Uint32Array, (out: JsonBytes) => void>): void =>
  lineOf(out, rec, sideJson, (o, write) => write(o));

/** Records written together into one chunk of the output (a few hundred kilobytes). */
const LINES_A_CHUNK = 256;

/** Writes one JSON line per record. */
export async function writeJsonl(records: RecordSource, target: WriteTarget, opts: WriteOptions = {}): Promise<void> {
  await withSinks([target], async ([sink]) => {
    const out = new JsonBytes();
    let n = 0;
    for await (const rec of records) {
      writeJsonLine(out, rec);
      if (++n % LINES_A_CHUNK === 0) {
        checkCancelled(opts.signal);
        await sink.writeBytes(out.take());
      }
    }
    checkCancelled(opts.signal);
    await sink.writeBytes(out.take());
  });
}
