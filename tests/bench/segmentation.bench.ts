// `npm run bench -- segmentation [--rounds 5]`: how close the default segmentation (segment(),
// with the word lists an import uses) comes to what readers of the language cut.
//  - Chinese and Japanese: the hand-segmented sides of ../shared/data/std-gold-align
//    (test.ch-en: Tsinghua zh–en, 450 sentences; test.ja-en: KFTT, 582), the reference words
//    joined again (without a space between two tokens where either side is CJK) and
//    segmented. Word precision, recall and F1 count exact spans; "cut inside" is the share
//    of reference words with a token boundary strictly inside them, an error whatever one's
//    convention for compounds. Also sentences per CPU second (best of --rounds after a
//    warm-up; CPU time, as the machine's load makes wall time drift).
//  - Lao spelling variants: every headword of the bundled Lao–English dictionary that holds
//    ໜ, ໝ or ຫຼ, written in its other common spelling (ຫນ, ຫມ, ຫລ) and in its own, inside a
//    sentence frame; the share kept whole, without and with the dictionary's word list.
//  - Thai and Lao abbreviations: the dotted abbreviations and consonant abbreviations
//    followed by a full stop in the bundled sample (resources/sample), and the share that
//    come out as one token with their stop.
//  - Words learned from the corpus (text/corpus-words.ts, `resegment --learn-words`): the
//    Chinese scores again with the words learned from the test set's own sentences, and on
//    the sample's Lao and Thai sides the words learned, the tokens merged, and the names of
//    issue 43 that occur there, kept whole or not.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sampleCorpusPath } from '../../src/main/corpus/sample.ts';
import { laoEnglishDictionaryPath, loadLaoEnglishHeadwords } from '../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segment, segmentOffsets } from '../../src/main/text/segment.ts';
import { CorpusWords } from '../../src/main/text/corpus-words.ts';
import { WordList } from '../../src/main/text/word-list.ts';
import { benchOptions, numberOption } from './bench-options.ts';

const DATA = join(import.meta.dirname, '../../../shared/data/std-gold-align');
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

interface Reference {
  text: string;
  words: [number, number][];
}

/** The hand-segmented source side of a std-gold-align test file. */
function references(file: string): Reference[] {
  const out: Reference[] = [];
  for (const line of readFileSync(join(DATA, file), 'utf8').split('\n')) {
    const tokens = line.split(' ||| ')[0].trim().split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    let text = '';
    const words: [number, number][] = [];
    tokens.forEach((t, i) => {
      if (i > 0 && !CJK.test(tokens[i - 1].slice(-1)) && !CJK.test(t[0])) text += ' ';
      words.push([text.length, text.length + t.length]);
      text += t;
    });
    if (normalizeText(text) === text) out.push({ text, words });
  }
  return out;
}

/** `known` grown by the words learned from `texts` (segmented with `known`), and how many were learned. */
function learnedList(texts: string[], lang: string, known?: WordList): { list: WordList; learned: number } {
  const learner = new CorpusWords(lang);
  for (const t of texts) learner.add(t, segmentOffsets(t, lang, { words: known }));
  const { words } = learner.learn(known);
  const list = WordList.fromData(known?.data() ?? { words: [], mergeOnly: [] });
  for (const w of words) list.add(w.word, 'merge-only');
  return { list, learned: words.length };
}

function wordScores(refs: Reference[], lang: string, words?: WordList): string {
  let [hits, predicted, reference, cutInside] = [0, 0, 0, 0];
  for (const r of refs) {
    const o = segmentOffsets(r.text, lang, { words });
    const spans = new Set<string>();
    const bounds = new Set<number>();
    for (let i = 0; i < o.length; i += 2) {
      spans.add(`${o[i]},${o[i + 1]}`);
      bounds.add(o[i]).add(o[i + 1]);
    }
    predicted += o.length / 2;
    reference += r.words.length;
    for (const [a, b] of r.words) {
      if (spans.has(`${a},${b}`)) hits++;
      for (let k = a + 1; k < b; k++) {
        if (bounds.has(k)) {
          cutInside++;
          break;
        }
      }
    }
  }
  const [p, rec] = [hits / predicted, hits / reference];
  return `P ${p.toFixed(3)} | R ${rec.toFixed(3)} | F1 ${((2 * p * rec) / (p + rec)).toFixed(3)} | cut inside ${((100 * cutInside) / reference).toFixed(1)}% of ${reference}`;
}

function sentencesPerSecond(refs: Reference[], lang: string, rounds: number): number {
  for (const r of refs) segmentOffsets(r.text, lang);
  let best = Infinity;
  for (let k = 0; k < rounds; k++) {
    const cpu = process.cpuUsage();
    for (const r of refs) segmentOffsets(r.text, lang);
    const spent = process.cpuUsage(cpu);
    best = Math.min(best, (spent.user + spent.system) / 1e6);
  }
  return Math.round(refs.length / best);
}

const LIGATURE_SPELLINGS: [RegExp, string][] = [
  [/\u0edc/g, '\u0eab\u0e99'],
  [/\u0edd/g, '\u0eab\u0ea1'],
  [/\u0eab\u0ebc/g, '\u0eab\u0ea5'],
];

