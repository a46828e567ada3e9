// `npm run bench -- quality [--quick] [--sets …] [--rows …] [--seeds 1,2,3] [--eflomal PATH] [--cap 1]`
// Issue 42 items 3–5: alignment quality per corpus, each aligner compared at the same number of
// links. Corpora (../shared/data):
//   de-en en-fr ro-en zh-en ja-en   the five public gold sets (std-gold-align, lowercased, each
//                                   aligned on its own sentences): AER and sure-link recall
//   zh-en-char                      zh-en with Chinese cut into characters, each gold link
//                                   (word i, j) becoming one link per character of word i
//   tha ind cmn vie zsm             Tatoeba x–eng (every cell with a MUSE dictionary) with the MUSE
//                                   dictionaries' 1-to-1 matches as partial gold
//                                   (partial-gold.bench.ts): recall only
// ja-en and zh-en-char are the development set of item 4: unspaced source text, human gold.
// Rows (--rows, each NAME[:SYM[:THRESHOLD]]): `default` is DEFAULT_METHOD with its default
// decoding and the shipped dictionaries of the corpus's languages (as `mekong align
// --src-lang x --tgt-lang y` runs it), `default-nodict` the same without them
// (--no-default-dicts), any other a method (with those dictionaries too). A trained method
// (not statistical) runs once per --seeds seed and shows mean ± sd. Every row is scored as it
// is, then cut to the baseline's link count × --cap by dropping its lowest-scoring links
// ("recall at equal link count"). The baseline is eflomal (--eflomal: its eflomal-align
// script, both directions joined by our grow-diag-final-and), else agree with
// grow-diag-final-and. --quick: zh-en, ja-en and zh-en-char, one seed. --dict-use prior|
// supervision|both: how the trained rows use their dictionaries, on corpora that have one.
// --muse-half: every row of a Tatoeba cell is given half of its MUSE dictionary (--dict) and
// scored on the other half's matches (issue 42 item 2: the methods with a dictionary where
// none ships).
import { benchOptions, listOption, numberList, numberOption } from './bench-options.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Link } from '../../src/shared/domain.ts';
import { DEFAULT_METHOD, methodInfo } from '../../src/shared/methods.ts';
import { alignedPair, type AlignedPair } from '../../src/shared/link-set.ts';
import { alignerOf } from '../../src/main/aligners/registry.ts';
import type { AlignerOptions } from '../../src/main/aligners/text-aligner.ts';
import { defaultDictionaries } from '../../src/main/align/default-dictionaries.ts';
import { dictionaryIndex, dictionaryLinks } from '../../src/main/align/dictionary-links.ts';
import { withProgressBar } from '../../src/main/cli/progress-bar.ts';
import { parsePharaohText } from '../../src/main/corpus/pharaoh.ts';
import { scoreAer } from '../../src/main/eval/aer.ts';
import { GOLD, loadSet, SETS } from './align.bench.ts';
import { capLinks, eflomal, museEntries, score as partialScore } from './partial-gold.bench.ts';
import { splitDictionary, tatoeba } from './neural.bench.ts';
import type { DictionaryUse } from '../../src/main/models/bilstm/method.ts';

const DATA = join(import.meta.dirname, '../../../shared/data');

interface Corpus {
  name: string;
  srcLang: string;
  tgtLang: string;
  src: string[][];
  tgt: string[][];
  /** a dictionary file every row is given (--muse-half), besides the shipped ones */
  dict?: string;
  /** full gold (AER and sure recall) or partial gold (recall of its links) */
  gold: { full: AlignedPair[] } | { partial: { s: number; t: number }[][] };
}

const PUBLIC: Record<string, [text: string, src: string, tgt: string]> = {
  'de-en': ['test.de-en', 'de', 'en'],
  'en-fr': ['test.en-fr', 'en', 'fr'],
  'ro-en': ['test.ro-en', 'ro', 'en'],
  'zh-en': ['test.ch-en', 'zh', 'en'],
  'ja-en': ['test.ja-en', 'ja', 'en'],
};
const TATOEBA: Record<string, [code: string, src: string]> = {
  tha: ['th', 'th'],
  ind: ['id', 'id'],
  cmn: ['zh', 'zh'],
  vie: ['vi', 'vi'],
  zsm: ['ms', 'ms'],
};
const ALL_SETS = [...Object.keys(PUBLIC), 'zh-en-char', ...Object.keys(TATOEBA)];

