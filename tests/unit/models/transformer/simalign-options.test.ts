// SimAlign's settings on the similarity aligners: --token-type bpe (links found between
// subwords, mapped to their words) against word (subwords averaged first) on a tiny BERT whose
// hidden state 0 is set by the test, so the subword similarity matrix and its argmaxes are
// known by hand; null-align (entropies and the corpus-level share) and distortion on matrices
// worked out by hand, and null-align through the encoder; the CLI's options and refusals.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { randomWeights, samplePairs, writeTinyBert } from './tiny-encoders.ts';
import { alignWithEncoder } from '../../../../src/main/models/transformer/encoder-aligner.ts';
import { HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import {
  argmaxLinks,
  nullAlignScores,
  nullAlignThreshold,
  withDistortion,
} from '../../../../src/main/models/transformer/similarity-extraction.ts';
import { writeSafetensors } from '../../../../src/main/nn/safetensors.ts';
import { Tensor } from '../../../../src/main/nn/tensor.ts';

const dir = tempDir();
const pairs = (links: { s: number; t: number }[][]) => links.map((ls) => ls.map((l) => `${l.s}-${l.t}`).join(' '));

test('distortion multiplies each cell by 1 − k·(j/(J−1) − i/(I−1))²', () => {
  // 2 × 3 of ones, k = 0.5: row 0 → 1, 1 − 0.5·0.25, 1 − 0.5·1; row 1 → 1 − 0.5·1, 1 − 0.5·0.25, 1
  const d = withDistortion(new Float64Array(6).fill(1), 2, 3, 0.5);
  expect([...d]).toEqual([1, 0.875, 0.5, 0.5, 0.875, 1]);
  // it moves an argmax toward the diagonal: row 0 = [0.6 0.7]: 0.7·(1 − 0.5) = 0.35 < 0.6
  const sim = Float64Array.of(0.6, 0.7, 0.7, 0.6);
  expect([...argmaxLinks(sim, 2, 2)]).toEqual([0, 1, 1, 0]);
  expect([...argmaxLinks(withDistortion(sim, 2, 2, 0.5), 2, 2)]).toEqual([1, 0, 0, 1]);
  // k = 0 or a side of one word: unchanged
  expect(withDistortion(sim, 2, 2, 0)).toBe(sim);
  expect(withDistortion(Float64Array.of(0.2, 0.9), 1, 2, 1)).toEqual(Float64Array.of(0.2, 0.9));
});

test('null-align scores each cell by the smaller of its row’s and column’s normalised entropy, and removes links above the corpus share', () => {
  // rows [0.9 0.1 0.1] [0.2 0.6 0.2] [0.3 0.3 0.4]; ArgMax links the diagonal.
  // row 0: p = (9, 1, 1)/11, H = −Σ p ln p = 0.600166, / ln 3 → 0.546295
  // row 1: p = (0.2, 0.6, 0.2), H = 0.950271 → 0.864974;  row 2: p = (0.3, 0.3, 0.4), H = 1.088900 → 0.991159
  // col 0: p = (9, 2, 3)/14 → 0.812041;  col 1: p = (1, 6, 3)/10 → 0.817345;  col 2: p = (1, 2, 4)/7 → 0.869916
  // links: 0-0 → min(0.546295, 0.812041) = 0.546295; 1-1 → 0.817345; 2-2 → 0.869916
  const sim = Float64Array.of(0.9, 0.1, 0.1, 0.2, 0.6, 0.2, 0.3, 0.3, 0.4);
  const scores = nullAlignScores(sim, 3, 3)!;
  const diagonal = [scores[0], scores[4], scores[8]];
  [0.546295, 0.817345, 0.869916].forEach((v, k) => expect(diagonal[k]).toBeCloseTo(v, 5));
  expect(scores[1]).toBeCloseTo(Math.min(0.546295, 0.817345), 5);
  // the threshold is the sorted scores' value at ⌊p·n⌋: p = 0.5 → index 1 → 0.817345 (2-2 goes);
  // p = 0.3 → index 0 → 0.546295 (1-1 and 2-2 go); p = 1: nothing goes
  expect(nullAlignThreshold(diagonal, 0.5)).toBeCloseTo(0.817345, 5);
  expect(nullAlignThreshold(diagonal, 0.3)).toBeCloseTo(0.546295, 5);
  expect(nullAlignThreshold(diagonal, 1)).toBe(Infinity);
  // zeros (and NaN) are not gathered, as SimAlign keeps only the positive values
  expect(nullAlignThreshold([0, NaN, 0.4, 0.2], 0.5)).toBe(0.4);
  // a side of two words or fewer: no score, nothing removed
  expect(nullAlignScores(Float64Array.of(1, 0, 0, 1, 0, 1), 2, 3)).toBeNull();
});

/** Unit vector k of a 32-dimensional Walsh basis: zero mean (k ≥ 1), orthogonal to the others, so LayerNorm only rescales it. */
const walsh = (k: number, D: number) => Float32Array.from({ length: D }, (_, d) => (bitCount(k & d) % 2 ? -1 : 1) / Math.sqrt(D));
const bitCount = (x: number) => x.toString(2).replace(/0/g, '').length;

test('--token-type bpe links words through their subwords’ argmaxes; word averages the subwords first (a hand-computed tiny BERT)', async () => {
  const folder = join(dir, 'designed');
  const config = writeTinyBert(folder);
  const D = config.hidden_size as number;
  const vocab = (JSON.parse(readFileSync(join(folder, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } }).model
    .vocab;
  // six characters each in the vocabulary alone and as a continuation (##c)
  const chars = Object.keys(vocab)
    .filter((t) => [...t].length === 1 && vocab[`##${t}`] !== undefined)
    .slice(0, 6);
  expect(chars).toHaveLength(6);
  // source words A = c0c1 (subwords c0 ##c1), B = c2; target X = c3, Y = c4c5 (c4 ##c5)
  const [A, B, X, Y] = [chars[0] + chars[1], chars[2], chars[3], chars[4] + chars[5]];
  const ids = [vocab[chars[0]], vocab[`##${chars[1]}`], vocab[chars[2]], vocab[chars[3]], vocab[chars[4]], vocab[`##${chars[5]}`]];
  // hidden state 0 = LayerNorm(word embedding) once positions and token types are zero:
  // a1 = u1, a2 = u2, b1 = u3 (source); x1 = u1, y1 = u2, y2 = u3 (target)
  const w = randomWeights(config, 7);
  for (const n of ['embeddings.position_embeddings.weight', 'embeddings.token_type_embeddings.weight'])
    (w.get(n)!.data as Float32Array).fill(0);
  (w.get('embeddings.LayerNorm.weight')!.data as Float32Array).fill(1);
  (w.get('embeddings.LayerNorm.bias')!.data as Float32Array).fill(0);
  const we = w.get('embeddings.word_embeddings.weight')!.data as Float32Array;
  [1, 2, 3, 1, 2, 3].forEach((k, r) => we.set(walsh(k, D), ids[r] * D));
  writeSafetensors(join(folder, 'model.safetensors'), w, { format: 'pt' });

  const enc = HfEncoder.open(folder);
  const [es, et] = enc.encode([
    [A, B],
    [X, Y],
  ]);
  expect([...es.ids.slice(1, -1)]).toEqual(ids.slice(0, 3));
  expect([...et.ids.slice(1, -1)]).toEqual(ids.slice(3));
  // subword matrix (cos + 1)/2: rows a1 a2 b1, columns x1 y1 y2 = [1 .5 .5; .5 1 .5; .5 .5 1]:
  // every row's and column's maximum on the diagonal → a1-x1 (A-X), a2-y1 (A-Y), b1-y2 (B-Y)
  // words: A = (u1 + u2)/2, B = u3, X = u1, Y = (u2 + u3)/2 → cos: A·X = 1/√2, A·Y = 1/2, B·X = 0,
  // B·Y = 1/√2 → rows A → X, B → Y; columns X → A, Y → B (0.854 > 0.75) → A-X, B-Y
  for (const method of ['simalign-argmax', 'simalign-itermax', 'simalign-match'] as const) {
    const bpe = await alignWithEncoder(enc, method, [[A, B]], [[X, Y]], { layer: 0, tokenType: 'bpe' });
    const word = await alignWithEncoder(enc, method, [[A, B]], [[X, Y]], { layer: 0, tokenType: 'word' });
    expect(pairs(bpe), method).toEqual(['0-0 0-1 1-1']);
    expect(pairs(word), method).toEqual(['0-0 1-1']);
    // a word link scores its best subword cell's probability: dots 32 on the diagonal, 0 elsewhere → ≈ 1
    for (const l of bpe[0]) expect(l.score!).toBeGreaterThan(0.999);
  }
  // the default stays word (docs/experiments.md 2026-11-28: no pretrained encoder to measure bpe against)
  expect(pairs(await alignWithEncoder(enc, 'simalign-argmax', [[A, B]], [[X, Y]], { layer: 0 }))).toEqual(['0-0 1-1']);
  await enc.release();
});

test('null-align through the encoder removes, over the whole corpus, the links above the share p of their sorted scores', async () => {
  const folder = join(dir, 'random');
  writeTinyBert(folder, { seed: 5 });
  const { src, tgt } = samplePairs(10);
  const enc = HfEncoder.open(folder);
  const o = { layer: 2, tokenType: 'word' as const };
  const all = await alignWithEncoder(enc, 'simalign-argmax', src, tgt, o);
  const kept = await alignWithEncoder(enc, 'simalign-argmax', src, tgt, { ...o, nullAlign: 0.5 });
  // the kept links are some of the links
  const key = (k: number, l: { s: number; t: number }) => `${k}:${l.s}-${l.t}`;
  const before = new Set(all.flatMap((ls, k) => ls.map((l) => key(k, l))));
  const after = kept.flatMap((ls, k) => ls.map((l) => key(k, l)));
  for (const x of after) expect(before.has(x)).toBe(true);
  // word-level ArgMax: one cell per link; every pair here has more than two words a side, so
  // all n links are scored and ⌊0.5·n⌋ + 1 of them (those at or below the threshold) stay
  expect(src.every((s, k) => Math.min(s.length, tgt[k].length) > 2)).toBe(true);
  expect(after.length).toBe(Math.floor(0.5 * before.size) + 1);
  // across pairs, not per pair: some pair loses more than half of its links and another fewer
  const lost = all.map((ls, k) => ls.length - kept[k].length);
  const shares = lost.map((x, k) => x / all[k].length);
  expect(Math.max(...shares)).toBeGreaterThan(0.5);
  expect(Math.min(...shares)).toBeLessThan(0.5);
  await enc.release();
});

test('mekong align takes --token-type, --null-align and --distortion for the SimAlign methods and refuses them elsewhere', () => {
  const folder = join(dir, 'cli');
  writeTinyBert(folder);
  const { src, tgt } = samplePairs(4);
  const S = join(dir, 'cli.lo'),
    T = join(dir, 'cli.th'),
    out = join(dir, 'cli.out');
  writeFileSync(S, src.map((s) => s.join(' ') + '\n').join(''));
  writeFileSync(T, tgt.map((s) => s.join(' ') + '\n').join(''));
  const mekong = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['bin/mekong.js', 'align', '--src', S, '--tgt', T, '--out', out, ...args], {
      encoding: 'utf8',
    });
    return { code: r.status, err: r.stderr.trim() };
  };
  const ok = mekong(
    '--encoder',
    folder,
    '--method',
    'simalign-itermax',
    '--token-type',
    'bpe',
    '--null-align',
    '0.9',
    '--distortion',
    '0.5',
  );
  expect(ok.err).toBe('');
  expect(ok.code).toBe(0);
  expect(readFileSync(out, 'utf8').split('\n').slice(0, -1)).toHaveLength(4);
  const refusals: [string[], RegExp][] = [
    [
      ['--encoder', folder, '--method', 'awesome', '--null-align', '0.5'],
      /^--null-align is read by the SimAlign methods only .* not awesome$/,
    ],
    [
      ['--encoder', folder, '--method', 'simalign-argmax', '--distortion', '2'],
      /^--distortion must be a number in \[0, 1\] \(0: none\), got "2"$/,
    ],
    [['--encoder', folder, '--method', 'simalign-argmax', '--null-align', 'x'], /^--null-align must be a share in \[0, 1\]/],
    [['--encoder', folder, '--method', 'simalign-argmax', '--token-type', 'char'], /--token-type.*char.*(bpe|choices)/],
    [['--method', 'hmm', '--token-type', 'bpe'], /^--token-type is for/],
  ];
  for (const [args, error] of refusals) {
    const r = mekong(...args);
    expect(r.code, args.join(' ')).not.toBe(0);
    expect(r.err.split('\n'), args.join(' ')).toHaveLength(1);
    expect(r.err.replace(/^error: /, '').replace(/^mekong: /, ''), args.join(' ')).toMatch(error);
  }
});
