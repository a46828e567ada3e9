// An export from start to end: the store's pairs (filtered by status, split and chosen
// alignments) become PairRecords streamed into a format writer. Writers produce the file
// atomically (output.ts), so a failed or cancelled export never leaves a truncated file.
// A links file (Pharaoh, TALP) cannot say whose links a line holds, so it holds exactly one
// alignment: the one chosen, the merged gold (per pair the adjudicated gold where it has
// links there, else the union of the annotators' gold: the rule training follows), or one
// file per alignment (the adjudicated gold's named `<stem>.adjudicated.<ext>`);
// beside it go the tokenised source and target sentences (`<stem>.<lang>`, one sentence a
// line, tokens joined by one space, as fast_align, eflomal and the AER scripts read them),
// so the indices can be read against the words they count. TSV and fast_align can be
// written tokenised too. With `byCharacter`, the Chinese side(s) are written one token per
// Han character and the links at character level (character-records.ts).
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { ExportOptions } from '../../shared/api.ts';
import { LinkSet, type RejectedLink } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import {
  alignmentSources,
  forEachLinkIn,
  linkColumnsOfPairs,
  linksIn,
  rejectedWithAnnotatorOf,
  type LinkColumns,
} from '../store/alignments.ts';
import { untranslatedOfPairs } from '../store/gold-layer.ts';
import { reviewsOfPairs, type AnnotatorReview } from '../store/pair-reviews.ts';
import type { UntranslatedMark } from '../store/edits.ts';
import { countPairs, iteratePairRows, tokenOffsetsOf, tokensOf, type PairRow } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { chineseSides } from '../text/han-characters.ts';
import { characterRecord } from './character-records.ts';
import type { AlignmentRecord, PairRecord } from './record.ts';
import { writeRecords } from './format-streams.ts';
import { JsonBytes } from './json-bytes.ts';
import { linkJson, writeStoredJsonLine, type LineSource } from './jsonl.ts';
import { withSinks, writeRendered } from './output.ts';

/** The job's context (a JobContext fits); without one, an export reports nowhere and cannot be cancelled. */
export type ExportRun = Partial<JobContext>;

interface AlignmentMeta {
  id: number;
  origin: AlignmentRecord['origin'];
  source: string;
  name: string;
  adjudicated: boolean;
}

const ORIGIN_ORDER = { gold: 0, model: 1, import: 2 } as const;

/** Chosen alignments in a stable order (origin, the adjudicated gold first, then name), independent of their ids. */
function alignmentsToExport(store: ProjectStore, ids: number[] | undefined): AlignmentMeta[] {
  return alignmentSources(store)
    .filter((r) => !ids || ids.includes(r.id))
    .sort(
      (a, b) =>
        ORIGIN_ORDER[a.origin] - ORIGIN_ORDER[b.origin] ||
        Number(b.adjudicated) - Number(a.adjudicated) ||
        (a.source < b.source ? -1 : a.source > b.source ? 1 : a.id - b.id),
    );
}

const indicesOn = (marks: readonly UntranslatedMark[], side: 'src' | 'tgt') => marks.filter((m) => m.side === side).map((m) => m.index);

/** One batch of the store's pairs with what every table holds for them, each read once for the batch, not once a pair. */
interface PairBatch {
  rows: PairRow[];
  layers: { a: AlignmentMeta; links: LinkColumns; marks: Map<number, UntranslatedMark[]> }[];
  rejectedIn: Map<number, RejectedLink[]>;
  reviewsIn: Map<number, AnnotatorReview[]>;
}

/** The pairs an export writes (options' filter; never the excluded), a batch at a time with the chosen alignments' links and marks; progress after each batch. */
function* pairBatches(
  store: ProjectStore,
  options: Omit<ExportOptions, 'file' | 'format'>,
  chosen: AlignmentMeta[],
  run: ExportRun,
): Generator<PairBatch> {
  // Pairs the linguist excluded (sentence-level curation) never leave the project.
  const filter = { status: options.status, split: options.split, excluded: false };
  const total = countPairs(store, filter);
  let done = 0;
  for (const rows of iteratePairRows(store, filter)) {
    checkCancelled(run.signal);
    const ids = rows.map((r) => r.id);
    yield {
      rows,
      layers: chosen.map((a) => ({ a, links: linkColumnsOfPairs(store, a.id, ids), marks: untranslatedOfPairs(store, a.id, ids) })),
      rejectedIn: rejectedWithAnnotatorOf(store, ids),
      reviewsIn: reviewsOfPairs(store, ids),
    };
    done += rows.length;
    run.progress?.({ done, total, message: 'exporting' });
  }
}

