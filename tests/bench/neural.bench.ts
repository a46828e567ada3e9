// `npm run bench -- neural [--epochs N] [--sets zh-en,ro-en] [--loop 50,100,200] [--dim D]
//                          [--p1 vie,ind,cmn,tha] [--self-train N] [--seeds 1,2,3] [--speed 5000]
//                          [--growth zh-en,ro-en] [--pairs 250,500]
//                          [--encoder-seq 32,128] [--encoder-vocab 30522]`
// (a) AER of bilstm-ctl against the statistical aligner (agree, gdfa) on the
//     ../shared/data/std-gold-align sets, each aligned on its own sentences, lowercased;
// (c) the correction loop: gold links of the first N pairs as supervision (from 40 pairs on,
//     a quarter of them held out of training to teach the link decision: method.ts), AER on
//     the rest, against the unsupervised model's AER on the same rest; and the link scores'
//     expected calibration error on the rest, raw and calibrated on the held-out quarter
//     (as the Re-align job does: eval/calibration.ts). Prints training time per run.
// (b) word-translation P@1 (x→en, MUSE dictionaries) of bilstm-ctl and agree (and of ibm2 and
//     hmm, our counterparts of the fast_align and GIZA++ baselines of seed 003) on the Tatoeba
//     pairs of each language (≤ 1,000 pairs), segmented by text/segment.ts, lowercased;
//     bilstm-ctl's lexicon as `mekong lexicon` builds it (word-translations.ts: the neural
//     tables times agree's) before self-training, the neural tables alone, and the lexicon
//     after self-training (method.ts) from that model, as `mekong lexicon` does by default
//     (shared/epochs.ts: 10 epochs on up to 1,000 pairs), or --self-train N epochs (0: none)
//     (the --dict table below trains without self-training); with
//     --seeds one model per seed, each seed's line, and their mean ± standard deviation (seed
//     003 reports the mean of three seeds), marked "above agree" where every seed is above
//     agree and so is mean − sd; with --pairs on the first N pairs of each language's corpus too
//     (smaller corpora: the regime seed 003 argues for); --seeds '' prints the statistical rows alone;
//     with --dict prior,supervision,both (any of them) half of the dictionary is given to the
//     aligners and P@1 is scored on the other half: agree with and without it, bilstm-ctl with
//     and without it in each use (issue 19's table, mean ± sd over --seeds); --dict lexicon
//     adds `mekong lexicon`'s default method as the CLI runs it (self-training included) with
//     that half as --dict (issue 42 item 2: is the default worth its training time?).
// --growth: new pairs after a training — a model trained on a set's first half (--epochs)
//     aligns the second half (words it lacks read by their subwords, or as before, not at
//     all), then continues a quarter of the epochs on both halves with its vocabulary grown
//     (vocab-growth.ts) or kept as before; AER on the second half (gdfa), and a model
//     trained from scratch on both halves for reference.
// --speed N: training time of bilstm-ctl on the first N pairs of bench-corpora/uniq39k
//     (en-de news, ~23 tokens a sentence) for --epochs epochs, the MatMul FLOPs of its steps
//     (nn/flops.ts) against the MatMul peak measured in the same run (before the training and after
//     it; the share is against the higher, and the other is printed: on this shared machine kind
//     the peak moved from 126 to 183 GFLOP/s within an hour; both on the sessions' default
//     threads, nn/cpu-threads.ts; with the steps' CPU time over their wall time, which shows
//     how much of the second core they use), and where the memory goes. No corpus of more than
//     1,000 pairs in ../shared/data has a MUSE or Lao dictionary, so (b) stays at Tatoeba size.
//     Then the same share for encoder fine-tuning steps (models/transformer/encoder-finetune.ts,
//     its default objectives, batch 4) on a BERT-base shape (12 layers × 768, 12 heads,
//     feed-forward 3072, --encoder-vocab rows, random weights: the tests' tiny-BERT writer) with
//     sentences cut to each of --encoder-seq subwords ('' for none).
// --epochs N for every training; without it each corpus gets the trainer's default for its size
// (shared/epochs.ts), --speed 20. Skips when ../shared/data is absent.
import { benchOptions, listOption, numberList, numberOption } from './bench-options.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Link } from '../../src/shared/domain.ts';
import { alignCorpus } from '../../src/main/align/engine.ts';
import { DEFAULT_CONFIG, type NeuralModel, trainNeural } from '../../src/main/models/bilstm/bilstm-train.ts';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../src/shared/epochs.ts';
import { HELD_OUT_SHARE, heldOutPairs } from '../../src/main/models/bilstm/held-out.ts';
import { type DictionaryUse, runNeuralMethod } from '../../src/main/models/bilstm/method.ts';
import type { DictEntry } from '../../src/main/align/dictionary.ts';
import { neuralLexicon, type LexiconEntry } from '../../src/main/models/bilstm/word-translations.ts';
import { embedPairs, extractLinks, type NeuralAlignResult } from '../../src/main/models/bilstm/aligner.ts';
import { lexiconOf } from '../../src/main/aligners/registry.ts';
import { DEFAULT_LEXICON_METHOD } from '../../src/shared/methods.ts';
import { withProgressBar } from '../../src/main/cli/progress-bar.ts';
import { scoreAer } from '../../src/main/eval/aer.ts';
import { calibrate, expectedCalibrationError, fitCalibration, reliability, type Sample } from '../../src/main/eval/calibration.ts';
import { parseDictionary, scoreP1 } from '../../src/main/eval/p1.ts';
import { normalizeText } from '../../src/main/text/normalize.ts';
import { segment } from '../../src/main/text/segment.ts';
import type { AlignedPair } from '../../src/shared/domain.ts';
import { parsePharaohText } from '../../src/main/corpus/pharaoh.ts';
import { alignedPair } from '../../src/shared/link-set.ts';
import { gflops, interleaved, matmulJob } from './nn.bench.ts';
import { defaultCpuThreads } from '../../src/main/nn/cpu-threads.ts';
import { finetuneEncoder } from '../../src/main/models/transformer/encoder-finetune.ts';
import { samplePairs, writeTinyBert } from '../unit/models/transformer/tiny-encoders.ts';

