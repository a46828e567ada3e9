// Streaming text input shared by every reader: file chunks → strict UTF-8 text cut at line
// boundaries (with the file line each piece starts on) → lines. Also the options every
// reader takes (progress, cancel, empty sides) and the checks they share.
//
// Hand-written rather than node:readline because readline cannot report invalid UTF-8
// (it silently substitutes U+FFFD) and costs ~2x more per line than splitting big chunks.
// A chunk is cut after its last '\n' byte: 0x0A never occurs inside a UTF-8 multi-byte
// sequence, so every cut piece is complete and is decoded by `TextDecoder(fatal)` in its
// streaming form followed by an empty flush (which throws if the piece ends inside a
// character): in Node 20 that runs ICU's converter, where a one-shot decode takes the
// simdutf + V8 path, 2-2.5x slower on non-ASCII text (docs/experiments.md). Only when that
// throws do we decode line by line to name the line.
// Readers that do not need whole lines (XML may be one long line) cut at the last
// character boundary instead when a line grows past 4 MB.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { InputError } from '../errors.ts';
import { checkCancelled, type JobContext } from '../jobs/job-context.ts';
import type { PairRecord } from './record.ts';

/** A read's context (progress: bytes read so far of the total over all files, after each chunk; cancel), all optional, and its limits. */
export interface ReadOptions extends Partial<JobContext> {
  /** Accept pairs whose source or target is empty or blank (default: an error). */
  allowEmpty?: boolean;
  /** The longest line accepted, in bytes (default MAX_LINE_BYTES). */
  maxLineBytes?: number;
  /** The largest file accepted, in bytes (default MAX_FILE_BYTES). */
  maxFileBytes?: number;
}

/**
 * Limits that keep a wrong file from becoming unbounded work. A whole document on one line
 * fits (the longest line of the shared corpora is under 100 KB; a 1 MB Lao line segments in
 * seconds); a 200k-pair TMX is about 60 MB.
 */
export const MAX_LINE_BYTES = 64 << 20;
export const MAX_FILE_BYTES = 16 * 2 ** 30;

/** A piece of decoded text (whole lines unless asked otherwise); `line` is the file line it starts on. */
export interface TextPiece {
  text: string;
  line: number;
}