function laoVariants(dictionary: WordList): string[] {
  const whole = (word: string, words?: WordList) => {
    const text = `ມີ ${word} ແລ້ວ`;
    return segment(text, 'lo', { words }).some((t) => t.text === word);
  };
  const rows = parse(readFileSync(laoEnglishDictionaryPath(), 'utf8'), { bom: true, columns: true }) as { LaoWord: string }[];
  const spelt = rows.map((r) => normalizeText(r.LaoWord.trim())).filter((w) => !/\s/.test(w) && /[\u0edc\u0edd]|\u0eab\u0ebc/.test(w));
  const headwords = [...new Set(spelt)];
  const other = headwords.map((w) => LIGATURE_SPELLINGS.reduce((s, [re, to]) => s.replace(re, to), w));
  const share = (words: string[], list?: WordList) => `${((100 * words.filter((w) => whole(w, list)).length) / words.length).toFixed(1)}%`;
  return [
    `Lao headwords with ໜ/ໝ/ຫຼ: ${headwords.length}`,
    `| spelling | kept whole, ICU alone | with the dictionary's word list |`,
    `| ligature (ໜ ໝ ຫຼ) | ${share(headwords)} | ${share(headwords, dictionary)} |`,
    `| two letters (ຫນ ຫມ ຫລ) | ${share(other)} | ${share(other, dictionary)} |`,
  ];
}

function abbreviations(dictionary: WordList): string {
  const rows = parse(readFileSync(sampleCorpusPath(), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
  const abbreviation =
    /(?:[\u0e00-\u0eff]{1,2}(?:\.[\u0e00-\u0eff]{1,2})+|[\u0e01-\u0e2e\u0e81-\u0eae\u0edc-\u0edf]{1,4})\.(?=[\s\u200b]*[\u0e00-\u0eff\d])/g;
  let [found, whole] = [0, 0];
  for (const row of rows) {
    for (const [column, lang] of [
      ['lao_sent', 'lo'],
      ['thai_sent', 'th'],
    ] as const) {
      const text = normalizeText(row[column]);
      const tokens = new Set(segment(text, lang, { words: lang === 'lo' ? dictionary : undefined }).map((t) => `${t.start},${t.end}`));
      for (const m of text.matchAll(abbreviation)) {
        const after = m.index + m[0].length;
        // inside a word, or the first part of a dotted abbreviation written without its final stop (ພ.ສ 2538)
        if (m.index > 0 && /[\u0e00-\u0eff]/.test(text[m.index - 1])) continue;
        if (/^[\u0e00-\u0eff]{1,2}(?![\u0e00-\u0eff.])/.test(text.slice(after, after + 3))) continue;
        found++;
        if (tokens.has(`${m.index},${m.index + m[0].length}`)) whole++;
      }
    }
  }
  return `Thai and Lao abbreviations in the sample kept whole with their stop: ${whole} of ${found}`;
}

/** Words learned from the sample's Lao and Thai sides, and the names found there. */
function sampleLearned(dictionary: WordList): string[] {
  const rows = parse(readFileSync(sampleCorpusPath(), 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
  const names: Record<string, string[]> = {
    lo: ['ສີນວນ', 'ເຢຣຶຊາເລມ', 'ອັບລາຫາມ', 'ເຢໂຫວາ', 'ໄບເບິນ', 'ຊາຕານ', 'ໂຈເຊັບ', 'ດາວິດ', 'ເປໂຕ', 'ໃຄ່ຄວນ', 'ອຸຣະວະດີ', 'ໜອງຄາຍ', 'ຂອນແກ່ນ'],
    th: ['สีนวนทอง', 'เพียวัด', 'ใคร่ครวญ', 'อุรวดี', 'หนองคาย', 'ขอนแก่น'],
  };
  const out: string[] = [];
  for (const [column, lang] of [
    ['lao_sent', 'lo'],
    ['thai_sent', 'th'],
  ] as const) {
    const known = lang === 'lo' ? dictionary : undefined;
    const texts = rows.map((r) => normalizeText(r[column]));
    const { list, learned } = learnedList(texts, lang, known);
    const tokens = (words?: WordList) => texts.reduce((n, t) => n + segmentOffsets(t, lang, { words }).length / 2, 0);
    const whole = (name: string, words?: WordList) =>
      texts.reduce((n, t) => n + segment(t, lang, { words }).filter((x) => x.text === name).length, 0);
    const found = names[lang]
      .map((name) => [name, texts.reduce((n, t) => n + t.split(name).length - 1, 0)] as const)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${name} ${whole(name, known)} → ${whole(name, list)} of ${n}`);
    out.push(
      `${lang} sample (${texts.length} sentences): ${learned} words learned, tokens ${tokens(known)} → ${tokens(list)}; names kept whole: ${found.join(', ')}`,
    );
  }
  return out;
}

export default async function main(args: string[]): Promise<void> {
  const o = benchOptions('segmentation', args, { rounds: { type: 'string', default: '5' } });
  if (!o) return;
  const rounds = numberOption('rounds', o.rounds)!;
  if (existsSync(DATA)) {
    for (const [file, lang] of [
      ['test.ch-en', 'zh'],
      ['test.ja-en', 'ja'],
    ]) {
      const refs = references(file);
      console.log(
        `${file} (${lang}, ${refs.length} sentences): ${wordScores(refs, lang)} | ${sentencesPerSecond(refs, lang, rounds)} sentences per CPU second`,
      );
      if (lang === 'zh') {
        const { list, learned } = learnedList(
          refs.map((r) => r.text),
          lang,
        );
        console.log(`${file} (${lang}) with the ${learned} words learned from its own sentences: ${wordScores(refs, lang, list)}`);
      }
    }
  } else console.log(`${DATA} is absent: the Chinese and Japanese figures are skipped`);
  const dictionary = await loadLaoEnglishHeadwords();
  for (const line of laoVariants(dictionary)) console.log(line);
  console.log(abbreviations(dictionary));
  for (const line of sampleLearned(dictionary)) console.log(line);
}
