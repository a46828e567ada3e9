// An export from start to end: the store's pairs (filtered by status, split and chosen
// alignments) become PairRecords streamed into a format writer. Writers produce the file
// atomically (output.ts), so a failed or cancelled export never leaves a truncated file.
import type { ExportOptions } from '../../shared/api.ts';
import type { Link } from '../../shared/domain.ts';
import { CancelledError } from '../errors.ts';
import type { Progress } from '../jobs/job-registry.ts';
import type { Db } from '../store/database.ts';
import { countPairs, iteratePairRows, tokensOf } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { AlignmentRecord, PairRecord } from './record.ts';
import { writeRecords } from './records.ts';

export interface ExportRun {
  progress?: Progress;
  signal?: AbortSignal;
}

interface AlignmentMeta { id: number; origin: AlignmentRecord['origin']; source: string }

const ORIGIN_ORDER = { gold: 0, model: 1, import: 2 } as const;

/** Chosen alignments in a stable order (origin, then name), independent of their ids. */
function alignmentsToExport(db: Db, ids: number[] | undefined): AlignmentMeta[] {
  const rows = db.prepare(`SELECT id, origin, coalesce(annotator, name) AS source FROM alignments`).all() as AlignmentMeta[];
  return rows
    .filter((r) => !ids || ids.includes(r.id))
    .sort((a, b) => ORIGIN_ORDER[a.origin] - ORIGIN_ORDER[b.origin] || (a.source < b.source ? -1 : a.source > b.source ? 1 : a.id - b.id));
}

/** The store's pairs as records, each with the chosen alignments' links (empty ones omitted). */
export async function* storeRecords(store: ProjectStore, options: Omit<ExportOptions, 'file' | 'format'>,
  run: ExportRun = {}): AsyncGenerator<PairRecord> {
  const db = store.db;
  const filter = { status: options.status, split: options.split };
  const total = countPairs(db, filter);
  const chosen = alignmentsToExport(db, options.alignmentIds);
  const linkStmt = db.prepare(`SELECT s, t, kind, score FROM links WHERE alignment_id = ? AND pair_id = ? ORDER BY s, t`);
  let done = 0;
  for (const rows of iteratePairRows(db, filter)) {
    if (run.signal?.aborted) throw new CancelledError();
    for (const row of rows) {
      const alignments = chosen
        .map((a) => ({ origin: a.origin, source: a.source, links: linkStmt.all(a.id, row.id) as Link[] }))
        .filter((a) => a.links.length > 0);
      yield {
        line: 0, src: row.src_text, tgt: row.tgt_text,
        srcTokens: tokensOf(row.src_text, row.src_tokens), tgtTokens: tokensOf(row.tgt_text, row.tgt_tokens),
        alignments, status: row.status, split: row.split, note: row.note,
      };
    }
    done += rows.length;
    run.progress?.(done, total, 'exporting');
  }
}

/** Runs one export; returns a one-line summary. */
export async function runExport(store: ProjectStore, options: ExportOptions, run: ExportRun = {}): Promise<string> {
  const { srcLang, tgtLang } = store.meta();
  let count = 0;
  const counted = async function* (records: AsyncIterable<PairRecord>) {
    for await (const r of records) {
      count++;
      yield r;
    }
  };
  await writeRecords(options.format, counted(storeRecords(store, options, run)), options.file,
    { oneBased: options.oneBased, srcLang, tgtLang, signal: run.signal });
  return `exported ${count} pairs to ${options.file}`;
}
