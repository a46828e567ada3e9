// Pharaoh links files, the one reader and writer of the format in Mekong (imports, exports,
// `mekong align` output, gold files for `eval` and the benchmarks): line N holds the links
// of pair N as space-separated `i-j` (sure), `i?j` or `ipj` (possible), each optionally
// `:score` with a score in [0, 1], e.g. `0-0 1?2 3-4:0.92`. Indices are 0-based
// (fast_align, eflomal) or 1-based (many gold files) by option. Repeated (i, j) pairs are
// merged (sure wins, highest score kept). A line is written by link-set.ts's Pharaoh view
// (pharaohLine), which `mekong align` writes with too.
import { InputError } from '../errors.ts';
import { LinkSet, pharaohLine, sortedLinks, type Link, type PharaohLineOptions } from '../../shared/link-set.ts';
import { ByteProgress, readLineBatches, type ReadOptions } from './input.ts';
import { linksToWrite, type IndexBase, type LinkGroup } from './links.ts';
import { writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';

export interface LinksReadOptions extends Omit<ReadOptions, 'allowEmpty'> {
  /** Index base of the file (default 0; TALP is always 1-based). */
  base?: IndexBase;
}

const LINK = /^(\d+)([-?p])(\d+)(?::(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))?$/;

/** Parses one Pharaoh line into 0-based links. */
export function parsePharaohLine(text: string, base: IndexBase, file: string, line: number): Link[] {
  const links = new LinkSet();
  for (const item of text.split(/\s+/)) {
    if (item === '') continue;
    const m = LINK.exec(item);
    if (!m) throw new InputError(file, line, `bad link "${item}": expected i-j, i?j or ipj, optionally with :score`);
    const s = Number(m[1]) - base;
    const t = Number(m[3]) - base;
    if (s < 0 || t < 0) throw new InputError(file, line, `bad link "${item}": index 0 in a 1-based links file`);
    const score = m[4] === undefined ? null : Number(m[4]);
    if (score !== null && score > 1) throw new InputError(file, line, `bad link "${item}": score above 1`);
    links.add({ s, t, kind: m[2] === '-' ? 'sure' : 'possible', score });
  }
  return links.links();
}

/** A whole Pharaoh text read at once (a gold file): one link list per line; a final newline ends the last line, it adds no pair. */
export function parsePharaohText(text: string, base: IndexBase, file: string): Link[][] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l, n) => parsePharaohLine(l, base, file, n + 1));
}

/** Reads a Pharaoh file: one LinkGroup per line (an empty line is a pair without links). */
export async function* readPharaoh(file: string, opts: LinksReadOptions = {}): AsyncGenerator<LinkGroup> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  const base = opts.base ?? 0;
  for await (const batch of readLineBatches(file, progress, opts.signal)) {
    for (let i = 0; i < batch.lines.length; i++) {
      const line = batch.line + i;
      yield { line, links: parsePharaohLine(batch.lines[i], base, file, line) };
    }
  }
}

export interface LinksWriteOptions extends WriteOptions {
  /** Index base to write (default 0). */
  base?: IndexBase;
  /** Append `:score` to links that have one (default false). */
  scores?: boolean;
}

export interface PharaohWriteOptions extends LinksWriteOptions, PharaohLineOptions {}

/** Writes one Pharaoh line per record (empty when it has no links). */
export async function writePharaoh(records: RecordSource, target: WriteTarget, opts: PharaohWriteOptions = {}): Promise<void> {
  await writeRendered(records, target, (rec) => pharaohLine(sortedLinks(linksToWrite(rec)), opts) + '\n', opts);
}
