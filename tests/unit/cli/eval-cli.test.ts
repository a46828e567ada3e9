// The sentence-level evaluations end to end through the real `mekong` command, against hand
// computations: `eval retrieval` (Tatoeba's protocol) on a Bi-Sent2Vec model whose vectors are
// set by hand (known neighbours), with a saved siamese head, and on a 2-layer BERT written
// here (the [CLS] state of the last layer, the mean of the words' subwords at a layer);
// `mine --encoder … --margin ratio --no-lexical --ids` and `eval mining --fit-on` (BUCC's
// protocol: the threshold fitted on a train split with known pairs, applied to a test split);
// `eval aer --ignore-possible`; bad arguments as one-line errors.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { trainBisent2vec } from '../../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { saveSiameseHead } from '../../../src/main/models/siamese/siamese-folder.ts';
import { SIAMESE_DEFAULTS } from '../../../src/shared/aligner-defaults.ts';
import { HfEncoder } from '../../../src/main/models/transformer/hf-encoder.ts';
import { samplePairs, writeTinyBert } from '../models/transformer/tiny-encoders.ts';

const dir = tempDir('mekong-eval-cli-');
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const lines = (rows: readonly (readonly (string | number)[])[]) => rows.map((r) => r.join('\t') + '\n').join('');

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const rad = (deg: number) => (deg * Math.PI) / 180;
const cos = (a: number, b: number) => Math.cos(rad(a - b));

/**
 * A Bi-Sent2Vec model folder whose one-word sentences have the vectors asked for: each word's
 * row of V set to the unit vector at its angle (degrees; dim 2, no bigrams, no character
 * n-grams), so a sentence's vector is its word's.
 */
async function handModel(src: Record<string, number>, tgt: Record<string, number>): Promise<string> {
  const s = Object.keys(src),
    t = Object.keys(tgt);
  const n = Math.max(s.length, t.length);
  const pick = (w: string[], k: number) => [w[k % w.length]];
  const { model } = await trainBisent2vec(
    Array.from({ length: n }, (_, k) => pick(s, k)),
    Array.from({ length: n }, (_, k) => pick(t, k)),
    { dim: 2, epochs: 1, minCount: 1, charN: 0, bigrams: false, subsample: 0 },
    { threads: 1 },
  );
  ([src, tgt] as const).forEach((angles, side) =>
    model.index.vocab.words[side].forEach((w, k) => {
      const row = model.index.offsets.words[side] + k;
      model.V.set([Math.cos(rad(angles[w])), Math.sin(rad(angles[w]))], row * 2);
    }),
  );
  const folder = join(dir, 'hand-bisent2vec');
  saveBisent2vec(folder, model);
  return folder;
}

// Retrieval: x at 0°, 40°, 100°, 200° and their translations y at 10°, 75°, 105°, 145°.
//   x0 → y0 (10°) ✓; x1 (40°) → y0 (30°) before y1 (35°) ✗; x2 → y2 (5°) ✓; x3 (200°) → y3 (55°) ✓: P@1 3/4
//   y0 → x0 ✓; y1 (75°) → x2 (25°) before x1 (35°) ✗; y2 → x2 ✓; y3 (145°) → x2 (45°) before x3 (55°) ✗: P@1 2/4
// Mining: train split s0 0°, s1 40°, s2 80° against t0 2°, t1 43°, t2 70°; test split u 5°, 45°, 85° against v 8°, 75°, 86°.
const X = { x0: 0, x1: 40, x2: 100, x3: 200, s0: 0, s1: 40, s2: 80, u0: 5, u1: 45, u2: 85 };
const Y = { y0: 10, y1: 75, y2: 105, y3: 145, t0: 2, t1: 43, t2: 70, v0: 8, v1: 75, v2: 86 };
const modelDir = handModel(X, Y);

