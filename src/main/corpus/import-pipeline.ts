// An import from start to end: records stream from a format reader (format-streams.ts), are
// normalised and segmented, or split on spaces when pre-tokenized, on a worker pool
// (records that carry their own tokens, as JSONL does, are kept as they are), their links
// checked against the tokens, and written to the store under one import, in transactions
// that hold the write lock for a bounded time (store/bounded-writes.ts), so editors of the
// project are not blocked meanwhile. The import's pairs are unseen until it finishes; any
// error or a cancel deletes the whole import, so the project is left as it was
// (store/imports.ts).
//
// Throughput: while the pool segments batch k+1 on the other cores, this thread parses
// batch k+2 and writes batch k, so SQLite and parsing stay off the critical path.
import { stat } from 'node:fs/promises';
import type { ImportOptions } from '../../shared/api.ts';
import { LinkSet } from '../../shared/link-set.ts';
import { DiskFullError, InputError, isDiskFull } from '../errors.ts';
import { scriptMismatch } from '../text/lang.ts';
import { silentContext, type JobContext } from '../jobs/job-context.ts';
import { encodeOffsets } from '../text/offsets.ts';
import { SegmentPool } from '../text/segment-pool.ts';
import { adjudicatedGoldOf, goldAlignmentOf, linkInserter, rejectedInserter, untranslatedInserter } from '../store/alignments.ts';
import { reviewInserter } from '../store/pair-reviews.ts';
import { modelAlignmentWriter } from '../store/model-alignments.ts';
import { beginImport, discardImport, finishImport } from '../store/imports.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { backUpInWorker, LARGE_IMPORT } from '../store/backup.ts';
import { pairInserter, type NewPair } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { addSideWords, projectWordLists, type SideWords } from '../store/word-lists.ts';
import { checkLinks, checkRecordIndices, type LinkedPair } from './links.ts';
import type { AlignmentRecord, PairRecord } from './record.ts';
import { openRecords } from './format-streams.ts';

const BATCH = 1000;
/** Pairs written by one step of a batch's transactions (pairs.ts inserts them 100 rows a statement). */
const ROWS = 100;
const IN_FLIGHT = 3;

/** The job's context (a JobContext fits), all optional, and what an import may bring of its own. */
export interface RunOptions extends Partial<JobContext> {
  /** Segmentation pool to use (else one is made for this import and closed after). */
  pool?: SegmentPool;
  /**
   * Words of word list files (`mekong import --word-list`) for each side: this import is
   * segmented with them (on a pool made for it), and they join the project's word lists
   * once it has succeeded, so a failed import leaves the lists as they were.
   */
  words?: { side: SideWords; from: string };
  /** Who asked, so that messages name that one's options: `mekong import`'s flags (default) or the import dialog's fields. */
  surface?: ImportSurface;
}

export type ImportSurface = 'cli' | 'app';

/** How a message tells the user to change an option, in the words of the CLI or of the import dialog. */
const OPTION_HINTS: Record<ImportSurface, { anyScript: string; headerAsPair: string }> = {
  cli: {
    anyScript: 'import with --any-script',
    headerAsPair: 'import with --no-header to keep it as a pair',
  },
  app: {
    anyScript: 'tick "Import even if the text\'s script does not match the project\'s languages"',
    headerAsPair: 'set "First line" to "a sentence pair" to keep it as a pair',
  },
};

interface Prepared {
  records: PairRecord[];
  pairs: NewPair[];
}

