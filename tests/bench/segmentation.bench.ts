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
//  - Words learned from the parallel side (a run of pieces that aligns to one word of the
//    other side): Chinese scored as above with the words learned, corpus-level only and with
//    the parallel side, from the test set's 450 pairs and Tatoeba's 1,000 cmn–eng pairs;
//    Tatoeba tha–eng's learned words, and how many of the Thai forms of its English names
//    (THAI_NAMES, read by hand) come out whole; and a proxy reference for Lao, the headwords
//    of the Lao–English dictionary found in the Lao side of the embassy corpus (both files):
//    every second headword is held out of the list the corpus is cut with (an unknown word,
//    as a name is), and its occurrences that no longer headword occurrence contains and none
//    overlaps in part are the reference; the figures are the share with a token boundary inside
//    ("cut inside") and the share a token that is no headword runs across ("glued across"),
//    with the first cut, then with the words learned each way (VARIANTS; the Thai side as the
//    parallel side).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sampleCorpusPath } from '../../src/main/corpus/sample.ts';
import { laoEnglishDictionaryPath, loadLaoEnglishHeadwords } from '../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segment, segmentOffsets } from '../../src/main/text/segment.ts';
import { CorpusWords, type LearnOptions, type LearnedWord } from '../../src/main/text/corpus-words.ts';
import { WordList } from '../../src/main/text/word-list.ts';
import { benchOptions, numberOption } from './bench-options.ts';

const DATA = join(import.meta.dirname, '../../../shared/data/std-gold-align');
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

interface Reference {
  text: string;
  words: [number, number][];
  /** the pair's English side, as written in the file */
  english: string;
}

/** The hand-segmented source side of a std-gold-align test file. */
function references(file: string): Reference[] {
  const out: Reference[] = [];
  for (const line of readFileSync(join(DATA, file), 'utf8').split('\n')) {
    const [side, english = ''] = line.split(' ||| ');
    const tokens = side.trim().split(/\s+/).filter(Boolean);
    if (tokens.length === 0) continue;
    let text = '';
    const words: [number, number][] = [];
    tokens.forEach((t, i) => {
      if (i > 0 && !CJK.test(tokens[i - 1].slice(-1)) && !CJK.test(t[0])) text += ' ';
      words.push([text.length, text.length + t.length]);
      text += t;
    });
    if (normalizeText(text) === text) out.push({ text, words, english: english.trim() });
  }
  return out;
}

/**
 * `known` grown by the words learned from `texts` (segmented with `known`), how many were
 * learned, and them. With `others` (each text's other side and its language), also from the
 * parallel side; `parallel: false` learns corpus-level words only.
 */
