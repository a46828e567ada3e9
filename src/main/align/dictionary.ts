// Bilingual dictionaries: the one parser of dictionary files and the one gloss splitter.
// Accepted files:
//   - two columns per line, tab- or space-separated: `source target` (MUSE style);
//   - three tab-separated columns `source<TAB>target<TAB>weight`, the weight a number ≥ 0:
//     what `mekong dict compose` writes (the weight is the composed entry's confidence);
//   - CSV with a header naming the columns, like the MOPT Lao–English dictionary
//     (`ID,LaoWord,English,…`): the first column whose name is not ID is the source side,
//     the next the target.
// A gloss (the target of a two-column line or a CSV row) is split in one of two units:
//   - 'word' (the aligner prior, which matches tokens): every word, weighted 1/#words;
//   - 'phrase' (pivoting through English, where "to eat; to consume" must meet "eat"): the
//     senses and synonyms separated by ; , or /, without remarks in brackets, without a
//     leading infinitive "to" or article, and without CC-CEDICT's cross-references
//     ("variant of 吃[chi1]", "CL:個|个[ge4]", "see …", "surname …"), weighted 1/#phrases.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { InputError } from '../errors.ts';

export interface DictEntry {
  src: string;
  tgt: string;
  weight: number;
}

export type GlossUnit = 'word' | 'phrase';

export interface GlossOptions {
  lowercase?: boolean;
  /** How a gloss splits (default 'word'). */
  unit?: GlossUnit;
}

/** Senses that only point elsewhere or name things no translation shares. */
const REFERENCE_SENSE =
  /^(see( also)?\b|((old|unofficial|archaic|erhua|japanese|ancient|same as) )?variant of\b|also (pr|written|called)\b|taiwan pr\.|cl:|surname\b|abbr\.|used in\b|lit\.|fig\.|pr\.)/i;
/** The longest phrase kept: longer glosses are definitions, which no other dictionary repeats. */
const MAX_PHRASE_WORDS = 4;

function withoutBrackets(gloss: string): string {
  let out = gloss.replace(/\[[^\]]*\]/g, ' ');
  for (let prev = ''; prev !== out;) [prev, out] = [out, out.replace(/\([^()]*\)/g, ' ')];
  return out;
}

/** The phrases of a gloss, in order, each once ("to eat; to consume" → ["eat", "consume"]). */
export function glossPhrases(gloss: string): string[] {
  const out = new Set<string>();
  for (const sense of gloss.split(/[;/]/)) {
    if (REFERENCE_SENSE.test(sense.trim())) continue;
    for (const part of withoutBrackets(sense).split(',')) {
      const phrase = part
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^(to|a|an|the) (?=\S)/i, '');
      if (phrase === '' || /[\p{Script=Han}~|]/u.test(phrase) || phrase.split(' ').length > MAX_PHRASE_WORDS) continue;
      out.add(phrase);
    }
  }
  return [...out];
}

function glossWords(gloss: string): string[] {
  return gloss.split(/[\s,;/()]+/).filter((w) => w.length > 0);
}

/** The entries of one source word and its gloss, split as `o.unit` says, each weighted 1/#pieces. */
export function glossEntries(src: string, gloss: string, o: GlossOptions = {}): DictEntry[] {
  const pieces = o.unit === 'phrase' ? glossPhrases(gloss) : glossWords(gloss);
  const norm = (w: string) => (o.lowercase ? w.toLowerCase() : w);
  return pieces.map((w) => ({ src: norm(src), tgt: norm(w), weight: 1 / pieces.length }));
}

function readCsv(file: string, text: string, o: GlossOptions): DictEntry[] {
  const rows = parse(text, { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  const header = rows[0].map((h) => h.trim().toLowerCase());
  const cols = header.map((h, i) => (h === 'id' ? -1 : i)).filter((i) => i >= 0);
  if (cols.length < 2) throw new InputError(file, 1, 'CSV dictionary needs two word columns');
  const out: DictEntry[] = [];
  for (const row of rows.slice(1)) {
    const [s, t] = [row[cols[0]]?.trim(), row[cols[1]]?.trim()];
    if (t?.toLowerCase() === header[cols[1]]) continue; // the header again (the MOPT file repeats it 25 times)
    if (s && t) out.push(...glossEntries(s, t, o));
  }
  return out;
}

/** A weighted line `src<TAB>tgt<TAB>weight`, or null when the line is not one (three
 *  tab-separated columns of which the third is a number ≥ 0; other lines read as before). */
function weightedLine(line: string, file: string, n: number, lowercase: boolean): DictEntry | null {
  const f = line.split('\t');
  if (f.length !== 3 || !/^\s*[0-9.eE+-]+\s*$/.test(f[2])) return null;
  const weight = Number(f[2]);
  if (!(weight >= 0)) throw new InputError(file, n, `the weight must be a number ≥ 0, got "${f[2]}"`);
  const [src, tgt] = [f[0].trim(), f[1].trim()];
  if (!src || !tgt) throw new InputError(file, n, 'expected "source<TAB>target<TAB>weight"');
  return lowercase ? { src: src.toLowerCase(), tgt: tgt.toLowerCase(), weight } : { src, tgt, weight };
}

/** Parses a dictionary's text (any format above); `file` names it in errors. */
export function parseDictionaryText(text: string, file: string, o: GlossOptions = {}): DictEntry[] {
  const first = text.slice(0, text.indexOf('\n') >>> 0).replace(/^\uFEFF/, '');
  if (/^[^\t ]*,[^\t ]*,/.test(first) || first.toLowerCase().startsWith('id,')) return readCsv(file, text, o);
  const out: DictEntry[] = [];
  text.split('\n').forEach((line, n) => {
    const weighted = weightedLine(line.replace(/\r$/, ''), file, n + 1, o.lowercase ?? false);
    if (weighted) return void out.push(weighted);
    const cols = line.trim().split(/[\t ]+/);
    if (cols.length === 1 && cols[0] === '') return;
    if (cols.length < 2) throw new InputError(file, n + 1, 'expected "source target"');
    out.push(...glossEntries(cols[0], cols.slice(1).join(' '), o));
  });
  return out;
}

export function readDictionary(file: string, o: GlossOptions = {}): DictEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, 0, `cannot read dictionary (${(err as NodeJS.ErrnoException).code})`);
  }
  return parseDictionaryText(text, file, o);
}

/** Entries as weighted lines src<TAB>tgt<TAB>weight (6 significant digits), the format `mekong dict compose` writes and this module reads back. */
export function dictionaryTsv(entries: DictEntry[]): string {
  return entries.map((e) => `${e.src}\t${e.tgt}\t${Number(e.weight.toPrecision(6))}\n`).join('');
}