const DATA = join(import.meta.dirname, '../../../shared/data');
const GOLD = join(DATA, 'std-gold-align');
const P1_LANGS: Record<string, string> = { vie: 'vi', ind: 'id', cmn: 'zh', tha: 'th', zsm: 'ms' };
/** The statistical aligners seed 003 compared with, as our methods: fast_align (a reparameterised IBM-2) and GIZA++ (IBM-1 → HMM → …). */
const SEED_003_BASELINES = ['ibm2', 'hmm'];
const SETS: Record<string, { text: string; gold: string; base: 0 | 1 }> = {
  'zh-en': { text: 'test.ch-en', gold: 'chen.talp', base: 1 },
  'ro-en': { text: 'test.ro-en', gold: 'roen.talp', base: 1 },
  'de-en': { text: 'test.de-en', gold: 'deen.talp', base: 1 },
  'en-fr': { text: 'test.en-fr', gold: 'enfr.talp', base: 1 },
  'ja-en': { text: 'test.ja-en', gold: 'jaen.talp', base: 0 },
};

const tokens = (line: string) =>
  line
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

function load(name: string): { src: string[][]; tgt: string[][]; gold: AlignedPair[] } {
  const s = SETS[name];
  const pairs = readFileSync(join(GOLD, s.text), 'utf8')
    .split('\n')
    .filter((l) => l.includes('|||'))
    .map((l) => l.split('|||'));
  const gold = parsePharaohText(readFileSync(join(GOLD, s.gold), 'utf8'), s.base, s.gold).map(alignedPair);
  return { src: pairs.map((p) => tokens(p[0])), tgt: pairs.map((p) => tokens(p[1])), gold };
}

function aer(links: Link[][], gold: AlignedPair[], from = 0): string {
  return scoreAer(
    gold.slice(from),
    links.slice(from).map((ls) => ls.map((l): [number, number] => [l.s, l.t])),
  ).aer.toFixed(3);
}

/** Each pair's model links scored against its gold (sure or possible). */
function samples(links: Link[][], gold: AlignedPair[], pairs: number[]): Sample[] {
  return pairs.flatMap((k) => {
    const held = new Set([...gold[k].sure, ...gold[k].possible].map(([s, t]) => `${s}:${t}`));
    return links[k].map((l) => ({ score: l.score ?? 1, correct: held.has(`${l.s}:${l.t}`) }));
  });
}