/** Runs one import; returns a one-line summary. */
export async function runImport(store: ProjectStore, options: ImportOptions, run: RunOptions = {}): Promise<string> {
  const meta = store.meta();
  if (run.pool && run.words) throw new Error('runImport: an import with word lists segments on a pool of its own');
  const segmenting = options.tokenization === 'segment';
  const ownPool = run.pool ? null : new SegmentPool({ wordLists: segmenting ? await projectWordLists(store, run.words?.side) : {} });
  const pool = (run.pool ?? ownPool)!;
  const importId = beginImport(store, options.file, options.format);
  const hints = OPTION_HINTS[run.surface ?? 'cli'];
  let skippedHeader: { line: number; cells: [string, string] } | null = null;
  let ok = false;
  try {
    const records = openRecords(options, {
      srcLang: meta.srcLang,
      tgtLang: meta.tgtLang,
      onHeaderSkipped: (line, cells) => (skippedHeader = { line, cells }),
      signal: run.signal,
      progress: (p) => run.progress?.({ ...p, message: 'importing' }),
    });
    const writer = new BatchWriter(store, importId, {
      data: options.file,
      links: options.linksFile ?? options.file,
      linksBase: options.linksFormat === 'talp' || options.linksOneBased ? 1 : 0,
    });
    const inFlight: Promise<Prepared>[] = [];
    let checked = options.anyScript === true;
    // The first LARGE_IMPORT pairs are held back: once more arrive, the project is backed up
    // (store/backup.ts) before this import writes a pair; a smaller import makes no copy.
    let read = 0;
    let holding = true;
    let noBackup: string | null = null;
    for await (const batch of batches(records)) {
      if (!checked) {
        checkScripts(batch, meta, options.file, hints.anyScript);
        checked = true;
      }
      const prepared = prepare(batch, options.tokenization, meta, pool);
      prepared.catch(() => {}); // rejections surface when awaited below, in order
      inFlight.push(prepared);
      read += batch.length;
      if (holding && read > LARGE_IMPORT) {
        noBackup = await backUpInWorker(store, silentContext(run.signal));
        holding = false;
      }
      while (!holding && inFlight.length >= IN_FLIGHT) await writer.write(await inFlight.shift()!);
    }
    while (inFlight.length) await writer.write(await inFlight.shift()!);
    if (writer.count === 0) throw new InputError(options.file, 0, await nothingToImport(options, skippedHeader !== null));
    finishImport(store, importId, true);
    ok = true;
    const added = run.words ? addSideWords(store, run.words.side, run.words.from) : 0;
    const header = skippedHeader as { line: number; cells: [string, string] } | null;
    return [
      `imported ${writer.count} pairs from ${options.file}`,
      header &&
        `line ${header.line} (${header.cells.map((c) => JSON.stringify(c)).join(', ')}) looked like a header and was skipped; ${hints.headerAsPair}`,
      run.words && `${added} new words in the project's word lists`,
      noBackup,
    ]
      .filter(Boolean)
      .join('; ');
  } catch (err) {
    if (isDiskFull(err)) throw new DiskFullError(`disk full while importing ${options.file}: nothing from this import was kept`);
    throw err;
  } finally {
    if (!ok) await discard(store, importId);
    await ownPool?.close();
  }
}

/** Why an import that read no pair is refused: an empty file, a header alone, or no records. */
async function nothingToImport(options: ImportOptions, headerOnly: boolean): Promise<string> {
  if (headerOnly) return 'the file holds a header row and no sentence pairs';
  const empty = (await stat(options.file)).size === 0;
  return empty ? 'the file is empty: there is nothing to import' : 'the file holds no sentence pairs';
}

/**
 * Deletes a failed import. On a full disk the deletion can fail too: the import then stays
 * invisible (every query ignores a running import) and its lease is released, so the next
 * opening of the project removes it.
 */
async function discard(store: ProjectStore, importId: number): Promise<void> {
  try {
    await discardImport(store, importId);
  } catch (err) {
    if (!isDiskFull(err)) throw err;
  }
}