function learnedList(
  texts: string[],
  lang: string,
  known?: WordList,
  others?: { texts: string[]; lang: string; words?: WordList },
  options: LearnOptions = {},
): { list: WordList; learned: number; words: LearnedWord[] } {
  const learner = new CorpusWords(lang);
  texts.forEach((t, i) => {
    const other = others && { text: others.texts[i], spans: segmentOffsets(others.texts[i], others.lang, { words: others.words }) };
    learner.add(t, segmentOffsets(t, lang, { words: known }), other);
  });
  const { words } = learner.learn(known, options);
  const list = WordList.fromData(known?.data() ?? { words: [], mergeOnly: [] });
  for (const w of words) list.add(w.word, 'merge-only');
  return { list, learned: words.length, words };
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

const TATOEBA = join(import.meta.dirname, '../../../shared/data/tatoeba-v1');
const EMBASSY = join(import.meta.dirname, '../../../shared/data/thai-lao-embassy');

/** The lines of a Tatoeba pair (`tatoeba.<pair>.<side>`), normalised. */
function tatoeba(pair: string, side: string): string[] {
  return readFileSync(join(TATOEBA, `tatoeba.${pair}.${side}`), 'utf8')
    .split('\n')
    .map(normalizeText);
}

/** The ways of learning compared: a name, whether the parallel side is given, and whether runs aligned to one of its words are learned. */
const VARIANTS: [string, boolean, boolean][] = [
  ['corpus-level only', false, false],
  ['corpus-level, the parallel side keeping its words apart', true, false],
  ['and the runs aligned to one word of the parallel side', true, true],
];

const shown = (words: LearnedWord[]) => words.map((w) => (w.aligned ? `${w.word}=${w.aligned}` : w.word)).join(' ');

/** Chinese scores with the words learned from the test set and Tatoeba, corpus-level only and with the parallel side. */
function parallelChinese(refs: Reference[]): string[] {
  const zh = tatoeba('cmn-eng', 'cmn');
  const en = tatoeba('cmn-eng', 'eng');
  const n = Math.min(zh.length, en.length, 1000);
  const texts = [...refs.map((r) => r.text), ...zh.slice(0, n)];
  const english = [...refs.map((r) => r.english), ...en.slice(0, n)];
  return VARIANTS.map(([name, withOther, parallel]) => {
    const { list, words } = learnedList(texts, 'zh', undefined, withOther ? { texts: english, lang: 'en' } : undefined, { parallel });
    return `test.ch-en (zh) with the ${words.length} words learned from its pairs and Tatoeba cmn–eng's ${n}, ${name}: ${wordScores(refs, 'zh', list)}: ${shown(words)}`;
  });
}

/**
 * English names of Tatoeba tha–eng and their Thai forms in its sentences (read by hand; a
 * name that occurs only sentence-initially is listed too). A pair counts when its English
 * side holds the name and its Thai side the form.
 */
const THAI_NAMES: [string, string][] = [
  ['Tom', 'ทอม'],
  ['Mary', 'แมรี่'],
  ['Mary', 'แมรี'],
  ['John', 'จอห์น'],
  ['Bob', 'บ๊อบ'],
  ['Charlie', 'ชาร์ลี'],
  ['Helen', 'เฮเลน'],
  ['Keller', 'เคลเลอร์'],
  ['Meredith', 'เมเรดิธ'],
  ['Jesus', 'เยซู'],
  ['Christ', 'คริสต์'],
  ['Santa', 'ซานต้า'],
  ['America', 'อเมริกา'],
  ['Rome', 'โรม'],
  ['Budapest', 'บูดาเปส'],
  ['Aomori', 'อาโอโมริ'],
  ['Tokyo', 'โตเกียว'],
  ['Kyoto', 'เกียวโต'],
  ['Boston', 'บอสตัน'],
  ['Chicago', 'ชิคาโก้'],
  ['Kunming', 'คุนหมิง'],
  ['Russia', 'รัสเซีย'],
  ['Pluto', 'พลูโต'],
  ['Palestine', 'ปาเลสไตน์'],
  ['Jerusalem', 'เยรูซาเล็ม'],
  ['Asia', 'เอเชีย'],
  ['Europe', 'ยุโรป'],
  ['Australia', 'ออสเตรเลีย'],
  ['Soviet', 'โซเวียต'],
  ['York', 'นิวยอร์ก'],
  ['Times', 'ไทมส์'],
  ['Khalifa', 'เคาะลีฟะฮ์'],
  ['Japan', 'ญี่ปุ่น'],
  ['China', 'จีน'],
  ['German', 'เยอรมัน'],
  ['French', 'ฝรั่งเศส'],
  ['English', 'อังกฤษ'],
  ['Vietnam', 'เวียดนาม'],
  ['Christian', 'คริสเตียน'],
  ['Burmese', 'พม่า'],
  ['Thailand', 'ประเทศไทย'],
];

/** Tatoeba tha–eng: the words learned, and the Thai forms of its English names kept whole before → after. */
function tatoebaThai(): string[] {
  const th = tatoeba('tha-eng', 'tha');
  const en = tatoeba('tha-eng', 'eng');
  const n = Math.min(th.length, en.length, 1000);
  const [texts, english] = [th.slice(0, n), en.slice(0, n)];
  const whole = (words?: WordList) => {
    let [found, kept] = [0, 0];
    texts.forEach((text, i) => {
      const tokens = segment(text, 'th', { words }).map((t) => t.text);
      for (const [name, form] of THAI_NAMES) {
        if (!new RegExp(`\\b${name}`).test(english[i])) continue;
        const places = text.split(form).length - 1;
        found += places;
        kept += Math.min(places, tokens.filter((t) => t === form).length);
      }
    });
    return `${kept} of ${found}`;
  };
  const out: string[] = [];
  for (const [name, withOther, parallel] of VARIANTS) {
    const { list, words } = learnedList(texts, 'th', undefined, withOther ? { texts: english, lang: 'en' } : undefined, { parallel });
    out.push(
      `Tatoeba tha–eng (${n} pairs), ${name}: ${words.length} words learned: ${shown(words)}; Thai forms of English names whole ${whole()} → ${whole(list)}`,
    );
  }
  return out;
}

/** Headword occurrences in `text` that no longer occurrence contains and none overlaps in part (the proxy reference). */
function headwordPlaces(text: string, headwords: Set<string>, longest: number): [number, number][] {
  const found: [number, number][] = [];
  for (let a = 0; a < text.length; a++)
    for (let b = a + 2; b <= Math.min(text.length, a + longest); b++) if (headwords.has(text.slice(a, b))) found.push([a, b]);
  const inside = (a: number, b: number, c: number, d: number) => c <= a && d >= b && d - c > b - a;
  const overlaps = (a: number, b: number, c: number, d: number) => (c < a && d > a && d < b) || (c > a && c < b && d > b);
  return found.filter(([a, b]) => found.every(([c, d]) => !inside(a, b, c, d) && !overlaps(a, b, c, d)));
}

/** The share of `places` with a token boundary strictly inside, and the share a token that is no headword runs across. */
function proxyScores(texts: string[], places: [number, number][][], headwords: Set<string>, lang: string, words?: WordList): string {
  let [all, inside, across] = [0, 0, 0];
  texts.forEach((text, i) => {
    const o = segmentOffsets(text, lang, { words });
    for (const [a, b] of places[i]) {
      all++;
      let [cut, glued] = [false, false];
      for (let k = 0; k < o.length; k += 2) {
        if ((o[k] > a && o[k] < b) || (o[k + 1] > a && o[k + 1] < b)) cut = true;
        const runsAcross = (o[k] < a && o[k + 1] > a) || (o[k] < b && o[k + 1] > b);
        if (runsAcross && !headwords.has(text.slice(o[k], o[k + 1]))) glued = true;
      }
      if (cut) inside++;
      if (glued) across++;
    }
  });
  const pct = (x: number) => `${((100 * x) / all).toFixed(2)}%`;
  return `cut inside ${pct(inside)}, glued across ${pct(across)} of ${all}`;
}

/**
 * The Lao proxy reference on the embassy corpus. Every second headword (in code-unit order)
 * is held out of the word list the corpus is cut with, so that it is a word the segmenter does
 * not know, as a name or loan is; the reference is the held-out headwords' occurrences of two
 * syllables or more (three letters or more). Figures: the first cut, with the corpus-level
 * words, and with those of the Thai side as well.
 */
async function laoProxy(): Promise<string[]> {
  const rows = ['vientiane-thaiembassy-sent.csv', 'vientiane-thaiembassy.csv'].flatMap(
    (file) => parse(readFileSync(join(EMBASSY, file), 'utf8'), { bom: true, columns: true }) as Record<string, string>[],
  );
  const lao = rows.map((r) => normalizeText(r.lao_sent ?? r.lao));
  const thai = rows.map((r) => normalizeText(r.thai_sent ?? r.thai));
  const dict = parse(readFileSync(laoEnglishDictionaryPath(), 'utf8'), { bom: true, columns: true }) as { LaoWord: string }[];
  const headwords = [...new Set(dict.map((r) => normalizeText(r.LaoWord.trim())).filter((w) => w.length >= 2 && !/\s/.test(w)))].sort();
  const all = new Set(headwords);
  const kept = WordList.fromWords(
    headwords.filter((_, i) => i % 2 === 0),
    'merge-only',
  );
  const heldOut = new Set(headwords.filter((w, i) => i % 2 === 1 && w.length >= 3));
  const longest = Math.max(...headwords.map((w) => w.length));
  const places = lao.map((t) => headwordPlaces(t, all, longest).filter(([a, b]) => heldOut.has(t.slice(a, b))));
  const out = [
    `Lao proxy (held-out dictionary headwords in the embassy corpus's ${lao.length} Lao texts), first cut: ${proxyScores(lao, places, all, 'lo', kept)}`,
  ];
  for (const [name, withOther, parallel] of VARIANTS) {
    const { list, words } = learnedList(lao, 'lo', kept, withOther ? { texts: thai, lang: 'th' } : undefined, { parallel });
    out.push(`  with the ${words.length} words learned, ${name} (Thai): ${proxyScores(lao, places, all, 'lo', list)}; ${shown(words)}`);
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
        if (existsSync(TATOEBA)) for (const line of parallelChinese(refs)) console.log(line);
      }
    }
  } else console.log(`${DATA} is absent: the Chinese and Japanese figures are skipped`);
  const dictionary = await loadLaoEnglishHeadwords();
  for (const line of laoVariants(dictionary)) console.log(line);
  console.log(abbreviations(dictionary));
  for (const line of sampleLearned(dictionary)) console.log(line);
  if (existsSync(TATOEBA)) for (const line of tatoebaThai()) console.log(line);
  if (existsSync(EMBASSY)) for (const line of await laoProxy()) console.log(line);
}