/**
 * Calibration as the Re-align job does it: an isotonic map fitted on the pairs that taught
 * the link decision (`fitOn`), applied only where its cross-fitted ECE there beats the raw
 * one, measured on `rest`: ECE and the share of links at ≥ 0.9 with their precision, raw
 * and as stored (calibrated where applied); and the calibrated ECE had it always been applied.
 */
function calibrationLine(links: Link[][], gold: AlignedPair[], fitOn: number[], rest: number[]): string {
  const fitted = fitCalibration(fitOn.map((k) => samples(links, gold, [k])));
  if (!fitted) return 'too few links to calibrate';
  const raw = samples(links, gold, rest);
  const always = raw.map((x) => ({ score: calibrate(fitted.map, x.score), correct: x.correct }));
  const cal = fitted.summary.applied ? always : raw;
  const high = (xs: Sample[]) => {
    const top = xs.filter((x) => x.score >= 0.9);
    const precision = top.length ? top.filter((x) => x.correct).length / top.length : 0;
    return `${((100 * top.length) / Math.max(1, xs.length)).toFixed(0)}% ≥ 0.9 (precision ${precision.toFixed(2)})`;
  };
  const ece = (xs: Sample[]) => expectedCalibrationError(reliability(xs)).toFixed(3);
  const guard = `asked to calibrate: ${fitted.summary.applied ? 'applied' : 'kept raw'} (held-out ECE ${fitted.summary.eceRaw.toFixed(3)} raw, ${fitted.summary.eceCalibrated.toFixed(3)} cross-fitted)`;
  return `${guard}: ECE raw ${ece(raw)} → stored ${ece(cal)} (always calibrating: ${ece(always)}) · raw ${high(raw)} → stored ${high(cal)}`;
}

/** A Tatoeba x–eng set (≤ 1,000 pairs), segmented by text/segment.ts (x's ISO 639-1 code `code`), lowercased, words only. */
export function tatoeba(lang: string, code = P1_LANGS[lang]): { src: string[][]; tgt: string[][] } {
  const side = (file: string, code: string) =>
    readFileSync(join(DATA, 'tatoeba-v1', file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) =>
        segment(normalizeText(l), code)
          .map((t) => t.text.toLowerCase())
          .filter((w) => /[\p{L}\p{N}]/u.test(w)),
      );
  return { src: side(`tatoeba.${lang}-eng.${lang}`, code), tgt: side(`tatoeba.${lang}-eng.eng`, 'en') };
}

function best(entries: LexiconEntry[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of entries) if (!out.has(e.src)) out.set(e.src, e.tgt);
  return out;
}

const stats = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return { m, sd: Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1)) };
};
const meanSd = (xs: number[]) => {
  const { m, sd } = stats(xs);
  return `${m.toFixed(3)} ± ${sd.toFixed(3)}`;
};
/** Above agree by a margin that survives the seed spread: every seed above it, and mean − sd too. */
const aboveAgree = (xs: number[], agree: number) => xs.every((x) => x > agree) && stats(xs).m - stats(xs).sd > agree;

interface P1Options {
  epochs: number | undefined;
  dim: number;
  /** undefined: the default for each corpus's size (shared/epochs.ts) */
  selfTrainEpochs?: number;
  seeds: number[];
  /** --dict: the dictionary conditions to add (prior, supervision, both, lexicon: `mekong lexicon`'s default method as the CLI runs it); none = no split */
  dictUses: (DictionaryUse | 'lexicon')[];
}

async function p1Table(langs: string[], sizes: number[], o: P1Options): Promise<void> {
  for (const lang of langs) {
    const all = tatoeba(lang);
    for (const n of [...sizes.filter((x) => x < all.src.length), all.src.length]) {
      await (o.dictUses.length ? p1DictRow : p1Row)(lang, { src: all.src.slice(0, n), tgt: all.tgt.slice(0, n) }, o);
    }
  }
}

/**
 * The MUSE dictionary of `lang` split by source word, alternately in sorted order: one half
 * is given to the aligners as a dictionary (written to a file, as a user passes --dict), the
 * other half scores P@1, so that no evaluated word's answer was handed to the model.
 */