function publicSet(name: string): Corpus {
  const [text, srcLang, tgtLang] = PUBLIC[name];
  const set = SETS.find((s) => s.text === text && !s.extra)!;
  const { src, tgt } = loadSet(set);
  const full = parsePharaohText(readFileSync(join(GOLD, set.gold), 'utf8'), set.base, set.gold).map(alignedPair);
  return { name: `${name} ${src.length}`, srcLang, tgtLang, src, tgt, gold: { full } };
}

/** zh-en with the Chinese words cut into characters and each gold link spread over its word's characters. */
function chineseByCharacter(): Corpus {
  const words = publicSet('zh-en');
  const full = (words.gold as { full: AlignedPair[] }).full;
  const src: string[][] = [];
  const gold = words.src.map((sentence, k) => {
    const first: number[] = [];
    const chars: string[] = [];
    for (const w of sentence) {
      first.push(chars.length);
      chars.push(...w);
    }
    src.push(chars);
    const spread = (links: [number, number][]) =>
      links.flatMap(([s, t]) => [...sentence[s]].map((_, c) => [first[s] + c, t] as [number, number]));
    return { sure: spread(full[k].sure), possible: spread(full[k].possible) };
  });
  return { ...words, name: `zh-en-char ${src.length}`, src, gold: { full: gold } };
}

/**
 * A Tatoeba cell with its MUSE matches as partial gold; with `museHalf`, half of the MUSE
 * dictionary's headwords (neural.bench.ts's split) is given to every row as --dict and only
 * the other half's matches are gold, so that no scored link was handed to an aligner.
 */
function tatoebaSet(lang: string, museHalf: boolean): Corpus | null {
  const [code, srcLang] = TATOEBA[lang];
  if (!existsSync(join(DATA, 'tatoeba-v1', `tatoeba.${lang}-eng.${lang}`))) return null;
  const { src, tgt } = tatoeba(lang, code);
  const name = `${lang}-eng ${src.length}`;
  if (!museHalf)
    return {
      name: `${name} (MUSE)`,
      srcLang,
      tgtLang: 'en',
      src,
      tgt,
      gold: { partial: dictionaryLinks(src, tgt, dictionaryIndex(museEntries(code))) },
    };
  const { given, entries, held } = splitDictionary(lang);
  const heldEntries = [...held].flatMap(([s, ts]) => [...ts].map((t) => ({ src: s, tgt: t, weight: 1 })));
  const partial = dictionaryLinks(src, tgt, dictionaryIndex(heldEntries));
  return {
    name: `${name} (half of MUSE given: ${entries.length} entries; gold from the other half)`,
    srcLang,
    tgtLang: 'en',
    src,
    tgt,
    dict: given,
    gold: { partial },
  };
}

function corpus(name: string, museHalf: boolean): Corpus | null {
  if (name === 'zh-en-char') return chineseByCharacter();
  if (PUBLIC[name]) return publicSet(name);
  if (TATOEBA[name]) return tatoebaSet(name, museHalf);
  throw new Error(`--sets: unknown set "${name}" (one of: ${ALL_SETS.join(', ')})`);
}

interface Scored {
  links: number;
  aer?: number;
  recall: number;
  /** recall once cut to the baseline's count × --cap */
  capped: number;
}

function scoreRun(c: Corpus, links: Link[][], cap: number): Scored {
  const n = links.reduce((a, l) => a + l.length, 0);
  const cut = capLinks(links, cap);
  const pairsOf = (ls: Link[][]) => ls.map((l) => l.map((x) => [x.s, x.t] as [number, number]));
  if ('full' in c.gold) {
    const all = scoreAer(c.gold.full, pairsOf(links));
    return { links: n, aer: all.aer, recall: all.recall, capped: scoreAer(c.gold.full, pairsOf(cut)).recall };
  }
  return { links: n, recall: partialScore(links, c.gold.partial).recall, capped: partialScore(cut, c.gold.partial).recall };
}

/** A row's runs: NAME[:SYM[:THRESHOLD]], `default` and `default-nodict` as in the header. */
async function runRow(c: Corpus, row: string, seed: number | undefined, dictUse?: DictionaryUse): Promise<Link[][]> {
  const nodict = row === 'default-nodict';
  const [name, sym, threshold] = row === 'default' || nodict ? [DEFAULT_METHOD] : row.split(':');
  const o: AlignerOptions = { srcLang: c.srcLang, tgtLang: c.tgtLang, ...(nodict ? { defaultDicts: false } : {}) };
  if (sym) o.sym = sym;
  if (threshold) o.threshold = threshold;
  if (seed !== undefined) o.seed = String(seed);
  if (c.dict) o.dict = [c.dict];
  if (dictUse && trained(row) && (c.dict || defaultDictionaries(c.srcLang, c.tgtLang).length)) o.dictUse = dictUse;
  const given = new Set(Object.keys(o) as (keyof AlignerOptions)[]);
  return [...(await (await alignerOf(name, given as never))(c.src, c.tgt, o, withProgressBar))];
}