async function* batches(records: AsyncIterable<PairRecord>): AsyncGenerator<PairRecord[]> {
  let batch: PairRecord[] = [];
  for await (const r of records) {
    batch.push(r);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** The languages of the file's first pairs against the project's: a Vietnamese–English file is
 *  not imported into a Lao–Thai project without a word (anyScript imports it anyway). */
function checkScripts(batch: PairRecord[], meta: { srcLang: string; tgtLang: string }, file: string, anyScript: string): void {
  const sample = batch.slice(0, 200);
  const side = (which: 'src' | 'tgt') =>
    sample
      .map((r) => r[which])
      .join(' ')
      .slice(0, 5000);
  const [src, tgt] = [side('src'), side('tgt')];
  const srcWhy = scriptMismatch(meta.srcLang, src);
  const tgtWhy = scriptMismatch(meta.tgtLang, tgt);
  if (!srcWhy && !tgtWhy) return;
  const swapped = srcWhy && tgtWhy && !scriptMismatch(meta.srcLang, tgt) && !scriptMismatch(meta.tgtLang, src);
  const which = [
    srcWhy && `the source side ${srcWhy} (project: ${meta.srcLang})`,
    tgtWhy && `the target side ${tgtWhy} (project: ${meta.tgtLang})`,
  ]
    .filter(Boolean)
    .join('; ');
  throw new InputError(
    file,
    0,
    swapped
      ? `source and target look swapped: the source side is written like ${meta.tgtLang} and the target like ${meta.srcLang}; swap the columns or files (or ${anyScript})`
      : `${which}; check the columns or the project's languages (or ${anyScript})`,
  );
}

/** Texts and token offsets of a batch (normalised and tokenized in the pool's workers); a
 * side that brings its own tokens is kept as given, the other side is segmented. */
async function prepare(
  records: PairRecord[],
  mode: ImportOptions['tokenization'],
  meta: { srcLang: string; tgtLang: string },
  pool: SegmentPool,
): Promise<Prepared> {
  const need: { i: number; side: 'src' | 'tgt' }[] = [];
  records.forEach((r, i) => {
    if (!r.srcTokens) need.push({ i, side: 'src' });
    if (!r.tgtTokens) need.push({ i, side: 'tgt' });
  });
  const done = await pool.prepareBatch(
    need.map(({ i, side }) => ({
      text: records[i][side],
      lang: side === 'src' ? meta.srcLang : meta.tgtLang,
    })),
    mode,
  );
  const slot = new Map(need.map(({ i, side }, k) => [`${i}${side}`, k]));
  const sideOf = (r: PairRecord, i: number, side: 'src' | 'tgt') => {
    const k = slot.get(`${i}${side}`);
    const given = side === 'src' ? r.srcTokens : r.tgtTokens;
    return k === undefined ? { text: r[side], offsets: encodeOffsets(given!) } : done[k];
  };
  const pairs = records.map((r, i): NewPair => {
    const src = sideOf(r, i, 'src');
    const tgt = sideOf(r, i, 'tgt');
    return {
      src: src.text,
      tgt: tgt.text,
      srcOffsets: src.offsets,
      tgtOffsets: tgt.offsets,
      status: r.status,
      split: r.split,
      note: r.note,
    };
  });
  return { records, pairs };
}

interface Inserters {
  links: ReturnType<typeof linkInserter>;
  untranslated: ReturnType<typeof untranslatedInserter>;
}

/**
 * Writes prepared batches: pairs, then their alignments' links, marks and rejected links, a
 * group of ROWS pairs at a time, in short transactions (store/bounded-writes.ts).
 */
class BatchWriter {
  count = 0;
  private readonly insertPairs: (pairs: NewPair[]) => number[];
  private readonly inserters = new Map<string, Inserters>();
  private rejected: ReturnType<typeof rejectedInserter> | null = null;
  private reviews: ReturnType<typeof reviewInserter> | null = null;

  constructor(
    private readonly store: ProjectStore,
    private readonly importId: number,
    private readonly files: { data: string; links: string; linksBase: 0 | 1 },
  ) {
    this.insertPairs = pairInserter(store, importId);
  }

  async write({ records, pairs }: Prepared): Promise<void> {
    const starts = Array.from({ length: Math.ceil(pairs.length / ROWS) }, (_, k) => k * ROWS);
    await writeInSlices(this.store, starts, (from) => {
      const group = pairs.slice(from, from + ROWS);
      const ids = this.insertPairs(group);
      group.forEach((p, i) => {
        const r = records[from + i];
        if (r.alignments?.length || r.rejected?.length) this.writeLinks(ids[i], r, p);
        if (r.reviews?.length) (this.reviews ??= reviewInserter(this.store))(ids[i], r.reviews);
      });
    });
    this.count += pairs.length;
  }

  private writeLinks(pairId: number, r: PairRecord, p: NewPair): void {
    const nSrc = p.srcOffsets.length / 2;
    const nTgt = p.tgtOffsets.length / 2;
    const linksLine = (r as Partial<LinkedPair>).linksLine;
    const fromLinksFile = (a: AlignmentRecord) => a.origin === 'import' && linksLine !== undefined;
    for (const a of r.alignments ?? []) {
      if (fromLinksFile(a)) checkLinks(a.links, nSrc, nTgt, this.files.links, linksLine!, this.files.linksBase);
    }
    checkRecordIndices({ ...r, alignments: r.alignments?.filter((a) => !fromLinksFile(a)) }, nSrc, nTgt, this.files.data, r.line);
    for (const a of r.alignments ?? []) {
      const { links, untranslated } = this.insertersFor(a);
      links(pairId, new LinkSet(a.links).links());
      if (a.untranslated) untranslated(pairId, a.untranslated);
    }
    if (r.rejected?.length) (this.rejected ??= rejectedInserter(this.store))(pairId, r.rejected);
  }

  private insertersFor(a: AlignmentRecord): Inserters {
    const key = `${a.origin}\u0000${a.source}\u0000${a.adjudicated === true}`;
    let inserters = this.inserters.get(key);
    if (!inserters) {
      const store = this.store;
      if (a.origin === 'gold') {
        const id = a.adjudicated ? adjudicatedGoldOf(store, this.importId) : goldAlignmentOf(store, a.source, this.importId);
        inserters = { links: linkInserter(store, id), untranslated: untranslatedInserter(store, id) };
      } else {
        // a model's or an imported file's links: stored as every model alignment is (store/model-alignments.ts)
        const { alignmentId, write } = modelAlignmentWriter(store, { origin: a.origin, name: a.source, importId: this.importId });
        inserters = { links: write, untranslated: untranslatedInserter(store, alignmentId) };
      }
      this.inserters.set(key, inserters);
    }
    return inserters;
  }
}