export function splitDictionary(lang: string): { given: string; entries: DictEntry[]; held: Map<string, Set<string>> } {
  const full = parseDictionary(readFileSync(join(DATA, 'muse-dicts', `${P1_LANGS[lang]}-en.txt`), 'utf8'), lang);
  const words = [...full.keys()].sort();
  const held = new Map(words.filter((_, i) => i % 2 === 1).map((w) => [w, full.get(w)!]));
  const entries = words.filter((_, i) => i % 2 === 0).flatMap((w) => [...full.get(w)!].map((t) => ({ src: w, tgt: t, weight: 1 })));
  const given = join(tmpdir(), `mekong-bench-dict-${lang}.txt`);
  writeFileSync(given, entries.map((e) => `${e.src}\t${e.tgt}\n`).join(''));
  return { given, entries, held };
}

/**
 * Issue 19's table: per corpus, agree without and with the given half of the dictionary,
 * bilstm-ctl without it and with it in each --dict use, P@1 on the held half, mean ± sd
 * over the seeds. 'prior' reuses the plain model (only the extraction's EM changes);
 * 'supervision' and 'both' share one training with the dictionary's links.
 */
async function p1DictRow(lang: string, corpus: { src: string[][]; tgt: string[][] }, o: P1Options): Promise<void> {
  const epochs = o.epochs ?? defaultEpochs(corpus.src.length);
  const { given, entries, held } = splitDictionary(lang);
  const score = (lex: LexiconEntry[]) => scoreP1(best(lex), held, corpus);
  const agree = score(await (await lexiconOf('agree', new Set()))(corpus.src, corpus.tgt, {}, withProgressBar));
  const agreeDict = score(await (await lexiconOf('agree', new Set()))(corpus.src, corpus.tgt, { dict: [given] }, withProgressBar));
  const head = `P@1 ${lang}-en (${corpus.src.length} pairs, ${agree.evaluated} held-out dictionary words, ${entries.length} entries given)`;
  console.log(`${head}: agree ${agree.p1.toFixed(3)} · agree + dict ${agreeDict.p1.toFixed(3)}`);
  const uses = o.dictUses.filter((u): u is DictionaryUse => u !== 'lexicon');
  const rows = new Map<string, number[]>([
    ...(uses.length ? [['bilstm-ctl', []] as [string, number[]]] : []),
    ...uses.map((u): [string, number[]] => [`+ dict ${u}`, []]),
    ...(o.dictUses.includes('lexicon') ? [['mekong lexicon + dict', []] as [string, number[]]] : []),
  ]);
  for (const seed of o.seeds) {
    const t0 = Date.now();
    if (o.dictUses.includes('lexicon')) {
      // the CLI's own path: the default method with its defaults (self-training included)
      const lexicon = await lexiconOf(DEFAULT_LEXICON_METHOD, new Set());
      rows
        .get('mekong lexicon + dict')!
        .push(score(await lexicon(corpus.src, corpus.tgt, { dict: [given], seed: String(seed) }, withProgressBar)).p1);
    }
    const p1 = async (r: NeuralAlignResult, prior: boolean) =>
      score(await neuralLexicon(corpus.src, corpus.tgt, r.embeddings, 1, prior ? entries : undefined)).p1;
    if (uses.length) {
      const plain = await runNeuralMethod('bilstm-ctl', corpus, { epochs, dim: o.dim, seed });
      rows.get('bilstm-ctl')!.push(await p1(plain, false));
      if (uses.includes('prior')) rows.get('+ dict prior')!.push(await p1(plain, true));
    }
    if (uses.some((u) => u !== 'prior')) {
      const sup = await runNeuralMethod(
        'bilstm-ctl',
        { ...corpus, dictionary: entries, dictionaryUse: 'supervision' },
        { epochs, dim: o.dim, seed },
      );
      if (uses.includes('supervision')) rows.get('+ dict supervision')!.push(await p1(sup, false));
      if (uses.includes('both')) rows.get('+ dict both')!.push(await p1(sup, true));
    }
    const line = [...rows].map(([name, xs]) => `${name} ${xs.at(-1)!.toFixed(3)}`).join(' · ');
    console.log(`  seed ${seed} (${epochs} epochs, ${((Date.now() - t0) / 1000).toFixed(0)} s): ${line}`);
  }
  const summary = [...rows].map(([name, xs]) => `${name} ${meanSd(xs)}`).join(' · ');
  console.log(
    `  ${lang}-en ${corpus.src.length} pairs over seeds ${o.seeds.join(', ')}: agree ${agree.p1.toFixed(3)} · agree + dict ${agreeDict.p1.toFixed(3)} · ${summary}`,
  );
}