/**
 * Pair `row`'s record or line source: its fields, its alignments (with `links` made of the
 * layer's link columns; alignments with neither links nor "not translated" marks omitted),
 * rejected links and reviews.
 */
function pairOf<T, L>(
  row: PairRow,
  batch: PairBatch,
  tokens: (row: PairRow, side: 'src' | 'tgt') => T,
  links: (columns: LinkColumns, pairId: number) => L,
): LineSource<T, L> {
  const alignments: (Omit<AlignmentRecord, 'links'> & { links: L })[] = [];
  for (const { a, links: columns, marks: marksIn } of batch.layers) {
    const marks = marksIn.get(row.id) ?? [];
    if (!columns.at.has(row.id) && !marks.length) continue;
    const l = links(columns, row.id);
    const rec: Omit<AlignmentRecord, 'links'> & { links: L } = a.adjudicated
      ? { origin: a.origin, source: a.source, adjudicated: true, links: l }
      : { origin: a.origin, source: a.source, links: l };
    if (marks.length) rec.untranslated = { src: indicesOn(marks, 'src'), tgt: indicesOn(marks, 'tgt') };
    alignments.push(rec);
  }
  const rejected = batch.rejectedIn.get(row.id) ?? [];
  const reviews = batch.reviewsIn.get(row.id) ?? [];
  return {
    id: row.id,
    src: row.src_text,
    tgt: row.tgt_text,
    srcTokens: tokens(row, 'src'),
    tgtTokens: tokens(row, 'tgt'),
    alignments,
    ...(rejected.length ? { rejected } : {}),
    status: row.status,
    split: row.split,
    note: row.note,
    ...(reviews.length ? { reviews } : {}),
  };
}

const rowTokens = (row: PairRow, side: 'src' | 'tgt') =>
  tokensOf(side === 'src' ? row.src_text : row.tgt_text, side === 'src' ? row.src_tokens : row.tgt_tokens, row.id, side);
const rowOffsets = (row: PairRow, side: 'src' | 'tgt') =>
  tokenOffsetsOf(side === 'src' ? row.src_text : row.tgt_text, side === 'src' ? row.src_tokens : row.tgt_tokens, row.id, side);

/** The store's pairs as records, each with the given alignments' links and "not translated"
 * marks (alignments with neither omitted) and the pair's rejected links. */
async function* recordsOf(
  store: ProjectStore,
  options: Omit<ExportOptions, 'file' | 'format'>,
  chosen: AlignmentMeta[],
  run: ExportRun = {},
): AsyncGenerator<PairRecord> {
  const { srcLang, tgtLang } = store.meta();
  const sides = options.byCharacter ? chineseSides(srcLang, tgtLang) : null;
  for (const batch of pairBatches(store, options, chosen, run)) {
    for (const row of batch.rows) {
      const record: PairRecord = {
        line: 0,
        ...pairOf(row, batch, rowTokens, linksIn),
      };
      yield sides ? characterRecord(record, sides) : record;
    }
  }
}

/** A writer of pair `pairId`'s links in `c` as the JSON of an alignment's "links", without Link objects. */
const linksJson = (c: LinkColumns, pairId: number) => (out: JsonBytes) => {
  let first = true;
  out.byte(91); // [
  forEachLinkIn(c, pairId, (s, t, kind, score, tag) => {
    linkJson(out, first, s, t, kind, score, tag);
    first = false;
  });
  out.byte(93);
};

/**
 * A JSONL export (not by character): each line written as UTF-8 bytes (jsonl.ts
 * writeStoredJsonLine) straight from the pair's row and the link columns, without PairRecord,
 * Token or Link objects (the record path's figures per 100k pairs: 3.1M Tokens and 2M Links
 * made, GC ~1.0 s of ~5.5 s CPU), a batch of pairs into one chunk of the file; byte for byte
 * the record path's text (jsonl-writer.test.ts). Returns the pair count.
 */
