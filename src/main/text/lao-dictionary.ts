// Lao headwords of the Lao–English dictionary (E-Government Center, Ministry of Posts and
// Telecommunications, Lao PDR; MIT licence, bundled in resources/dictionaries/) as a
// WordList for segmenting Lao. The CSV has the header `ID,LaoWord,English,Pronunciation,Type`
// and repeats a headword once per sense; it is read as a stream with csv-parse.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { resourcesDir } from '../paths.ts';
import { WordList } from './word-list.ts';

/** Path of the bundled dictionary. */
export function laoEnglishDictionaryPath(): string {
  return join(resourcesDir(), 'dictionaries', 'lao-eng-dictionary.csv');
}

export async function loadLaoEnglishHeadwords(csvPath: string = laoEnglishDictionaryPath()): Promise<WordList> {
  const list = new WordList();
  const rows = createReadStream(csvPath).pipe(parse({ columns: true, bom: true, skip_empty_lines: true }));
  for await (const row of rows as AsyncIterable<Record<string, string>>) {
    const word = row.LaoWord;
    if (word === undefined) throw new Error(`${csvPath}: no LaoWord column`);
    list.add(word);
  }
  return list;
}