/** --dict-use: how the trained rows use the shipped dictionaries (where any applies); their default when not given. */
const USES: readonly DictionaryUse[] = ['prior', 'supervision', 'both'];

const trained = (row: string) => !['default', 'default-nodict'].includes(row) && methodInfo(row.split(':')[0])?.family !== 'statistical';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, b) => a + (b - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1));
const show = (xs: number[], digits = 3) =>
  xs.length > 1 ? `${mean(xs).toFixed(digits)} ± ${sd(xs).toFixed(digits)}` : (xs[0]?.toFixed(digits) ?? '');

export default async function bench(args: string[]): Promise<void> {
  const o = benchOptions('quality', args, {
    quick: { type: 'boolean', default: false },
    sets: { type: 'string' },
    rows: { type: 'string', default: 'default,default-nodict,agree,bilstm-ctl' },
    seeds: { type: 'string' },
    eflomal: { type: 'string' },
    cap: { type: 'string', default: '1' },
    'dict-use': { type: 'string' },
    'muse-half': { type: 'boolean', default: false },
  });
  if (!o) return;
  if (!existsSync(GOLD)) {
    console.log(`quality bench: ${DATA} not found, nothing to measure`);
    return;
  }
  if (o.eflomal && !existsSync(o.eflomal)) throw new Error(`--eflomal ${o.eflomal}: no such file`);
  const sets = o.sets !== undefined ? listOption(o.sets) : o.quick ? ['zh-en', 'ja-en', 'zh-en-char'] : ALL_SETS;
  const seeds = o.seeds !== undefined ? numberList('seeds', o.seeds) : o.quick ? [1] : [1, 2, 3];
  const rows = listOption(o.rows);
  const ratio = numberOption('cap', o.cap)!;
  const dictUse = o['dict-use'] as DictionaryUse | undefined;
  if (dictUse !== undefined && !USES.includes(dictUse)) throw new Error(`--dict-use must be one of ${USES.join(', ')}, got "${dictUse}"`);
  for (const name of sets) {
    const c = corpus(name, o['muse-half']);
    if (!c) {
      console.log(`\n${name}: no data here`);
      continue;
    }
    const dicts = defaultDictionaries(c.srcLang, c.tgtLang).map((d) => d.label);
    const base = o.eflomal
      ? { name: 'eflomal', links: eflomal(o.eflomal, c.src, c.tgt) }
      : { name: 'agree:gdfa', links: await runRow(c, 'agree:gdfa', undefined) };
    const cap = Math.round(ratio * base.links.reduce((a, l) => a + l.length, 0));
    const goldN = 'full' in c.gold ? c.gold.full.reduce((a, g) => a + g.sure.length, 0) : c.gold.partial.reduce((a, g) => a + g.length, 0);
    console.log(
      `\n${c.name}: ${goldN} ${'full' in c.gold ? 'sure gold' : 'partial-gold'} links; shipped dictionaries: ${dicts.join(', ') || 'none'}; cut to ${cap} links (${ratio}× ${base.name}'s)`,
    );
    console.log(`${'row'.padEnd(20)}${'links'.padStart(16)}${'AER'.padStart(16)}${'recall'.padStart(16)}${'recall, cut'.padStart(16)}`);
    const print = (row: string, runs: Scored[]) =>
      console.log(
        `${row.padEnd(20)}${show(
          runs.map((r) => r.links),
          0,
        ).padStart(
          16,
        )}${show(runs.flatMap((r) => (r.aer === undefined ? [] : [r.aer]))).padStart(16)}${show(runs.map((r) => r.recall)).padStart(16)}${show(runs.map((r) => r.capped)).padStart(16)}`,
      );
    print(base.name, [scoreRun(c, base.links, cap)]);
    for (const row of rows) {
      const runs: Scored[] = [];
      for (const seed of trained(row) ? seeds : [undefined]) runs.push(scoreRun(c, await runRow(c, row, seed, dictUse), cap));
      const label = row + (dictUse && trained(row) && (c.dict || dicts.length) ? ` ${dictUse}` : '');
      print(label + (trained(row) && seeds.length > 1 ? ` (${seeds.length} seeds)` : ''), runs);
    }
  }
}
