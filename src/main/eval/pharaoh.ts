// Reading and writing Pharaoh word-alignment lines: `i-j` (sure), `i?j` or `ipj` (possible),
// separated by whitespace, one line per sentence pair. Indices are 0-based in memory.
import { InputError } from '../errors.ts';

export interface AlignedPair {
  sure: [number, number][];
  possible: [number, number][];
}

const LINK = /^(\d+)([-?p])(\d+)$/;

/** One line; `file`/`line` name the place for errors, `base` is 0 or 1. */
export function parsePharaohLine(text: string, base: number, file: string, line: number): AlignedPair {
  const out: AlignedPair = { sure: [], possible: [] };
  for (const tok of text.trim().split(/\s+/)) {
    if (tok === '') continue;
    const m = LINK.exec(tok);
    if (!m) throw new InputError(file, line, `"${tok}" is not a link (expected i-j, i?j or ipj)`);
    const i = Number(m[1]) - base, j = Number(m[3]) - base;
    if (i < 0 || j < 0) throw new InputError(file, line, `"${tok}" has index 0 but the file is read as 1-based`);
    (m[2] === '-' ? out.sure : out.possible).push([i, j]);
  }
  return out;
}

/** Lines of a Pharaoh file; a final empty line (trailing newline) is not a pair. */
export function parsePharaoh(text: string, base: number, file: string): AlignedPair[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l, n) => parsePharaohLine(l, base, file, n + 1));
}

/** `i-j` links (0-based) as one Pharaoh line; with scores `i-j:p`. */
export function formatPharaoh(links: readonly { s: number; t: number; score?: number | null }[], withScores = false): string {
  return links.map((l) => (withScores ? `${l.s}-${l.t}:${(l.score ?? 1).toFixed(4)}` : `${l.s}-${l.t}`)).join(' ');
}
