// The first n pairs of the Multi30k en–fr bench corpus (../shared/data/bench-corpora beside
// the checkout, one tokenised, lowercased sentence per line), as word lists: real parallel
// text for the tests' small models; M30K_AVAILABLE says whether the corpus is there.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CORPORA = fileURLToPath(new URL('../../../../../shared/data/bench-corpora/', import.meta.url));

export const M30K_AVAILABLE = existsSync(CORPORA + 'm30k.en');

export function m30kPairs(n: number): { src: string[][]; tgt: string[][] } {
  const side = (ext: string) =>
    readFileSync(CORPORA + `m30k.${ext}`, 'utf8')
      .split('\n')
      .slice(0, n)
      .map((l) => l.split(' ').filter(Boolean));
  return { src: side('en'), tgt: side('fr') };
}
