// The first n pairs of the Multi30k en–fr bench corpus (/work/shared/data/bench-corpora, one
// tokenised, lowercased sentence per line), as word lists: real parallel text for the siamese
// tests' small models.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const CORPORA = '/work/shared/data/bench-corpora';

export function m30kPairs(n: number): { src: string[][]; tgt: string[][] } {
  const side = (ext: string) =>
    readFileSync(join(CORPORA, `m30k.${ext}`), 'utf8')
      .split('\n')
      .slice(0, n)
      .map((l) => l.split(' ').filter(Boolean));
  return { src: side('en'), tgt: side('fr') };
}