test('eval retrieval on vectors with known neighbours: P@1 and P@5 both ways as JSON and as a line', async () => {
  const spec = `bisent2vec:${await modelDir}`;
  const S = write('ret.x', 'x0\nx1\nx2\nx3\n'),
    T = write('ret.y', 'y0\ny1\ny2\ny3\n');
  const r = mekong('eval', 'retrieval', '--src', S, '--tgt', T, '--encoder', spec, '--json');
  expect(r.code, r.err).toBe(0);
  expect(JSON.parse(r.out)).toEqual({ p1: { src_tgt: 0.75, tgt_src: 0.5 }, p5: { src_tgt: 1, tgt_src: 1 }, pairs: 4 });
  const line = mekong('eval', 'retrieval', '--src', S, '--tgt', T, '--encoder', spec);
  expect(line.out).toBe(`src→tgt P@1 0.750 P@5 1.000, tgt→src P@1 0.500 P@5 1.000 over 4 pairs (${spec})\n`);
}, 180_000);

/** P@N both ways of unit-normalised rows by brute force: the rank of the right answer among all cosines (ties to the lower index). */
function byHand(x: Float32Array[], y: Float32Array[], N: number): { src_tgt: number; tgt_src: number } {
  const unit = (v: Float32Array) => {
    const n = Math.hypot(...v);
    return Array.from(v, (a) => a / n);
  };
  const [ux, uy] = [x.map(unit), y.map(unit)];
  const dot = (a: number[], b: number[]) => a.reduce((s, v, t) => s + v * b[t], 0);
  const share = (from: number[][], to: number[][]) =>
    from.filter((f, i) => {
      const right = dot(f, to[i]);
      const better = to.filter((g, j) => dot(f, g) > right || (dot(f, g) === right && j < i)).length;
      return better < N;
    }).length / from.length;
  return { src_tgt: share(ux, uy), tgt_src: share(uy, ux) };
}

test('eval retrieval --head applies a saved siamese head (its encoder the default), by hand', async () => {
  // An identity head leaves the head's own normalisation: unit, minus the side's mean, unit. Centred, x sits at about
  // −21°, 28°, 117°, 211° and y at −28°, 54°, 135°, 186°: every sentence's nearest is its translation, P@1 1 both ways
  // (0.75 and 0.5 without the head).
  const spec = `bisent2vec:${await modelDir}`;
  const head = join(dir, 'head');
  const eye = Float32Array.from([1, 0, 0, 1]);
  saveSiameseHead(head, { head: { dim: 2, weight: eye, bias: new Float32Array(2) }, encoder: spec, config: SIAMESE_DEFAULTS });
  const S = write('ret.x', 'x0\nx1\nx2\nx3\n'),
    T = write('ret.y', 'y0\ny1\ny2\ny3\n');
  const r = mekong('eval', 'retrieval', '--src', S, '--tgt', T, '--head', head, '--json');
  expect(r.code, r.err).toBe(0);
  const centred = (angles: number[]) => {
    const v = angles.map((a) => [Math.cos(rad(a)), Math.sin(rad(a))]);
    const mean = [0, 1].map((t) => v.reduce((s, row) => s + row[t], 0) / v.length);
    return v.map((row) => Float32Array.from(row, (c, t) => c - mean[t]));
  };
  const [x, y] = [centred([0, 40, 100, 200]), centred([10, 75, 105, 145])];
  expect(byHand(x, y, 1)).toEqual({ src_tgt: 1, tgt_src: 1 });
  expect(JSON.parse(r.out)).toEqual({ p1: byHand(x, y, 1), p5: { src_tgt: 1, tgt_src: 1 }, pairs: 4 });
}, 180_000);

