// Bilingual dictionaries used as a lexical prior. Accepted files:
//   - two columns per line, tab- or space-separated: `source target` (MUSE style);
//   - CSV with a header naming the columns, like the MOPT Lao–English dictionary
//     (`ID,LaoWord,English,…`): the first column whose name is not ID is the source side,
//     the next the target; a multi-word gloss gives one entry per word, weighted 1/#words.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.ts';

export interface DictEntry {
  src: string;
  tgt: string;
  weight: number;
}

function glossEntries(src: string, gloss: string, lowercase: boolean): DictEntry[] {
  const words = gloss.split(/[\s,;/()]+/).filter((w) => w.length > 0);
  const norm = (w: string) => (lowercase ? w.toLowerCase() : w);
  return words.map((w) => ({ src: norm(src), tgt: norm(w), weight: 1 / words.length }));
}

function readCsv(file: string, text: string, lowercase: boolean): DictEntry[] {
  const rows = parse(text, { relax_column_count: true, skip_empty_lines: true }) as string[][];
  const header = rows[0].map((h) => h.trim().toLowerCase());
  const cols = header.map((h, i) => (h === 'id' ? -1 : i)).filter((i) => i >= 0);
  if (cols.length < 2) throw new InputError(file, 1, 'CSV dictionary needs two word columns');
  const out: DictEntry[] = [];
  for (const row of rows.slice(1)) {
    const [s, t] = [row[cols[0]]?.trim(), row[cols[1]]?.trim()];
    if (s && t) out.push(...glossEntries(s, t, lowercase));
  }
  return out;
}

export function readDictionary(file: string, lowercase = false): DictEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, 0, `cannot read dictionary (${(err as NodeJS.ErrnoException).code})`);
  }
  const first = text.slice(0, text.indexOf('\n') >>> 0);
  if (/^[^\t ]*,[^\t ]*,/.test(first) || first.toLowerCase().startsWith('id,')) return readCsv(file, text, lowercase);
  const out: DictEntry[] = [];
  text.split('\n').forEach((line, n) => {
    const cols = line.trim().split(/[\t ]+/);
    if (cols.length === 1 && cols[0] === '') return;
    if (cols.length < 2) throw new InputError(file, n + 1, 'expected "source target"');
    out.push(...glossEntries(cols[0], cols.slice(1).join(' '), lowercase));
  });
  return out;
}
