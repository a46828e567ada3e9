// Reading the aligner's plain-text inputs: one sentence per line, tokens separated by
// spaces, used as they are (runs of spaces and a trailing \r are tolerated). The final
// empty line after a trailing newline is not a sentence. A parallel text is kept as its
// files' UTF-8 bytes, each line decoded and tokenised on demand (sentences.ts): dup100k's
// two sides take 17 MB so, where their lines as strings took 43 MB.
import { readFileSync } from 'node:fs';
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

/** A file's lines as Sentences over its bytes: line k is bytes [start[k], end[k]) without \n or a final \r. */
function byteSentences(buf: Buffer): Sentences {
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  if (buf.length > 0 && buf[buf.length - 1] !== 10) n++;
  const start = new Int32Array(n),
    end = new Int32Array(n);
  for (let k = 0, i = 0; k < n; k++) {
    const nl = buf.indexOf(10, i);
    const e = nl < 0 ? buf.length : nl;
    start[k] = i;
    end[k] = e > i && buf[e - 1] === 13 ? e - 1 : e;
    i = e + 1;
  }
  return {
    length: n,
    tokens: (k) => tokenize(buf.toString('utf8', start[k], end[k])),
    size: (k) => tokenCount(buf, start[k], end[k]),
  };
}

/** Both sides of a parallel text; their line counts must agree. */
export function readParallel(srcFile: string, tgtFile: string): { src: Sentences; tgt: Sentences } {
  const s = byteSentences(readBytes(srcFile)),
    t = byteSentences(readBytes(tgtFile));
  if (s.length !== t.length) {
    throw new InputError(
      tgtFile,
      Math.min(s.length, t.length) + 1,
      `has ${t.length} lines but ${srcFile} has ${s.length}; line counts must match`,
    );
  }
  return { src: s, tgt: t };
}