async function p1Row(lang: string, corpus: { src: string[][]; tgt: string[][] }, o: P1Options): Promise<void> {
  const { dim, seeds } = o;
  const selfTrainEpochs = o.selfTrainEpochs ?? defaultSelfTrainEpochs(corpus.src.length);
  const epochs = o.epochs ?? defaultEpochs(corpus.src.length);
  const dict = parseDictionary(readFileSync(join(DATA, 'muse-dicts', `${P1_LANGS[lang]}-en.txt`), 'utf8'), lang);
  const statP1 = async (method: string) =>
    scoreP1(best(await (await lexiconOf(method, new Set()))(corpus.src, corpus.tgt, {}, withProgressBar)), dict, corpus);
  const stat = await statP1('agree');
  const seed003: string[] = [];
  for (const m of SEED_003_BASELINES) seed003.push(`${m} ${(await statP1(m)).p1.toFixed(3)}`);
  console.log(
    `P@1 ${lang}-en (${corpus.src.length} pairs, ${stat.evaluated} words): agree ${stat.p1.toFixed(3)} · seed 003's baselines: ${seed003.join(' · ')}`,
  );
  const p1 = async (r: NeuralAlignResult, weight?: number) =>
    scoreP1(best(await neuralLexicon(corpus.src, corpus.tgt, r.embeddings, 1, undefined, weight)), dict, corpus).p1;
  const rows = new Map<string, number[]>([
    ['bilstm-ctl', []],
    ['neural tables alone', []],
  ]);
  if (selfTrainEpochs) rows.set(`+ ${selfTrainEpochs} self-training epochs`, []);
  for (const seed of seeds) {
    const t0 = Date.now();
    const r = await runNeuralMethod('bilstm-ctl', corpus, { epochs, dim, seed });
    rows.get('bilstm-ctl')!.push(await p1(r));
    rows.get('neural tables alone')!.push(await p1(r, 0));
    let time = `${epochs} epochs, ${((Date.now() - t0) / 1000).toFixed(0)} s`;
    if (selfTrainEpochs) {
      const t1 = Date.now();
      rows
        .get(`+ ${selfTrainEpochs} self-training epochs`)!
        .push(await p1(await runNeuralMethod('bilstm-ctl', { ...corpus, selfTrainEpochs }, { epochs, dim, seed })));
      time += `, training again with self-training ${((Date.now() - t1) / 1000).toFixed(0)} s`;
    }
    const line = [...rows].map(([name, xs]) => `${name} ${xs.at(-1)!.toFixed(3)}`).join(' · ');
    console.log(`  ${lang}-en ${corpus.src.length} pairs, seed ${seed} (${time}): agree ${stat.p1.toFixed(3)} · ${line}`);
  }
  if (seeds.length > 1) {
    const summary = [...rows].map(([name, xs]) => `${name} ${meanSd(xs)}${aboveAgree(xs, stat.p1) ? ' (above agree)' : ''}`).join(' · ');
    console.log(`  ${lang}-en ${corpus.src.length} pairs over seeds ${seeds.join(', ')}: agree ${stat.p1.toFixed(3)} · ${summary}`);
  }
}

