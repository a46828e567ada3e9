// Reading the aligner's plain-text inputs: one sentence per line, tokens separated by
// spaces, used as they are (runs of spaces and a trailing \r are tolerated). The final
// empty line after a trailing newline is not a sentence. A parallel text is kept as lines
// and tokenised on demand (sentences.ts).
import { readFileSync } from 'node:fs';
import { InputError } from '../errors.ts';
import type { Sentences } from './sentences.ts';

export function readLines(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, 0, `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

export function tokenize(line: string): string[] {
  return line.split(/[ \t]+/).filter((w) => w.length > 0);
}

/** Number of tokens tokenize(line) gives: runs of characters other than space and tab. */
function tokenCount(line: string): number {
  let n = 0,
    inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
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

/** Both sides of a parallel text; their line counts must agree. */
export function readParallel(srcFile: string, tgtFile: string): { src: Sentences; tgt: Sentences } {
  const s = readLines(srcFile),
    t = readLines(tgtFile);
  if (s.length !== t.length) {
    throw new InputError(
      tgtFile,
      Math.min(s.length, t.length) + 1,
      `has ${t.length} lines but ${srcFile} has ${s.length}; line counts must match`,
    );
  }
  return { src: lineSentences(s), tgt: lineSentences(t) };
}
