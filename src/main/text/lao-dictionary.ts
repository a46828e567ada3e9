// Lao headwords of the Lao–English dictionary (E-Government Center, Ministry of Posts and
// Telecommunications, Lao PDR; MIT licence, bundled in resources/dictionaries/) as a
// WordList for segmenting Lao. The CSV has the header `ID,LaoWord,English,Pronunciation,Type`
// and repeats a headword once per sense; it is read as a stream with csv-parse. Headwords of
// several words ("ທຸກໆ ເວລາ", 66 of them, many with glosses in brackets) are left out: Lao
// separates phrases, not words, by spaces, so they would merge phrases into one token. The
// headwords only merge pieces (WordList.add says why).
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { resourcesDir } from '../paths.ts';
import { canonicalWord, WordList } from './word-list.ts';

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
    if (!canonicalWord(word).includes(' ')) list.add(word, 'merge-only');
  }
  return list;
}