/** --growth: the second half of a set arrives after a model was trained on the first. */
async function growth(name: string, epochsGiven: number | undefined, dim: number): Promise<void> {
  const { src, tgt, gold } = load(name);
  const n = Math.floor(src.length / 2);
  const aerOfSecondHalf = async (m: NeuralModel) => aer(extractLinks(src, tgt, await embedPairs(m, src, tgt)), gold, n);
  const before = (m: NeuralModel): NeuralModel => ({ ...m, vocab: { ...m.vocab, subwordModel: undefined } });
  const t0 = Date.now();
  const epochs = epochsGiven ?? defaultEpochs(n);
  const first = await trainNeural({ src: src.slice(0, n), tgt: tgt.slice(0, n) }, { epochs, dim });
  const more = Math.max(1, Math.round(epochs / 4));
  const grown = await trainNeural({ src, tgt }, { epochs: more, dim }, {}, first);
  const kept = await trainNeural({ src, tgt }, { epochs: more, dim }, {}, before(first));
  const scratch = await trainNeural({ src, tgt }, { epochs, dim });
  console.log(
    `growth ${name}: trained on the first ${n} pairs (${epochs} epochs), AER on the other ${src.length - n}: ` +
      `as it stands ${await aerOfSecondHalf(first)} (words it lacks ignored, as before: ${await aerOfSecondHalf(before(first))}) · ` +
      `continued ${more} epochs on all, vocabulary grown ${await aerOfSecondHalf(grown)} (source words ${first.dims.srcVocab} → ${grown.dims.srcVocab}), ` +
      `kept ${await aerOfSecondHalf(before(kept))} · from scratch on all ${await aerOfSecondHalf(scratch)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
}

/** The best [n×n]·[n×n] rate of ORT here, n = 1024 and 2048 (GFLOP/s), as the nn bench measures it. */
async function matmulPeak(): Promise<number> {
  let best = 0;
  for (const n of [1024, 2048]) {
    const mm = await matmulJob(n);
    const [t] = await interleaved([mm.run], n === 1024 ? 16 : 8);
    best = Math.max(best, gflops(mm.flops, t.best));
    await mm.release();
  }
  return best;
}

/** Steady steps: their count, time from one step's end to the next's, MatMul FLOPs, the Trainer's session runs and host updates within that time, and the process's CPU time over it (all threads). */
interface Steady {
  steps: number;
  ms: number;
  flops: number;
  run: number;
  update: number;
  cpu: number;
}
const noSteps = (): Steady => ({ steps: 0, ms: 0, flops: 0, run: 0, update: 0, cpu: 0 });

/** The process's CPU time so far, all threads, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function addStep(x: Steady, ms: number, flops: number, split: { run: number; update: number }, cpu: number): void {
  x.steps++;
  x.ms += ms;
  x.flops += flops;
  x.run += split.run;
  x.update += split.update;
  x.cpu += cpu;
}

/** Steps' MatMul FLOPs over their time, as a share of `peak`, and where a step's time went. */
function shareLine(x: Steady, peak: number): string {
  const achieved = gflops(x.flops, x.ms);
  const each = (ms: number) => `${(ms / x.steps).toFixed(0)} ms`;
  return (
    `${(x.flops / x.steps / 1e9).toFixed(2)} GFLOP each (MatMul/Gemm, forward and backward), ` +
    `${each(x.ms)} each (session run ${each(x.run)}, at ${gflops(x.flops, x.run).toFixed(1)} GFLOP/s; host AdamW ${each(x.update)}; batches and feeds ${each(x.ms - x.run - x.update)}): ` +
    `${achieved.toFixed(1)} GFLOP/s = ${((100 * achieved) / peak).toFixed(0)}% of the MatMul peak ${peak.toFixed(1)} GFLOP/s measured in this run ` +
    `(both on ${defaultCpuThreads()} intra-op threads, the sessions' default here; the steps' CPU time ${(x.cpu / x.ms).toFixed(2)}× their wall time)`
  );
}

/**
 * Encoder fine-tuning steps on a BERT-base shape at each length in `seqs`: sentences of eight
 * sample sentences joined, cut to the length (whole words), gold links on their first words;
 * the first step (ORT's first run) is left out of the share.
 */
async function encoderSpeed(seqs: number[], vocab: number, peak: number, steps = 3): Promise<void> {
  const B = 4;
  const pairs = B * (steps + 1);
  const dir = mkdtempSync(join(tmpdir(), 'mekong-neural-bench-'));
  try {
    const encoder = join(dir, 'base');
    writeTinyBert(encoder, { layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabRows: vocab, positions: 512 });
    const sample = samplePairs(8 * pairs);
    const joined = (side: string[][]) => Array.from({ length: pairs }, (_, k) => side.slice(8 * k, 8 * k + 8).flat());
    const src = joined(sample.src),
      tgt = joined(sample.tgt);
    const gold = src.map(() => Array.from({ length: 8 }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null })));
    for (const seq of seqs) {
      const steady = noSteps();
      let lastEnd = 0;
      let lastCpu = 0;
      const r = await finetuneEncoder({
        encoder,
        src,
        tgt,
        gold,
        out: join(dir, `out-${seq}`),
        batch: B,
        maxLength: seq,
        epochs: 1,
        device: 'cpu',
        log: () => {},
        onFlops: (step, flops, split) => {
          const now = performance.now();
          const cpu = cpuMs();
          if (step > 0) addStep(steady, now - lastEnd, flops(), split, cpu - lastCpu);
          lastEnd = performance.now();
          lastCpu = cpuMs();
        },
      });
      console.log(
        `speed: encoder fine-tuning, BERT-base shape (${vocab} vocabulary rows), batch ${B}, sentences cut to ${seq} subwords (longest fed ${r.subwords.longest}), ` +
          `${steady.steps} steps after the first: ${shareLine(steady, peak)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bilstm-ctl's training speed on the first `pairs` pairs of uniq39k; returns the MatMul peak it measured. */
async function speed(pairs: number, epochs: number, dim: number): Promise<number> {
  const side = (x: string) =>
    readFileSync(join(DATA, 'bench-corpora', `uniq39k.${x}`), 'utf8')
      .split('\n')
      .slice(0, pairs)
      .map(tokens);
  const src = side('en'),
    tgt = side('de');
  const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const rss = () => process.memoryUsage.rss();
  const peakBefore = await matmulPeak();
  const before = rss();
  const t0 = performance.now();
  let firstStep = 0;
  let peakInSteps = 0;
  const buckets: string[] = [];
  // The share of the MatMul peak: each step's MatMul FLOPs (counted outside its time) over
  // the time from the previous step's end, for the steps after the last session was built
  // (builds run between the first epoch's steps and would be charged to them).
  // Each epoch's seconds too: the first carries the session builds.
  const epochEnds: number[] = [];
  let lastBuilt = t0;
  let lastEnd = t0;
  let lastCpu = cpuMs();
  let counting = 0;
  const steady = noSteps();
  const model = await trainNeural(
    { src, tgt },
    { epochs, dim },
    {
      onFlops: (step, flops, split) => {
        const now = performance.now();
        const cpu = cpuMs();
        if (step === 0) firstStep = (now - t0) / 1000;
        peakInSteps = Math.max(peakInSteps, rss());
        if (lastEnd >= lastBuilt && step > 0) addStep(steady, now - lastEnd, flops(), split, cpu - lastCpu);
        lastEnd = performance.now();
        lastCpu = cpuMs();
        counting += lastEnd - now;
      },
      onEvent: (e) => void (e.type === 'epoch' && epochEnds.push(performance.now() - counting)),
      onBucket: (T, ms) => {
        lastBuilt = performance.now();
        buckets.push(`T ${T} built in ${(ms / 1000).toFixed(1)} s, RSS then ${mb(rss())}`);
      },
    },
  );
  const s = (performance.now() - t0 - counting) / 1000;
  console.log(
    `speed: bilstm-ctl training, ${src.length} en-de pairs x ${epochs} epochs, dim ${dim}: ${s.toFixed(0)} s (${(s / epochs).toFixed(1)} s an epoch), first step done after ${firstStep.toFixed(1)} s`,
  );
  const epochSeconds = epochEnds.map((end, e) => ((end - (e ? epochEnds[e - 1] : t0)) / 1000).toFixed(1));
  console.log(`speed: seconds per epoch (the first builds the buckets' sessions): ${epochSeconds.join(', ')}`);
  const peakAfter = await matmulPeak();
  const peak = Math.max(peakBefore, peakAfter);
  const other = peak === peakBefore ? `after the training ${peakAfter.toFixed(1)}` : `before the training ${peakBefore.toFixed(1)}`;
  console.log(
    `speed: steps after the last session build: ${steady.steps}, ${shareLine(steady, peak)}, the higher of the peaks before and after the training (target ≥ 50%; ` +
      `${((100 * gflops(steady.flops, steady.ms)) / Math.min(peakBefore, peakAfter)).toFixed(0)}% of the peak ${other} GFLOP/s)`,
  );
  // Where the memory goes: parameters (and AdamW's two moments, as many floats again each),
  // each bucket's session as it is built (in build order), the peak over the training steps
  // (sessions plus one step's activations), and the process's peak.
  let floats = 0;
  for (const p of model.params.values()) floats += p.data.length;
  console.log(
    `memory (MALLOC_MMAP_THRESHOLD_ ${process.env.MALLOC_MMAP_THRESHOLD_ ?? 'unset'}, GLIBC_TUNABLES ${process.env.GLIBC_TUNABLES ?? 'unset'}): before training ${mb(before)} · vocabulary ${model.dims.srcVocab} + ${model.dims.tgtVocab} words, ${model.dims.subwords} subwords · ` +
      `parameters ${mb(floats * 4)} + AdamW moments ${mb(floats * 8)} · peak during steps ${mb(peakInSteps)} · process peak ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
  for (const b of buckets) console.log(`  ${b}`);
  return peak;
}

export default async function bench(args: string[]): Promise<void> {
  if (!existsSync(GOLD)) return console.log('neural bench: ../shared/data/std-gold-align missing, skipped');
  const o = benchOptions('neural', args, {
    epochs: { type: 'string' },
    sets: { type: 'string', default: 'zh-en,ro-en' },
    loop: { type: 'string', default: '50,100,200' },
    dim: { type: 'string', default: '128' },
    p1: { type: 'string', default: 'vie,ind,cmn,tha' },
    'self-train': { type: 'string' },
    seeds: { type: 'string', default: '1' },
    speed: { type: 'string', default: '0' },
    growth: { type: 'string', default: '' },
    pairs: { type: 'string', default: '' },
    dict: { type: 'string', default: '' },
    'encoder-seq': { type: 'string', default: '32,128' },
    'encoder-vocab': { type: 'string', default: '30522' },
  });
  if (!o) return;
  const epochs = numberOption('epochs', o.epochs);
  const dim = numberOption('dim', o.dim)!;
  const loop = numberList('loop', o.loop);
  const speedPairs = numberOption('speed', o.speed)!;
  if (speedPairs > 0) {
    const peak = await speed(speedPairs, epochs ?? DEFAULT_CONFIG.epochs, dim);
    await encoderSpeed(numberList('encoder-seq', o['encoder-seq']), numberOption('encoder-vocab', o['encoder-vocab'])!, peak);
  }
  await p1Table(listOption(o.p1), numberList('pairs', o.pairs), {
    epochs,
    dim,
    selfTrainEpochs: o['self-train'] === '' ? undefined : numberOption('self-train', o['self-train']),
    seeds: numberList('seeds', o.seeds),
    dictUses: listOption(o.dict) as (DictionaryUse | 'lexicon')[],
  });
  for (const name of listOption(o.growth)) await growth(name, epochs, dim);
  for (const name of listOption(o.sets)) {
    const { src, tgt, gold } = load(name);
    const stat = await alignCorpus(src, tgt, { method: 'agree' });
    let t0 = Date.now();
    const e = epochs ?? defaultEpochs(src.length);
    const base = await runNeuralMethod('bilstm-ctl', { src, tgt }, { epochs: e, dim });
    console.log(
      `${name} (${src.length} pairs): AER agree ${aer(stat.links, gold)} · bilstm-ctl ${aer(base.links, gold)} (${e} epochs, dim ${dim}, ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
    for (const n of loop.filter((x) => x < src.length)) {
      const links = gold.slice(0, n).map((g) => [...g.sure, ...g.possible].map(([s, t]) => ({ s, t })));
      t0 = Date.now();
      const sup = await runNeuralMethod('bilstm-ctl', { src, tgt, gold: links }, { epochs: e, dim });
      const heldOut = heldOutPairs(links, HELD_OUT_SHARE).flatMap((h, k) => (h ? [k] : []));
      const held = heldOut.length;
      const how = held ? ` (${n - held} trained on, ${held} teach the link decision)` : '';
      console.log(
        `  loop ${n} gold pairs${how}: AER on the other ${src.length - n}: unsupervised ${aer(base.links, gold, n)} · supervised ${aer(sup.links, gold, n)} · agree ${aer(stat.links, gold, n)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
      const rest = Array.from({ length: src.length - n }, (_, i) => n + i);
      if (held) {
        console.log(`    calibration fitted on the ${held} held-out pairs, on the other ${rest.length}:`);
        console.log(`      supervised (learned decision): ${calibrationLine(sup.links, gold, heldOut, rest)}`);
        console.log(`      unsupervised (gdfa decision): ${calibrationLine(base.links, gold, heldOut, rest)}`);
      }
    }
  }
}
