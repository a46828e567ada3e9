// `npm run bench -- pivot [--second en-th:FILE] [--dictionary FILE]`: how precise a composed dictionary is,
// against the pivot-word ambiguity cut-off. Lao → Thai is composed through English from
// the bundled MOPT Lao–English dictionary and a Thai dictionary (default: MUSE en-th from
// ../shared/data/muse-dicts, research use only) and checked on the bundled embassy corpus
// (265 Lao–Thai sentence pairs, both sides segmented as the import does, Lao with the
// dictionary's headwords): an entry (s, t) whose s occurs in some Lao sentence is testable,
// and attested when t occurs in the Thai sentence of one of those pairs. The attested share
// is a lower bound of precision (a translator may choose another word); the same share
// with each entry's target replaced by a random composed target (seeded shuffle) is the
// chance level. P@1: per testable source word, is its highest-confidence target attested?
// --dictionary: also score a ready Lao → Thai dictionary file (e.g. one composed through
// Chinese with `mekong dict compose`, as seed 003 pivoted), as one more row.
// Figures (2026-11-25): docs/experiments.md.
import { benchOptions } from './bench-options.ts';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { composeSpecs } from '../../src/main/align/dictionary-sources.ts';
import type { ComposedEntry } from '../../src/main/align/pivot.ts';
import { readDictionary, type DictEntry } from '../../src/main/align/dictionary.ts';
import { sampleCorpusPath } from '../../src/main/corpus/sample.ts';
import { loadLaoEnglishHeadwords } from '../../src/main/text/lao-dictionary.ts';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segment } from '../../src/main/text/segment.ts';

const CUTOFFS = [1, 2, 3, 5, 10, 20, Infinity];

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export default async function pivotBench(args: string[]): Promise<void> {
  const o = benchOptions('pivot', args, {
    second: { type: 'string', default: `en-th:${join(import.meta.dirname, '../../../shared/data/muse-dicts/en-th.txt')}` },
    dictionary: { type: 'string' },
  });
  if (!o) return;
  const second = o.second;
  const ready = o.dictionary;
  const words = await loadLaoEnglishHeadwords();
  const rows = parse(readFileSync(sampleCorpusPath(), 'utf8'), { bom: true, columns: true }) as { lao_sent: string; thai_sent: string }[];
  const lo = rows.map((r) => segment(normalizeText(r.lao_sent), 'lo', { words }).map((t) => t.text));
  const th = rows.map((r) => new Set(segment(normalizeText(r.thai_sent), 'th').map((t) => t.text)));
  const pairsOf = new Map<string, number[]>();
  lo.forEach((ws, k) => new Set(ws).forEach((w) => (pairsOf.get(w) ?? pairsOf.set(w, []).get(w)!).push(k)));
  const attested = (s: string, t: string) => (pairsOf.get(s) ?? []).some((k) => th[k].has(t));

  const all = composeSpecs('lo-en:bundled', second, 'en');
  console.log(`composed lo→th: ${all.length} entries, ${new Set(all.map((e) => e.src)).size} source words; second dictionary ${second}`);
  console.log(
    'max fan-out | entries | testable | attested | precision | chance | P@1 (words) | precision, ≥2 paths (testable) | precision, confidence ≥ 0.5 / < 0.5 (testable)',
  );
  const row = (label: string, kept: DictEntry[]) => {
    const testable = kept.filter((e) => pairsOf.has(e.src));
    const hits = testable.filter((e) => attested(e.src, e.tgt)).length;
    const random = shuffled(
      testable.map((e) => e.tgt),
      label.length + kept.length,
    );
    const chance = testable.filter((e, i) => attested(e.src, random[i])).length;
    const best = new Map<string, DictEntry>();
    for (const e of testable) if (!best.has(e.src) || e.weight > best.get(e.src)!.weight) best.set(e.src, e);
    const top = [...best.values()].filter((e) => attested(e.src, e.tgt)).length;
    const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '-');
    const share = (es: DictEntry[]) => `${pct(es.filter((e) => attested(e.src, e.tgt)).length, es.length)} (${es.length})`;
    const multi = testable.filter((e) => ((e as Partial<ComposedEntry>).paths ?? 0) >= 2);
    const [high, low] = [testable.filter((e) => e.weight >= 0.5), testable.filter((e) => e.weight < 0.5)];
    console.log(
      `${label.padStart(11)} | ${kept.length} | ${testable.length} | ${hits} | ${pct(hits, testable.length)} | ${pct(chance, testable.length)} | ${pct(top, best.size)} (${best.size}) | ${multi.length ? share(multi) : '-'} | ${share(high)} / ${share(low)}`,
    );
  };
  for (const k of CUTOFFS) row(String(k), k === Infinity ? all : composeSpecs('lo-en:bundled', second, 'en', { maxFanout: k }));
  if (ready !== undefined) row(basename(ready), readDictionary(ready));
}
