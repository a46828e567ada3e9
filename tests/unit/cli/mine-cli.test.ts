// `mekong mine` (cli/mine.ts), `mekong lexicon --method bisent2vec` read by `mekong eval p1`,
// and `mekong align --method bisent2vec` refused, end to end on real files in a temporary
// folder (training on one thread, so that a run is repeatable): a generated parallel corpus (tests/unit/models/bilstm/synthetic.ts) to train on, and 40
// of its pairs hidden among 40 lone sentences per side to mine back.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { syntheticCorpus } from '../models/bilstm/synthetic.ts';
import { loadBisent2vec } from '../../../src/main/models/bisent2vec/bisent2vec-folder.ts';

const dir = tempDir();
const corpus = syntheticCorpus(1320, 60, 11);
const file = (name: string, lines: string[][]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.map((s) => s.join(' ') + '\n').join(''));
  return p;
};
const A = file('train.src', corpus.src.slice(0, 1200)),
  B = file('train.tgt', corpus.tgt.slice(0, 1200));
// S: pairs 1200–1239 (sources) then lone sources 1240–1279; T: lone targets 1280–1319 and the 40 targets, shuffled.
const rng = new Rng(4);
const tOrder = rng.shuffle(Array.from({ length: 80 }, (_, k) => k));
const tLines = tOrder.map((k) => (k < 40 ? corpus.tgt[1200 + k] : corpus.tgt[1240 + k]));
const S = file('mono.src', corpus.src.slice(1200, 1280)),
  T = file('mono.tgt', tLines);
/** The true target line of source line i (< 40). */
const truth = new Map(tOrder.map((k, line): [number, number] => [k, line]).filter(([k]) => k < 40));

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function readPairs(p: string): { i: number; j: number; score: number }[] {
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [i, j, score] = l.split('\t');
      return { i: Number(i), j: Number(j), score: Number(score) };
    });
}

test('mine: train on A/B with the held-out threshold, save the model, mine again with it', () => {
  const out = join(dir, 'mined.tsv'),
    model = join(dir, 'model');
  const r = mekong(
    'mine',
    '--src',
    S,
    '--tgt',
    T,
    '--train-src',
    A,
    '--train-tgt',
    B,
    '--out',
    out,
    '--save-model',
    model,
    '--threads',
    '1',
  );
  expect(r.code, r.err).toBe(0);
  expect(r.err).toMatch(/threshold [\d.]+ from 120 held-out pairs/);
  const pairs = readPairs(out);
  expect(new Set(pairs.map((p) => p.i)).size).toBe(pairs.length);
  expect(new Set(pairs.map((p) => p.j)).size).toBe(pairs.length);
  for (const p of pairs) expect(p.i >= 0 && p.i < 80 && p.j >= 0 && p.j < 80 && Number.isFinite(p.score)).toBe(true);
  const right = pairs.filter((p) => truth.get(p.i) === p.j).length;
  expect(right / pairs.length).toBeGreaterThanOrEqual(0.8);
  expect(right / 40).toBeGreaterThanOrEqual(0.8);

  const again = join(dir, 'again.tsv');
  expect(mekong('mine', '--src', S, '--tgt', T, '--model', model, '--out', again).code).toBe(0);
  expect(readFileSync(again, 'utf8')).toBe(readFileSync(out, 'utf8'));
  const none = join(dir, 'none.tsv');
  expect(mekong('mine', '--src', S, '--tgt', T, '--model', model, '--out', none, '--threshold', '100').code).toBe(0);
  expect(readFileSync(none, 'utf8')).toBe('');
}, 60_000);