test('eval retrieval on a 2-layer BERT: --pooling cls is the last layer’s [CLS] row, --pooling mean --layer 1 the mean of the words’ subwords', async () => {
  const bert = join(dir, 'bert');
  writeTinyBert(bert, { layers: 2 });
  const pairs = samplePairs(12);
  const S = write('bert.src', pairs.src.map((s) => s.join(' ') + '\n').join('')),
    T = write('bert.tgt', pairs.tgt.map((s) => s.join(' ') + '\n').join(''));
  // by hand: the hidden states of every sentence (source side language 0, target side 1), pooled here
  const enc = HfEncoder.open(bert, { log: () => {} });
  const D = enc.config.hidden;
  const states = async (side: 0 | 1, sentences: string[][]) => {
    const encoded = enc.encode(sentences);
    const [last, first] = await enc.hiddenStates(
      encoded,
      [2, 1],
      undefined,
      encoded.map(() => side),
    );
    const cls = last.map((h) => h.slice(0, D));
    const mean = first.map((h, k) => {
      const rows = [...encoded[k].wordOf.keys()].filter((t) => encoded[k].wordOf[t] >= 0);
      return Float32Array.from({ length: D }, (_, d) => rows.reduce((a, r) => a + h[r * D + d], 0) / rows.length);
    });
    return { cls, mean };
  };
  const [hx, hy] = [await states(0, pairs.src), await states(1, pairs.tgt)];
  await enc.release();
  for (const [pooling, layer, x, y] of [
    ['cls', [], hx.cls, hy.cls],
    ['mean', ['--layer', '1'], hx.mean, hy.mean],
  ] as const) {
    const r = mekong('eval', 'retrieval', '--src', S, '--tgt', T, '--encoder', `hf:${bert}`, '--pooling', pooling, ...layer, '--json');
    expect(r.code, r.err).toBe(0);
    const got = JSON.parse(r.out);
    const want = { p1: byHand(x, y, 1), p5: byHand(x, y, 5), pairs: 12 };
    console.log(`tiny BERT --pooling ${pooling}: ${r.out.trim()}`);
    expect(got.pairs).toBe(12);
    for (const p of ['p1', 'p5'] as const)
      for (const dir of ['src_tgt', 'tgt_src'] as const) expect(got[p][dir]).toBeCloseTo(want[p][dir], 12);
  }
  // the two poolings read different vectors: they disagree somewhere
  expect(byHand(hx.cls, hy.cls, 1)).not.toEqual(byHand(hx.mean, hy.mean, 1));
}, 300_000);

/** Seed 001's ratio margin of (x_i, y_j) with k = 4 ≥ the candidates: each sentence's r is the mean cosine to all of the other side. */
function ratio(xs: number[], ys: number[], i: number, j: number): number {
  const rx = ys.reduce((a, y) => a + cos(xs[i], y), 0) / ys.length;
  const ry = xs.reduce((a, x) => a + cos(x, ys[j]), 0) / xs.length;
  return cos(xs[i], ys[j]) / ((rx + ry) / 2);
}

