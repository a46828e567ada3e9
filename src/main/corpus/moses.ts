// Moses pair files: two UTF-8 files, one sentence per line, line N of one the translation
// of line N of the other (e.g. corpus.lo + corpus.th). Read in lockstep; the files must
// have the same number of lines. The writer replaces line breaks inside a text by spaces
// (the format cannot carry them).
import { InputError } from '../errors.ts';
import { checkCancelled } from '../jobs/job-context.ts';
import { ByteProgress, checkSides, LineCursor, readLineBatches, type ReadOptions } from './input.ts';
import { singleLine, withSinks, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
import type { PairRecord } from './record.ts';

/** Reads `srcFile` and `tgtFile` line by line in step, one PairRecord per line. */
export async function* readMoses(srcFile: string, tgtFile: string, opts: ReadOptions = {}): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([srcFile, tgtFile], opts.progress, opts);
  const a = new LineCursor(readLineBatches(srcFile, progress, opts.signal));
  const b = new LineCursor(readLineBatches(tgtFile, progress, opts.signal));
  try {
    for (;;) {
      const [moreA, moreB] = await Promise.all([a.fill(), b.fill()]);
      if (!moreA || !moreB) {
        if (moreA === moreB) return;
        const [ended, longer] = moreA ? [tgtFile, srcFile] : [srcFile, tgtFile];
        throw countMismatch(ended, longer, (moreA ? b : a).line - 1);
      }
      for (let n = Math.min(a.buffered, b.buffered); n > 0; n--) {
        const rec: PairRecord = { line: a.line, src: a.take(), tgt: b.take() };
        checkSides(rec, opts.allowEmpty, srcFile, tgtFile);
        yield rec;
      }
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

function countMismatch(ended: string, longer: string, lines: number): InputError {
  return new InputError(ended, lines, `line counts differ: ${ended} ends at line ${lines} but ${longer} has more lines`);
}

/** Writes the source texts to `srcTarget` and the target texts to `tgtTarget`. */
export async function writeMoses(
  records: RecordSource,
  srcTarget: WriteTarget,
  tgtTarget: WriteTarget,
  opts: WriteOptions = {},
): Promise<void> {
  await withSinks([srcTarget, tgtTarget], async ([src, tgt]) => {
    for await (const rec of records) {
      checkCancelled(opts.signal);
      await src.write(singleLine(rec.src) + '\n');
      await tgt.write(singleLine(rec.tgt) + '\n');
    }
  });
}