/** Tracks bytes read across one or more files for `progress`, and the limits of this read. */
export class ByteProgress {
  private read = 0;
  constructor(
    private readonly total: number,
    private readonly progress?: ReadOptions['progress'],
    readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  /** Checks each file is a regular file within the size limit (a pipe or a device such as
   *  /dev/zero never ends: refused at once), then tracks their bytes. */
  static async forFiles(
    files: string[],
    progress?: ReadOptions['progress'],
    limits: Pick<ReadOptions, 'maxLineBytes' | 'maxFileBytes'> = {},
  ): Promise<ByteProgress> {
    const maxFile = limits.maxFileBytes ?? MAX_FILE_BYTES;
    const sizes = await Promise.all(
      files.map(async (f) => {
        const s = await stat(f);
        if (s.isDirectory()) throw new InputError(f, 0, 'is a folder, not a file');
        if (!s.isFile()) throw new InputError(f, 0, 'not a regular file (a pipe or a device): save it to a file first');
        if (s.size > maxFile) throw new InputError(f, 0, `${s.size} bytes, more than the ${maxFile} an import accepts (--max-file-bytes)`);
        return s.size;
      }),
    );
    return new ByteProgress(
      sizes.reduce((a, b) => a + b, 0),
      progress,
      limits.maxLineBytes ?? MAX_LINE_BYTES,
    );
  }

  add(n: number): void {
    this.read += n;
    this.progress?.({ done: this.read, total: this.total });
  }
}

const CHUNK = 1 << 20;
const LONG_LINE = 4 << 20;
const NL = 0x0a;

function countNewlines(s: string): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

const strictDecoder = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes `bytes` strictly; on failure decodes line by line to name the first bad line. */
function decodeStrict(decoder: TextDecoder, bytes: Uint8Array, file: string, line: number): string {
  try {
    const text = decoder.decode(bytes, { stream: true });
    decoder.decode();
    return text;
  } catch {
    decoder = strictDecoder(); // a fresh one: the throw may leave the streaming one mid-character
    let l = line;
    for (let start = 0; start <= bytes.length; l++) {
      const nl = bytes.indexOf(NL, start);
      const end = nl === -1 ? bytes.length : nl;
      try {
        decoder.decode(bytes.subarray(start, end));
      } catch {
        break;
      }
      start = end + 1;
    }
    throw new InputError(file, l, 'invalid UTF-8');
  }
}

/** Throws for the first line of buf[0, end) longer than `max` bytes (line numbers from `line`). */
function checkLineLengths(buf: Uint8Array, end: number, max: number, file: string, line: number): void {
  if (end <= max) return;
  let start = 0;
  for (let l = line; start < end; l++) {
    const nl = buf.indexOf(NL, start);
    const stop = nl === -1 || nl >= end ? end : nl;
    if (stop - start > max)
      throw new InputError(file, l, `a line longer than ${max} bytes, the longest an import accepts (--max-line-bytes)`);
    start = stop + 1;
  }
}

/** Where to cut `buf`: after its last '\n', or (unless `wholeLines`) before its last character. */
function cutPoint(buf: Uint8Array, wholeLines: boolean): number {
  const cut = buf.lastIndexOf(NL) + 1;
  if (cut > 0 || wholeLines || buf.length < LONG_LINE) return cut;
  let p = buf.length - 1;
  for (let k = 0; k < 3 && p > 0 && (buf[p] & 0xc0) === 0x80; k++) p--;
  return p;
}

/**
 * Reads `file` as strict UTF-8 in pieces of whole lines (the last piece may lack a final
 * '\n'; with `wholeLines` false a piece may also end inside a very long line). A leading
 * BOM is dropped. Checks `signal` and reports progress per chunk.
 */
export async function* readTextPieces(
  file: string,
  progress: ByteProgress,
  signal?: AbortSignal,
  wholeLines = true,
): AsyncGenerator<TextPiece> {
  const decoder = strictDecoder();
  let carry: Uint8Array = new Uint8Array(0);
  // Chunks of a line still without its end, joined once it ends: concatenating at every chunk
  // would copy a long line over and over (quadratic).
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 1;
  let first = true;
  for await (const chunk of createReadStream(file, { highWaterMark: CHUNK })) {
    checkCancelled(signal);
    progress.add((chunk as Buffer).length);
    if (wholeLines) {
      const nl = (chunk as Buffer).indexOf(NL);
      const lineBytes = carry.length + pendingBytes + (nl === -1 ? (chunk as Buffer).length : nl);
      if (lineBytes > progress.maxLineBytes) {
        throw new InputError(
          file,
          line,
          `a line longer than ${progress.maxLineBytes} bytes, the longest an import accepts (--max-line-bytes)`,
        );
      }
      if (nl === -1) {
        pending.push(chunk as Buffer);
        pendingBytes += (chunk as Buffer).length;
        continue;
      }
    }
    const parts = [carry, ...pending, chunk as Buffer].filter((p) => p.length);
    pending = [];
    pendingBytes = 0;
    const buf = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    const cut = cutPoint(buf, wholeLines);
    if (wholeLines) checkLineLengths(buf, cut, progress.maxLineBytes, file, line);
    carry = buf.subarray(cut);
    if (cut === 0) continue;
    let text = decodeStrict(decoder, buf.subarray(0, cut), file, line);
    if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    first = false;
    yield { text, line };
    line += countNewlines(text);
  }
  checkCancelled(signal);
  if (pending.length) carry = Buffer.concat([carry, ...pending]);
  if (carry.length === 0) return;
  let text = decodeStrict(decoder, carry, file, line);
  if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  yield { text, line };
}

/** A batch of consecutive lines (without '\n' or a trailing '\r'); `line` is the first's. */
export interface LineBatch {
  lines: string[];
  line: number;
}

/** Splits the pieces of `readTextPieces` into line batches; a final '\n' ends no extra line. */
export async function* readLineBatches(file: string, progress: ByteProgress, signal?: AbortSignal): AsyncGenerator<LineBatch> {
  for await (const piece of readTextPieces(file, progress, signal)) {
    const lines = piece.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
    }
    yield { lines, line: piece.line };
  }
}

/** Throws "empty source side" / "empty target side" unless `allowEmpty`. */
export function checkSides(rec: PairRecord, allowEmpty: boolean | undefined, srcFile: string, tgtFile = srcFile): void {
  if (allowEmpty) return;
  if (rec.src.trim() === '') throw new InputError(srcFile, rec.line, 'empty source side');
  if (rec.tgt.trim() === '') throw new InputError(tgtFile, rec.line, 'empty target side');
}

/** Pulls lines one at a time out of `readLineBatches`, tracking the line number. */
export class LineCursor {
  private lines: string[] = [];
  private i = 0;
  private first = 1;

  constructor(private readonly batches: AsyncGenerator<LineBatch>) {}

  /** Ensures a line is buffered; false at end of file. */
  async fill(): Promise<boolean> {
    while (this.i >= this.lines.length) {
      const r = await this.batches.next();
      if (r.done) return false;
      this.lines = r.value.lines;
      this.first = r.value.line;
      this.i = 0;
    }
    return true;
  }

  /** Lines buffered and not yet taken. */
  get buffered(): number {
    return this.lines.length - this.i;
  }

  /** 1-based number of the next line (after the end: lines in the file + 1). */
  get line(): number {
    return this.first + this.i;
  }

  take(): string {
    return this.lines[this.i++];
  }

  async close(): Promise<void> {
    await this.batches.return(undefined);
  }
}