test('mine --encoder --margin ratio --no-lexical --ids, then eval mining --fit-on: BUCC’s protocol by hand', async () => {
  const spec = `bisent2vec:${await modelDir}`;
  const split = (name: string, src: string[], tgt: string[]) => {
    const S = write(`${name}.src`, lines(src.map((w, k) => [`${name}-s${k}`, w]))),
      T = write(`${name}.tgt`, lines(tgt.map((w, k) => [`${name}-t${k}`, w])));
    const out = join(dir, `${name}.pred`);
    const r = mekong('mine', '--src', S, '--tgt', T, '--ids', '--encoder', spec, '--margin', 'ratio', '--no-lexical', '--out', out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('3 pairs proposed (3 × 3 sentences, no threshold: every proposed pair kept)');
    return out;
  };
  const train = split('train', ['s0', 's1', 's2'], ['t0', 't1', 't2']);
  const test = split('test', ['u0', 'u1', 'u2'], ['v0', 'v1', 'v2']);
  // each sentence's best by the ratio is its diagonal partner; the scores by hand
  const [xs, ys, us, vs] = [
    [0, 40, 80],
    [2, 43, 70],
    [5, 45, 85],
    [8, 75, 86],
  ];
  const expected = (name: string, a: number[], b: number[]) =>
    lines([0, 1, 2].map((k) => [`${name}-s${k}`, `${name}-t${k}`, ratio(a, b, k, k).toFixed(4)]));
  expect(readFileSync(train, 'utf8')).toBe(expected('train', xs, ys));
  expect(readFileSync(test, 'utf8')).toBe(expected('test', us, vs));
  // train: the middle pair is not a translation (gold s0–t0, s2–t2); its ratio (1.1564) is the lowest, the others 1.4740 and
  // 1.4122: the threshold of best F1 (1) is between 1.1564 and 1.4122.
  const [r0, r1, r2] = [0, 1, 2].map((k) => Number(ratio(xs, ys, k, k).toFixed(4)));
  expect(r1).toBeLessThan(Math.min(r0, r2));
  const trainGold = write(
    'train.gold',
    lines([
      ['train-s0', 'train-t0'],
      ['train-s2', 'train-t2'],
    ]),
  );
  // test: all three are gold; the middle one (ratio 1.1266) falls under the threshold: P 1, R 2/3, F1 0.8
  const testGold = write('test.gold', lines([0, 1, 2].map((k) => [`test-s${k}`, `test-t${k}`])));
  const r = mekong('eval', 'mining', '--pred', test, '--gold', testGold, '--fit-on', train, trainGold, '--json');
  expect(r.code, r.err).toBe(0);
  const s = JSON.parse(r.out);
  expect(s.threshold).toBeCloseTo((r1 + Math.min(r0, r2)) / 2, 12);
  expect(s.fit).toEqual({ threshold: s.threshold, precision: 1, recall: 1, f1: 1 });
  expect(s).toMatchObject({ proposed: 2, correct: 2, gold: 3, precision: 1 });
  expect(s.recall).toBeCloseTo(2 / 3, 12);
  expect(s.f1).toBeCloseTo(0.8, 12);
  // without a threshold every proposed pair counts
  const all = mekong('eval', 'mining', '--pred', test, '--gold', testGold);
  expect(all.out).toBe('precision 100.0%  recall 100.0%  F1 100.0%  (3 of 3 pairs kept are gold; 3 gold pairs)\n');
}, 300_000);

test('eval aer --ignore-possible scores against the sure links alone', () => {
  const gold = write('aer.gold', '0-0 1-1 1p2\n0-1\n'),
    pred = write('aer.pred', '0-0 1-2 2-2\n0-1\n');
  const both = JSON.parse(mekong('eval', 'aer', '--gold', gold, '--pred', pred, '--json').out);
  const sure = JSON.parse(mekong('eval', 'aer', '--gold', gold, '--pred', pred, '--ignore-possible', '--json').out);
  expect(both.precision).toBeCloseTo(3 / 4, 12);
  expect(both.aer).toBeCloseTo(2 / 7, 12);
  expect(sure.precision).toBeCloseTo(2 / 4, 12);
  expect(sure.recall).toBeCloseTo(2 / 3, 12);
  expect(sure.aer).toBeCloseTo(3 / 7, 12);
}, 180_000);

test('bad arguments are one-line errors', async () => {
  const spec = `bisent2vec:${await modelDir}`;
  const S = write('err.x', 'x0\nx1\n'),
    T = write('err.y', 'y0\n');
  const cases: [string[], string][] = [
    [['eval', 'retrieval', '--src', S, '--tgt', T, '--encoder', spec], `${T}:2: has 1 lines but ${S} has 2; line counts must match`],
    [['eval', 'retrieval', '--src', S, '--tgt', S], 'give the sentence encoder: --encoder bisent2vec:DIR, bilstm:DIR, hf:DIR'],
    [['eval', 'retrieval', '--src', S, '--tgt', S, '--encoder', spec, '--pooling', 'cls'], '--pooling and --layer choose a Hugging Face'],
    [
      ['eval', 'retrieval', '--src', S, '--tgt', S, '--encoder', 'w2v:x'],
      '--encoder must be bisent2vec:DIR, bilstm:DIR, hf:DIR; got "w2v:x"',
    ],
    [['eval', 'mining', '--pred', S, '--gold', S, '--fit-on', S], '--fit-on takes two files'],
    [['eval', 'mining', '--pred', S, '--gold', S], `${S}:1: expected src_id<TAB>tgt_id[<TAB>score], got "x0"`],
    [
      ['mine', '--src', S, '--tgt', S, '--encoder', spec, '--margin', 'ratio', '--out', join(dir, 'x')],
      '--margin ratio scores the cosine alone: add --no-lexical',
    ],
    [['mine', '--src', S, '--tgt', S, '--encoder', spec, '--out', join(dir, 'x')], 'the lexical term needs IBM1 tables'],
    [
      ['mine', '--src', S, '--tgt', S, '--model', 'm', '--margin', 'ratio', '--out', join(dir, 'x')],
      '--margin and --no-lexical are options of mining with an --encoder',
    ],
    [
      ['mine', '--src', S, '--tgt', S, '--ids', '--encoder', spec, '--no-lexical', '--out', join(dir, 'x')],
      `${S}:1: expected id<TAB>sentence (--ids)`,
    ],
  ];
  for (const [args, message] of cases) {
    const r = mekong(...args);
    expect(r.code, args.join(' ')).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(message);
  }
}, 300_000);