test("mine: seed 002's training flags reach the saved model (dimension, seed, counts, n-grams, tf-idf)", () => {
  const train = (name: string, ...flags: string[]) => {
    const model = join(dir, name);
    const t = mekong(
      'mine',
      '--src',
      S,
      '--tgt',
      T,
      '--train-src',
      A,
      '--train-tgt',
      B,
      '--out',
      join(dir, `${name}.tsv`),
      '--save-model',
      model,
      '--threshold',
      '0',
      '--threads',
      '1',
      '--epochs',
      '1',
      ...flags,
    );
    expect(t.code, t.err).toBe(0);
    return loadBisent2vec(model);
  };
  const a = train(
    'flags-a',
    '--dim',
    '16',
    '--seed',
    '2',
    '--min-count',
    '2',
    '--char-n',
    '0',
    '--bigrams',
    '--tfidf',
    '--subsample',
    '1e-3',
    '--negatives',
    '3',
    '--lr',
    '0.1',
  );
  expect(a.config).toMatchObject({
    dim: 16,
    seed: 2,
    minCount: 2,
    charN: 0,
    bigrams: true,
    tfidf: true,
    subsample: 1e-3,
    negatives: 3,
    lr: 0.1,
    epochs: 1,
  });
  expect(a.V.length).toBe(a.index.rows * 16);
  expect(a.index.rows).toBeGreaterThan(a.index.wordRows); // the bigrams' rows follow the words'
  const b = train(
    'flags-b',
    '--dim',
    '16',
    '--seed',
    '3',
    '--min-count',
    '2',
    '--char-n',
    '0',
    '--bigrams',
    '--tfidf',
    '--subsample',
    '1e-3',
    '--negatives',
    '3',
    '--lr',
    '0.1',
  );
  expect(b.index.rows).toBe(a.index.rows);
  expect(b.V).not.toEqual(a.V);
  const plain = train('flags-c', '--dim', '16', '--seed', '2', '--min-count', '2', '--char-n', '0');
  expect(plain.index.rows).toBe(plain.index.wordRows);
  expect(plain.config.tfidf).toBe(false);
}, 120_000);

test('mine: bad arguments are one-line errors', () => {
  const out = join(dir, 'x.tsv');
  for (const [args, message] of [
    [['--src', S, '--tgt', T, '--out', out], /give a parallel corpus to train on/],
    [['--src', S, '--tgt', T, '--out', out, '--train-src', A], /give a parallel corpus to train on/],
    [
      ['--src', S, '--tgt', T, '--out', out, '--train-src', A, '--train-tgt', B, '--threshold', 'high'],
      /--threshold must be a number, got "high"/,
    ],
    [['--src', S, '--tgt', T, '--out', out, '--train-src', A, '--train-tgt', S], /has 80 lines but .* has 1200/],
    [['--src', join(dir, 'missing'), '--tgt', T, '--out', out, '--model', dir], /missing: cannot read/],
    [['--src', S, '--tgt', T, '--out', out, '--train-src', A, '--train-tgt', B, '--dim', '0'], /--dim must be a positive integer, got "0"/],
    [
      ['--src', S, '--tgt', T, '--out', out, '--model', dir, '--tfidf'],
      /--tfidf is for training \(--train-src\/--train-tgt\), not for a saved --model/,
    ],
    [
      ['--src', S, '--tgt', T, '--out', out, '--encoder', `bisent2vec:${dir}`, '--no-lexical', '--seed', '2'],
      /--seed is for the Bi-Sent2Vec model mine trains or loads, not for an --encoder/,
    ],
  ] as const) {
    const r = mekong('mine', ...args);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }
}, 120_000);

test('lexicon --method bisent2vec feeds eval p1; align --method bisent2vec is refused in one line', () => {
  const lexicon = join(dir, 'lexicon.tsv'),
    dict = join(dir, 'dict.tsv');
  writeFileSync(dict, [...corpus.translation].map(([s, t]) => `${s}\t${t}\n`).join(''));
  const r = mekong('lexicon', '--src', A, '--tgt', B, '--out', lexicon, '--method', 'bisent2vec', '--epochs', '10');
  expect(r.code, r.err).toBe(0);
  const lines = readFileSync(lexicon, 'utf8').split('\n').filter(Boolean);
  const perWord = new Map<string, number>();
  for (const l of lines) {
    const [s, , score] = l.split('\t');
    expect(Number.isFinite(Number(score))).toBe(true);
    perWord.set(s, (perWord.get(s) ?? 0) + 1);
  }
  expect(Math.max(...perWord.values())).toBe(5);
  const p1 = mekong('eval', 'p1', '--lexicon', lexicon, '--dict', dict);
  expect(p1.code, p1.err).toBe(0);
  expect(JSON.parse(p1.out).p1).toBeGreaterThanOrEqual(0.8);

  const a = mekong('align', '--src', A, '--tgt', B, '--out', join(dir, 'links'), '--method', 'bisent2vec');
  expect(a.code).toBe(1);
  expect(a.err).toMatch(/^mekong: bisent2vec learns word and sentence vectors, not word links: align with agree, .*\n$/);
});
