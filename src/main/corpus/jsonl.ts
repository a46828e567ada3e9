// JSONL reader and writer for the schema in jsonl-schema.ts (one pair per line). Reading
// validates each line with the zod schema, checks token offsets against the text and,
// when both sides carry tokens, link indices against the token counts. Blank lines are
// skipped. Writing emits keys in schema order so export → import → export is byte-identical:
// pairToJson gives the schema value (Parquet's rows are made of it), and jsonLine the same
// value's JSON text, assembled as strings without the value's objects and arrays (an export
// of a million pairs writes some 25 million links and 40 million token offsets); a store's
// export writes it with storedJsonLine from the rows and links as read, without records.
import { InputError } from '../errors.ts';
import type { Link, Token } from '../../shared/domain.ts';
import { ByteProgress, checkSides, readLineBatches, type ReadOptions } from './input.ts';
import { checkRecordIndices } from './links.ts';
import { writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
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

/** JSON text of a string (JSON.stringify's escaping) and of a number (null when not finite, as JSON.stringify writes it). */
const str = JSON.stringify as (s: string) => string;
const num = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');
const KIND_JSON = { sure: '"sure"', possible: '"possible"' } as const;

function sideLine(text: string, tokens: Token[] | undefined): string {
  if (!tokens) return `{"text":${str(text)}}`;
  let out = `{"text":${str(text)},"tokens":[`;
  for (let i = 0; i < tokens.length; i++) out += `${i ? ',' : ''}[${tokens[i].start},${tokens[i].end}]`;
  return out + ']}';
}

/** sideLine from the store's token offsets (start, end, …): the same text, without Token objects. */
function offsetsSideLine(text: string, offsets: Uint32Array | undefined): string {
  if (!offsets) return `{"text":${str(text)}}`;
  let out = `{"text":${str(text)},"tokens":[`;
  for (let i = 0; i < offsets.length; i += 2) out += `${i ? ',' : ''}[${offsets[i]},${offsets[i + 1]}]`;
  return out + ']}';
}

/** One link's JSON text (an element of an alignment's "links"). */
export const linkLine = (s: number, t: number, kind: Link['kind'], score: number | null, tag: string | undefined): string =>
  `[${s},${t},${KIND_JSON[kind]},${score === null ? 'null' : num(score)}${tag === undefined ? ']' : `,${str(tag)}]`}`;

function linksLine(links: readonly Link[]): string {
  let out = '[';
  for (let i = 0; i < links.length; i++) {
    const l = links[i];
    out += (i ? ',' : '') + linkLine(l.s, l.t, l.kind, l.score, l.tag);
  }
  return out + ']';
}

/**
 * What a JSON line is written from: a PairRecord (tokens as Token objects, links as Link
 * objects), or an export's pair as the store read it (LineSource<Uint32Array, string>:
 * token offsets, and each alignment's links as their JSON text already, since an export of 100k pairs otherwise
 * makes 3.1M Token and 2M Link objects only to write them).
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

/** `JSON.stringify(pairToJson(rec))`, assembled directly (see the header) with `side` and `links` writing tokens and links. */
function lineOf<T, L>(rec: LineSource<T, L>, side: (text: string, tokens: T | undefined) => string, links: (links: L) => string): string {
  let out = rec.id !== undefined ? `{"id":${num(rec.id)},"src":` : '{"src":';
  out += side(rec.src, rec.srcTokens) + ',"tgt":' + side(rec.tgt, rec.tgtTokens);
  if (rec.alignments) {
    out += ',"alignments":[';
    for (let i = 0; i < rec.alignments.length; i++) {
      const a = rec.alignments[i];
      out += `${i ? ',' : ''}{"origin":${str(a.origin)},"source":${str(a.source)}`;
      out += `${a.adjudicated ? ',"adjudicated":true' : ''},"links":${links(a.links)}`;
      const u = a.untranslated;
      if (u && (u.src.length || u.tgt.length))
        out += `,"untranslated":{"src":[${u.src.map(num).join(',')}],"tgt":[${u.tgt.map(num).join(',')}]}`;
      out += '}';
    }
    out += ']';
  }
  if (rec.rejected?.length) out += `,"rejected":[${rec.rejected.map((r) => `[${r.s},${r.t},${str(r.annotator)}]`).join(',')}]`;
  if (rec.status !== undefined) out += `,"status":${str(rec.status)}`;
  if (rec.split !== undefined) out += `,"split":${str(rec.split)}`;
  if (rec.note !== undefined) out += `,"note":${str(rec.note)}`;
  if (rec.reviews?.length) {
    const review = (r: { annotator: string; status: string; note: string }) =>
      `{"annotator":${str(r.annotator)},"status":${str(r.status)}${r.note ? `,"note":${str(r.note)}` : ''}}`;
    out += `,"reviews":[${rec.reviews.map(review).join(',')}]`;
  }
  return out + '}';
}

/** `JSON.stringify(pairToJson(rec))`, assembled directly (see the header). */
export const jsonLine = (rec: PairRecord): string => lineOf(rec, sideLine, linksLine);

/** jsonLine of an export's pair as the store read it (LineSource). */
export const storedJsonLine = (rec: LineSource<Uint32Array, string>): string => lineOf(rec, offsetsSideLine, (links) => links);

/** Writes one JSON line per record. */
export async function writeJsonl(records: RecordSource, target: WriteTarget, opts: WriteOptions = {}): Promise<void> {
  await writeRendered(records, target, (rec) => jsonLine(rec) + '\n', opts);
}
