// Links files joined to pair streams, and the checks on link indices. A links file
// (Pharaoh or TALP) yields one LinkGroup per pair; `attachLinks` zips those groups with a
// pair stream into an `import` alignment. Token counts are only known after segmentation,
// so index validation is a separate call (`checkLinks`) the import pipeline makes.
import { InputError } from '../errors.ts';
import { linkName, type Link } from '../../shared/link-set.ts';
import type { AlignmentRecord, PairRecord } from './record.ts';

/** The links of one pair as read from a links file; `line` is where they were read. */
export interface LinkGroup {
  line: number;
  links: Link[];
}

/** Index base of a links file: Pharaoh output is usually 0-based, gold files often 1-based. */
export type IndexBase = 0 | 1;

/**
 * Throws InputError(file, line, "link 12-40: target index 40 out of range (sentence has 31
 * tokens)") for the first link outside [0, nSrc) × [0, nTgt). `base` only changes how the
 * indices are shown (as written in the file).
 */
export function checkLinks(links: readonly Link[], nSrc: number, nTgt: number, file: string, line: number, base: IndexBase = 0): void {
  for (const l of links) {
    const bad = l.s >= nSrc ? 'source' : l.t >= nTgt ? 'target' : null;
    if (bad === null) continue;
    const [idx, n] = bad === 'source' ? [l.s, nSrc] : [l.t, nTgt];
    const name = `link ${linkName(l, base)}`;
    throw new InputError(file, line, `${name}: ${bad} index ${idx + base} out of range (sentence has ${n} token${n === 1 ? '' : 's'})`);
  }
}

/**
 * Checks every index a record carries against its token counts: its alignments' links and
 * "not translated" marks and its rejected links (InputError at `file`:`line`).
 */
export function checkRecordIndices(rec: PairRecord, nSrc: number, nTgt: number, file: string, line: number): void {
  for (const a of rec.alignments ?? []) {
    checkLinks(a.links, nSrc, nTgt, file, line);
    for (const [side, n] of [
      ['src', nSrc],
      ['tgt', nTgt],
    ] as const) {
      const bad = a.untranslated?.[side].find((i) => i >= n);
      if (bad !== undefined)
        throw new InputError(file, line, `untranslated ${side} token ${bad} out of range (sentence has ${n} token${n === 1 ? '' : 's'})`);
    }
  }
  const bad = rec.rejected?.find((r) => r.s >= nSrc || r.t >= nTgt);
  if (bad) throw new InputError(file, line, `rejected link ${linkName(bad)} out of range (sentence has ${nSrc}×${nTgt} tokens)`);
}

/**
 * The links a links file (Pharaoh, TALP) writes for `rec`: [] without an alignment, the
 * links of its one alignment otherwise. A links line cannot say whose links it holds, so a
 * record with several alignments is a caller's error (the export pipeline picks one, merges
 * the gold, or writes one file per alignment).
 */
export function linksToWrite(rec: PairRecord): Link[] {
  const all = rec.alignments ?? [];
  if (all.length > 1) throw new Error(`a links file holds one alignment per line; record has ${all.length}`);
  return all[0]?.links ?? [];
}

/** A pair with a links-file alignment appended; `linksLine` locates it for checkLinks. */
export type LinkedPair = PairRecord & { linksLine: number };

export interface AttachOptions {
  /** The links file (for errors). */
  file: string;
  /** AlignmentRecord.source of the new alignment (default: `file`). */
  source?: string;
  /** Pairs after the last group get no links instead of an error (TALP omits them). */
  openEnded?: boolean;
}

/**
 * Yields `pairs` with the links of `groups` appended as an `import` alignment: group N
 * belongs to pair N. Errors when the links file ends before the pairs (unless
 * `openEnded`) or has groups left over. Indices are not checked here (see checkLinks).
 */
export async function* attachLinks(
  pairs: AsyncIterable<PairRecord>,
  groups: AsyncIterable<LinkGroup>,
  opts: AttachOptions,
): AsyncGenerator<LinkedPair> {
  const it = groups[Symbol.asyncIterator]();
  let last = 0;
  let ended = false;
  try {
    for await (const pair of pairs) {
      const g = ended ? null : await it.next();
      if (g === null || g.done) {
        ended = true;
        if (!opts.openEnded) {
          const reason = `links file ends at line ${last} but the pairs continue (pair at line ${pair.line})`;
          throw new InputError(opts.file, last, reason);
        }
      } else last = g.value.line;
      const links = g === null || g.done ? [] : g.value.links;
      const alignment: AlignmentRecord = { origin: 'import', source: opts.source ?? opts.file, links };
      yield { ...pair, alignments: [...(pair.alignments ?? []), alignment], linksLine: last };
    }
    const extra = ended ? null : await it.next();
    if (extra && !extra.done) throw new InputError(opts.file, extra.value.line, 'more link lines than sentence pairs');
  } finally {
    await it.return?.();
  }
}
