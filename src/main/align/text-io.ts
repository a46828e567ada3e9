// Reading the aligner's plain-text inputs: one sentence per line, tokens separated by
// spaces, used as they are (runs of spaces and a trailing \r are tolerated). The final
// empty line after a trailing newline is not a sentence. A parallel text is read from its
// files as it is asked for, each line decoded and tokenised on demand (sentences.ts): what
// stays in memory is where each line starts (8 bytes a line) and a window of the file around
// the last line read, so a corpus read in order (the aligner's one pass) costs no more memory
// at 4M pairs than at 100k; dup100k's bytes (17 MB) were held whole before.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { InputError } from '../errors.ts';
import type { Sentences } from './sentences.ts';

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new InputError(file, 0, `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

export function readLines(file: string): string[] {
  const text = readBytes(file).toString('utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export function tokenize(line: string): string[] {
  return line.split(/[ \t]+/).filter((w) => w.length > 0);
}

/** Number of tokens tokenize(line) gives: runs of characters (or UTF-8 bytes) other than space and tab. */
function tokenCount(line: { length: number; [i: number]: number } | string, start = 0, end = line.length): number {
  let n = 0,
    inWord = false;
  for (let i = start; i < end; i++) {
    const c = typeof line === 'string' ? line.charCodeAt(i) : line[i];
    const sep = c === 32 || c === 9;
    if (!sep && !inWord) n++;
    inWord = !sep;
  }
  return n;
}

/** Lines as Sentences, each tokenised when asked (the token strings are not kept). */
export function lineSentences(lines: readonly string[]): Sentences {
  return { length: lines.length, tokens: (k) => tokenize(lines[k]), size: (k) => tokenCount(lines[k]) };
}

/** Bytes of a file read at a time, into the window a line is read from. */
const WINDOW = 1 << 20;

function openFile(file: string): number {
  try {
    return openSync(file, 'r');
  } catch (err) {
    throw new InputError(file, 0, `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** Reads length bytes from `at` of an open file into buf; returns the bytes read. */
function readAt(fd: number, buf: Buffer, length: number, at: number): number {
  let done = 0;
  while (done < length) {
    const got = readSync(fd, buf, done, length - done, at + done);
    if (got === 0) break;
    done += got;
  }
  return done;
}

/**
 * Where each line of a file starts, from one pass over it in windows: line k is bytes
 * start[k] .. start[k+1] - 1 (its \n excluded; a final line without one ends at the file's end).
 */
function lineStarts(file: string): { start: Float64Array; n: number } {
  let start = new Float64Array(1 << 12);
  let n = 0;
  const add = (at: number) => {
    if (n === start.length) {
      const more = new Float64Array(2 * start.length);
      more.set(start);
      start = more;
    }
    start[n++] = at;
  };
  add(0);
  const fd = openFile(file);
  const buf = Buffer.allocUnsafe(WINDOW);
  let size = 0;
  try {
    for (;;) {
      const got = readAt(fd, buf, WINDOW, size);
      for (let i = buf.indexOf(10); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) add(size + i + 1);
      size += got;
      if (got < WINDOW) break;
    }
  } finally {
    closeSync(fd);
  }
  // a last line without \n ends at the file's end, as if it had one
  if (start[n - 1] < size) add(size + 1);
  return { start, n: n - 1 };
}

/** A file's lines as Sentences, read from the file in windows as they are asked for. */
function fileSentences(file: string): Sentences {
  const { start, n } = lineStarts(file);
  let store = Buffer.alloc(0),
    window = store,
    from = 0;
  /** The window holding line k's bytes (read from the file if it does not), and where the line is in it. */
  const bytesOf = (k: number): [Buffer, number, number] => {
    const s = start[k],
      e = start[k + 1] - 1;
    if (s < from || e > from + window.length) {
      const size = Math.max(WINDOW, e - s);
      if (store.length < size) store = Buffer.allocUnsafe(size);
      const fd = openFile(file);
      try {
        window = store.subarray(0, readAt(fd, store, size, s));
      } finally {
        closeSync(fd);
      }
      from = s;
    }
    const end = e > s && window[e - 1 - from] === 13 ? e - 1 : e;
    return [window, s - from, end - from];
  };
  return {
    length: n,
    tokens: (k) => {
      const [buf, s, e] = bytesOf(k);
      return tokenize(buf.toString('utf8', s, e));
    },
    size: (k) => {
      const [buf, s, e] = bytesOf(k);
      return tokenCount(buf, s, e);
    },
  };
}

/** Both sides of a parallel text; their line counts must agree. */
export function readParallel(srcFile: string, tgtFile: string): { src: Sentences; tgt: Sentences } {
  const s = fileSentences(srcFile),
    t = fileSentences(tgtFile);
  if (s.length !== t.length) {
    throw new InputError(
      tgtFile,
      Math.min(s.length, t.length) + 1,
      `has ${t.length} lines but ${srcFile} has ${s.length}; line counts must match`,
    );
  }
  return { src: s, tgt: t };
}
