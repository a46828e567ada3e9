// `npm run bench -- word-list [--train 200] [--sets zh,ja]`: does a project's word list
// teach segmentation a reference it differs from? For each human-segmented corpus here
// (the Chinese and Japanese sides of ../shared/data/std-gold-align, segmented by their
// annotators, not by ICU), the sentences are joined back without their spaces and
// segmented (text/segment.ts) by ICU alone, then with the words of the first --train
// reference sentences as the project's word list (as `mekong import --word-list` or
// `mekong resegment --word-list` give it); word-level F1 (exact spans) on the other
// sentences. No human-segmented Thai corpus is in ../shared/data: the Thai target
// is measured on these two instead. Skips when ../shared/data is absent.
import { benchOptions, listOption, numberOption } from './bench-options.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { segmentOffsets } from '../../src/main/text/segment.ts';
import { WordList } from '../../src/main/text/word-list.ts';

const GOLD = join(import.meta.dirname, '../../../shared/data/std-gold-align');
const SETS: Record<string, { file: string; lang: string }> = {
  zh: { file: 'test.ch-en', lang: 'zh' },
  ja: { file: 'test.ja-en', lang: 'ja' },
};

/** Each sentence as its reference words (the source side, split on spaces). */
function reference(file: string): string[][] {
  return readFileSync(join(GOLD, file), 'utf8')
    .split('\n')
    .filter((l) => l.includes('|||'))
    .map((l) => l.split('|||')[0].trim().split(/\s+/).filter(Boolean));
}

/** Spans of the words of a sentence joined without spaces. */
function spansOf(words: string[]): Set<string> {
  const out = new Set<string>();
  let at = 0;
  for (const w of words) {
    out.add(`${at},${at + w.length}`);
    at += w.length;
  }
  return out;
}

function f1(sentences: string[][], lang: string, words?: WordList): { f1: number; precision: number; recall: number } {
  let both = 0;
  let predicted = 0;
  let gold = 0;
  for (const s of sentences) {
    const ref = spansOf(s);
    const o = segmentOffsets(s.join(''), lang, words ? { words } : {});
    gold += ref.size;
    predicted += o.length / 2;
    for (let i = 0; i < o.length; i += 2) if (ref.has(`${o[i]},${o[i + 1]}`)) both++;
  }
  const precision = both / predicted;
  const recall = both / gold;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

export default async function bench(args: string[]): Promise<void> {
  if (!existsSync(GOLD)) return console.log('word-list bench: ../shared/data/std-gold-align missing, skipped');
  const o = benchOptions('word-list', args, {
    train: { type: 'string', default: '200' },
    sets: { type: 'string', default: 'zh,ja' },
  });
  if (!o) return;
  const train = numberOption('train', o.train)!;
  for (const name of listOption(o.sets)) {
    const { file, lang } = SETS[name];
    const all = reference(file);
    const rest = all.slice(train);
    const seen = all.slice(0, train).flat();
    const words = WordList.fromWords(seen);
    const multi = WordList.fromWords(seen.filter((w) => [...w].length >= 2));
    const fmt = (r: { f1: number; precision: number; recall: number }) =>
      `F1 ${(100 * r.f1).toFixed(1)} (P ${(100 * r.precision).toFixed(1)}, R ${(100 * r.recall).toFixed(1)})`;
    const icu = f1(rest, lang);
    const listed = f1(rest, lang, words);
    const multiListed = f1(rest, lang, multi);
    const gain = (r: { f1: number }) => `${((r.f1 - icu.f1) * 100).toFixed(1)} points`;
    console.log(
      `${name}: ${rest.length} sentences: ICU alone ${fmt(icu)} · with the words of ${train} reference sentences (${words.size} words) ${fmt(listed)}, ${gain(listed)} · its ${multi.size} words of two or more characters only ${fmt(multiListed)}, ${gain(multiListed)}`,
    );
  }
}
