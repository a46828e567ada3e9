// TALP / NAACL-2003 word-alignment shared task (WPT) links files: one link per line,
// `sentno srcpos tgtpos [S|P] [confidence]`, all 1-based, position 0 meaning NULL (such
// links are dropped), S (the default) sure and P possible. Lines must be grouped by
// sentence number in increasing order; sentences without links have no lines, so the
// reader yields an empty group for every number it skips and cannot know how many pairs
// follow its last line (attachLinks with `openEnded`).
import { InputError } from '../errors.ts';
import { LinkSet, sortedLinks, type Link } from '../../shared/link-set.ts';
import { ByteProgress, readLineBatches } from './input.ts';
import { linksToWrite, type LinkGroup } from './links.ts';
import { writeRendered, type RecordSource, type WriteTarget } from './output.ts';
import type { LinksReadOptions, LinksWriteOptions } from './pharaoh.ts';

const ROW = /^\s*(\d+)\s+(\d+)\s+(\d+)(?:\s+([SP]))?(?:\s+(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))?\s*$/;

interface TalpRow {
  sentence: number;
  link: Link | null;
}

function parseRow(text: string, file: string, line: number): TalpRow {
  const m = ROW.exec(text);
  if (!m) {
    throw new InputError(file, line, `bad TALP line "${text}": expected "sentno srcpos tgtpos [S|P] [confidence]"`);
  }
  const sentence = Number(m[1]);
  const [s, t] = [Number(m[2]), Number(m[3])];
  const score = m[5] === undefined ? null : Number(m[5]);
  if (sentence === 0) throw new InputError(file, line, 'sentence number 0 (TALP numbers sentences from 1)');
  if (score !== null && score > 1) throw new InputError(file, line, `confidence ${m[5]} above 1`);
  const link: Link | null = s === 0 || t === 0 ? null : { s: s - 1, t: t - 1, kind: m[4] === 'P' ? 'possible' : 'sure', score };
  return { sentence, link };
}

/** Reads a TALP file: one LinkGroup per sentence number from 1 to the last one seen. */
export async function* readTalp(file: string, opts: Omit<LinksReadOptions, 'base'> = {}): AsyncGenerator<LinkGroup> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  let current = 1;
  let [groupLine, links] = [0, new LinkSet()];
  for await (const batch of readLineBatches(file, progress, opts.signal)) {
    for (let i = 0; i < batch.lines.length; i++) {
      if (batch.lines[i].trim() === '') continue;
      const line = batch.line + i;
      const row = parseRow(batch.lines[i], file, line);
      if (row.sentence < current) {
        const reason = `sentence ${row.sentence} after sentence ${current}: lines must be grouped by sentence in order`;
        throw new InputError(file, line, reason);
      }
      for (; current < row.sentence; current++) {
        yield { line: groupLine, links: links.links() };
        [groupLine, links] = [line, new LinkSet()];
      }
      if (groupLine === 0) groupLine = line;
      if (row.link) links.add(row.link);
    }
  }
  if (groupLine !== 0) yield { line: groupLine, links: links.links() };
}

/** Writes TALP lines (1-based; the sentence number is the record's position). */
export async function writeTalp(records: RecordSource, target: WriteTarget, opts: Omit<LinksWriteOptions, 'base'> = {}): Promise<void> {
  const score = (l: Link): string => (opts.scores && l.score !== null ? ` ${l.score}` : '');
  const render = (l: Link, n: number): string => `${n} ${l.s + 1} ${l.t + 1} ${l.kind === 'sure' ? 'S' : 'P'}${score(l)}\n`;
  await writeRendered(
    records,
    target,
    (rec, i) =>
      sortedLinks(linksToWrite(rec))
        .map((l) => render(l, i + 1))
        .join(''),
    opts,
  );
}