async function writeStoredJsonl(store: ProjectStore, options: ExportOptions, run: ExportRun): Promise<number> {
  let count = 0;
  await withSinks([options.file], async ([sink]) => {
    const out = new JsonBytes();
    for (const batch of pairBatches(store, options, alignmentsToExport(store, options.alignmentIds), run)) {
      for (const row of batch.rows) writeStoredJsonLine(out, pairOf(row, batch, rowOffsets, linksJson));
      await sink.writeBytes(out.take());
      count += batch.rows.length;
    }
    checkCancelled(run.signal);
  });
  return count;
}

/** The store's pairs as records with the alignments `options.alignmentIds` chooses (all by default). */
export function storeRecords(
  store: ProjectStore,
  options: Omit<ExportOptions, 'file' | 'format'>,
  run: ExportRun = {},
): AsyncGenerator<PairRecord> {
  return recordsOf(store, options, alignmentsToExport(store, options.alignmentIds), run);
}

/** One file of a links export: where it goes, which alignments it reads, whether their gold is merged. */
interface LinksFile {
  file: string;
  alignments: AlignmentMeta[];
  merge: boolean;
  label: string;
}

const LINK_FORMATS: ReadonlySet<string> = new Set(['pharaoh', 'talp']);

const alignmentLabel = (a: AlignmentMeta) => `#${a.id} ${a.name} (${a.origin})`;

