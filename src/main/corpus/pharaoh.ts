// Pharaoh links files: line N holds the links of pair N as space-separated `i-j` (sure),
// `i?j` or `ipj` (possible), each optionally `:score` with a score in [0, 1], e.g.
// `0-0 1?2 3-4:0.92`. Indices are 0-based (fast_align, eflomal) or 1-based (many gold
// files) by option. Repeated (i, j) pairs are merged (sure wins, highest score kept).
import { InputError } from '../errors.ts';
import type { Link } from '../../shared/domain.ts';
import { ByteProgress, readLineBatches, type ReadOptions } from './input.ts';
import { addLink, linksToWrite, type IndexBase, type LinkGroup } from './links.ts';
import { writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';

export interface LinksReadOptions extends Omit<ReadOptions, 'allowEmpty'> {
  /** Index base of the file (default 0; TALP is always 1-based). */
  base?: IndexBase;
}

const LINK = /^(\d+)([-?p])(\d+)(?::(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))?$/;

/** Parses one Pharaoh line into 0-based links. */
export function parsePharaohLine(text: string, base: IndexBase, file: string, line: number): Link[] {
  const links: Link[] = [];
  const seen = new Map<number, number>();
  for (const item of text.split(/\s+/)) {
    if (item === '') continue;
    const m = LINK.exec(item);
    if (!m) throw new InputError(file, line, `bad link "${item}": expected i-j, i?j or ipj, optionally with :score`);
    const s = Number(m[1]) - base;
    const t = Number(m[3]) - base;
    if (s < 0 || t < 0) throw new InputError(file, line, `bad link "${item}": index 0 in a 1-based links file`);
    const score = m[4] === undefined ? null : Number(m[4]);
    if (score !== null && score > 1) throw new InputError(file, line, `bad link "${item}": score above 1`);
    addLink(links, seen, { s, t, kind: m[2] === '-' ? 'sure' : 'possible', score });
  }
  return links;
}

/** Reads a Pharaoh file: one LinkGroup per line (an empty line is a pair without links). */
export async function* readPharaoh(file: string, opts: LinksReadOptions = {}): AsyncGenerator<LinkGroup> {
  const progress = await ByteProgress.forFiles([file], opts.onBytes);
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

export interface PharaohWriteOptions extends LinksWriteOptions {
  /** Mark for possible links: `i?j` (default) or `ipj`. */
  possible?: '?' | 'p';
}

/** Links sorted by source then target index. */
export function sortedLinks(links: readonly Link[]): Link[] {
  return [...links].sort((a, b) => a.s - b.s || a.t - b.t);
}

/** Writes one Pharaoh line per record (empty when it has no links). */
export async function writePharaoh(
  records: RecordSource,
  target: WriteTarget,
  opts: PharaohWriteOptions = {},
): Promise<void> {
  const base = opts.base ?? 0;
  const mark = { sure: '-', possible: opts.possible ?? '?' };
  const render = (l: Link): string =>
    `${l.s + base}${mark[l.kind]}${l.t + base}${opts.scores && l.score !== null ? `:${l.score}` : ''}`;
  await writeRendered(
    records,
    target,
    (rec) => sortedLinks(linksToWrite(rec)).map(render).join(' ') + '\n',
    opts,
  );
}
