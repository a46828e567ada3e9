// fast_align bitext: one pair per line as `source ||| target`; sides are trimmed (the input format of
// fast_align, eflomal and awesome-align, and of the std-gold-align test sets). The writer
// replaces line breaks inside a text by spaces (the format cannot carry them).
import { InputError } from '../errors.ts';
import { ByteProgress, checkSides, readLineBatches, type ReadOptions } from './input.ts';
import { singleLine, writeRendered, type RecordSource, type WriteOptions, type WriteTarget } from './output.ts';
import type { PairRecord } from './record.ts';

const SEP = '|||';

/** Reads a `src ||| tgt` file, one PairRecord per line. */
export async function* readFastAlign(file: string, opts: ReadOptions = {}): AsyncGenerator<PairRecord> {
  const progress = await ByteProgress.forFiles([file], opts.progress, opts);
  for await (const batch of readLineBatches(file, progress, opts.signal)) {
    for (let i = 0; i < batch.lines.length; i++) {
      const text = batch.lines[i];
      const line = batch.line + i;
      const at = text.indexOf(SEP);
      if (at === -1) throw new InputError(file, line, 'no "|||" between source and target');
      const rec: PairRecord = { line, src: text.slice(0, at).trim(), tgt: text.slice(at + SEP.length).trim() };
      checkSides(rec, opts.allowEmpty, file);
      yield rec;
    }
  }
}

/** Writes `src ||| tgt` per record. */
export async function writeFastAlign(records: RecordSource, target: WriteTarget, opts: WriteOptions = {}): Promise<void> {
  await writeRendered(records, target, (rec) => `${singleLine(rec.src)} ||| ${singleLine(rec.tgt)}\n`, opts);
}