/** `out.pharaoh` + "gold anna" → `out.gold-anna.pharaoh`. */
function fileFor(file: string, label: string): string {
  const ext = extname(file);
  const slug =
    label
      .normalize('NFKD')
      .replace(/[^\w]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'alignment';
  return join(dirname(file), `${basename(file, ext)}.${slug}${ext}`);
}

/** What a Pharaoh or TALP export writes: see the header. Refuses a choice that would mix alignments. */
function linksFiles(store: ProjectStore, options: ExportOptions): LinksFile[] {
  const all = alignmentsToExport(store, options.alignmentIds);
  const from = options.linksFrom;
  if (from === 'merged-gold') {
    const gold = all.filter((a) => a.origin === 'gold');
    if (gold.length === 0) throw new UserError("no gold alignment to merge: the project has no annotator's links yet");
    const annotators = gold.filter((a) => !a.adjudicated).map((a) => a.source);
    const label =
      gold.some((a) => a.adjudicated) && annotators.length
        ? `merged gold of ${annotators.join(', ')}, adjudicated where adjudicated`
        : gold.some((a) => a.adjudicated)
          ? 'adjudicated gold'
          : `merged gold of ${annotators.join(', ')}`;
    return [{ file: options.file, alignments: gold, merge: true, label }];
  }
  if (from === 'each') {
    const used = new Set<string>();
    return all.map((a) => {
      const named = a.adjudicated ? 'adjudicated' : `${a.origin} ${a.source}`;
      let file = fileFor(options.file, named);
      if (used.has(file)) file = fileFor(options.file, `${named} ${a.id}`);
      used.add(file);
      return { file, alignments: [a], merge: false, label: alignmentLabel(a) };
    });
  }
  if (typeof from === 'number') {
    const one = alignmentsToExport(store, [from]);
    if (one.length === 0) throw new UserError(`no alignment #${from} in this project`);
    return [{ file: options.file, alignments: one, merge: false, label: alignmentLabel(one[0]) }];
  }
  if (all.length > 1) {
    throw new UserError(
      `${options.format} holds one alignment per file and ${all.length} are chosen (${all.map(alignmentLabel).join(', ')}): ` +
        `pick one, the merged gold, or one file per alignment`,
    );
  }
  return [{ file: options.file, alignments: all, merge: false, label: all[0] ? alignmentLabel(all[0]) : 'no alignment' }];
}

/** Refuses to write over the open project (or its WAL): the export would replace the project. */
function refuseProjectFile(store: ProjectStore, file: string): void {
  const folder = dirname(resolve(file));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UserError(`${folder}: no such folder to export ${basename(file)} into`);
  const project = resolve(store.path);
  const target = resolve(file);
  const same =
    [project, `${project}-wal`, `${project}-shm`, `${project}-journal`].includes(target) ||
    (existsSync(target) &&
      existsSync(project) &&
      statSync(target).ino === statSync(project).ino &&
      statSync(target).dev === statSync(project).dev);
  if (same) throw new UserError(`${file} is the project itself; choose another file to export to`);
}

/** "1 pair", "2 pairs". */
const pairsCount = (n: number) => `${n} ${n === 1 ? 'pair' : 'pairs'}`;

/** Runs one export; returns a one-line summary. */
export async function runExport(store: ProjectStore, options: ExportOptions, run: ExportRun = {}): Promise<string> {
  const { srcLang, tgtLang } = store.meta();
  const write = async (file: string, records: AsyncIterable<PairRecord>): Promise<number> => {
    refuseProjectFile(store, file);
    let count = 0;
    const counted = async function* () {
      for await (const r of records) {
        count++;
        yield r;
      }
    };
    await writeRecords(options.format, counted(), file, { oneBased: options.oneBased, srcLang, tgtLang, signal: run.signal });
    return count;
  };
  if (options.byCharacter && !chineseSides(srcLang, tgtLang))
    throw new UserError(`--by-character is for Chinese, and this project is ${srcLang}–${tgtLang}`);
  if (options.tokenized && !TOKENIZABLE.has(options.format))
    throw new UserError(`--tokenized is for tsv and fastalign, not ${options.format}`);
  if (options.format === 'jsonl' && !options.byCharacter) {
    refuseProjectFile(store, options.file);
    return `exported ${pairsCount(await writeStoredJsonl(store, options, run))} to ${options.file}`;
  }
  if (!LINK_FORMATS.has(options.format)) {
    const records = storeRecords(store, options, run);
    const count = await write(options.file, options.tokenized ? tokenizedText(records) : records);
    return `exported ${pairsCount(count)} to ${options.file}${options.tokenized ? ' (tokenised)' : ''}`;
  }
  const files = linksFiles(store, options);
  let count = 0;
  for (const f of files) {
    const records = recordsOf(store, options, f.alignments, run);
    count = await write(f.file, f.merge ? merged(records, f.label) : records);
  }
  const text = await writeTokenizedSides(store, options, run);
  const beside = `, tokenised text in ${text.join(' and ')}`;
  if (files.length === 1) return `exported ${pairsCount(count)} to ${files[0].file} (links of ${files[0].label})${beside}`;
  return `exported ${pairsCount(count)} to ${files.length} files, one per alignment: ${files.map((f) => `${f.file} (${f.label})`).join('; ')}${beside}`;
}

const TOKENIZABLE: ReadonlySet<string> = new Set(['tsv', 'fastalign']);

const spaced = (tokens: readonly { text: string }[] | undefined, text: string) =>
  tokens ? tokens.map((t) => t.text.replace(/\s+/g, '_')).join(' ') : text;

/** Records whose sentences are their tokens joined by one space (a token's own spaces become _). */
async function* tokenizedText(records: AsyncIterable<PairRecord>): AsyncGenerator<PairRecord> {
  for await (const r of records) yield { ...r, src: spaced(r.srcTokens, r.src), tgt: spaced(r.tgtTokens, r.tgt) };
}

/** Writes `<stem>.<srcLang>` and `<stem>.<tgtLang>` beside a links file; returns their paths. */
async function writeTokenizedSides(store: ProjectStore, options: ExportOptions, run: ExportRun): Promise<string[]> {
  const { srcLang, tgtLang } = store.meta();
  const stem = join(dirname(options.file), basename(options.file, extname(options.file)));
  const [srcFile, tgtFile] =
    srcLang === tgtLang ? [`${stem}.src.${srcLang}`, `${stem}.tgt.${tgtLang}`] : [`${stem}.${srcLang}`, `${stem}.${tgtLang}`];
  for (const [file, side] of [
    [srcFile, 'src'],
    [tgtFile, 'tgt'],
  ] as const) {
    refuseProjectFile(store, file);
    await writeRendered(
      recordsOf(store, options, [], {}),
      file,
      (r) => spaced(side === 'src' ? r.srcTokens : r.tgtTokens, r[side]) + '\n',
      { signal: run.signal },
    );
  }
  return [srcFile, tgtFile];
}

/**
 * Records whose gold alignments are replaced by one named `label`: the adjudicated gold where
 * it has links on the pair, else the union of the annotators' gold.
 */
async function* merged(records: AsyncIterable<PairRecord>, label: string): AsyncGenerator<PairRecord> {
  for await (const r of records) {
    const adjudicated = (r.alignments ?? []).filter((a) => a.adjudicated && a.links.length > 0);
    const all = adjudicated.length ? adjudicated : (r.alignments ?? []).filter((a) => !a.adjudicated);
    yield {
      ...r,
      alignments: all.length ? [{ origin: 'gold', source: label, links: LinkSet.union(all.map((a) => a.links)).links() }] : [],
    };
  }
}
