// Seed 002's word- and sentence-level settings on the command line and in the model:
//   - the vocabulary cap (`mine --max-vocab N`: each language keeps its N most frequent words),
//     through the real command into the saved model;
//   - word retrieval by plain nearest neighbour beside CSLS (csls-lexicon.ts, `lexicon --method
//     bisent2vec --extraction nn|csls`), the NN lexicon checked against the cosines of a trained
//     model's word vectors computed here;
//   - sentence retrieval with tf-idf: `eval retrieval --encoder bisent2vec:DIR` weighs each word
//     by its idf when the model was trained with --tfidf, by hand on vectors and document
//     frequencies set in the model.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { syntheticCorpus } from '../bilstm/synthetic.ts';
import { buildVocab } from '../../../../src/main/models/bisent2vec/ngram-vocab.ts';
import { bisent2vecLexicon } from '../../../../src/main/models/bisent2vec/csls-lexicon.ts';
import { wordVectors } from '../../../../src/main/models/bisent2vec/embed.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { loadBisent2vec, saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';

const dir = tempDir('mekong-seed002-');
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const sentences = (s: string[][]) => s.map((x) => x.join(' ') + '\n').join('');
const mekong = (...args: string[]) => {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const corpus = syntheticCorpus(300, 30, 7);

test('buildVocab keeps the maxVocab most frequent words of each side, the first seen first among equal counts', () => {
  const v = buildVocab(
    [
      [['a', 'b', 'c'], ['c', 'b', 'd'], ['c']],
      [
        ['x', 'y'],
        ['z', 'w'],
      ],
    ],
    1,
    false,
    0,
    2,
  );
  // counts: c 3, b 2, a 1, d 1; x, y, z, w 1 each
  expect(v.words).toEqual([
    ['c', 'b'],
    ['x', 'y'],
  ]);
  expect(Array.from(v.counts)).toEqual([3, 2, 1, 1]);
});

test('mine --max-vocab N trains and saves a model whose languages have their N most frequent words', () => {
  const A = write('train.src', sentences(corpus.src)),
    B = write('train.tgt', sentences(corpus.tgt));
  const model = join(dir, 'capped');
  const ok = mekong(
    ...['mine', '--src', A, '--tgt', B, '--train-src', A, '--train-tgt', B, '--out', join(dir, 'm.tsv')],
    ...['--max-vocab', '12', '--epochs', '1', '--threads', '1', '--threshold', '0', '--save-model', model],
  );
  expect(ok.code, ok.err).toBe(0);
  const saved = loadBisent2vec(model);
  expect(saved.config.maxVocab).toBe(12);
  const counts = (side: string[][]) => {
    const c = new Map<string, number>();
    for (const s of side) for (const w of s) c.set(w, (c.get(w) ?? 0) + 1);
    return c;
  };
  for (const [side, words] of [corpus.src, corpus.tgt].entries()) {
    const c = counts(words);
    const kept = saved.index.vocab.words[side];
    expect(kept).toHaveLength(12);
    // every word left out is at most as frequent as the rarest kept
    const floor = Math.min(...kept.map((w) => c.get(w)!));
    expect([...c].filter(([w]) => !kept.includes(w)).every(([, n]) => n <= floor)).toBe(true);
  }
  const bad = mekong('mine', '--src', A, '--tgt', B, '--train-src', A, '--train-tgt', B, '--out', join(dir, 'x'), '--max-vocab', '0');
  expect(bad.code).toBe(1);
  expect(bad.err.trim()).toMatch(/--max-vocab must be a positive integer/);
}, 60_000);

test("the NN lexicon lists each source word's targets by cosine; CSLS re-ranks them; the CLI offers both", async () => {
  const { model } = await trainBisent2vec(corpus.src, corpus.tgt, { epochs: 3, charN: 0 }, { threads: 1 });
  const d = model.config.dim;
  const [x, y] = [wordVectors(model, 0), wordVectors(model, 1)];
  const [srcWords, tgtWords] = model.index.vocab.words;
  const nn = await bisent2vecLexicon(model, 3, 'nn');
  for (const [i, w] of srcWords.entries()) {
    const cosines = tgtWords.map((t, j) => ({ t, c: x.subarray(i * d, (i + 1) * d).reduce((s, v, k) => s + v * y[j * d + k], 0) }));
    cosines.sort((a, b) => b.c - a.c);
    const mine = nn.filter((e) => e.src === w);
    expect(mine.map((e) => e.tgt)).toEqual(cosines.slice(0, 3).map((c) => c.t));
    mine.forEach((e, r) => expect(e.score).toBeCloseTo(cosines[r].c, 5));
  }
  const csls = await bisent2vecLexicon(model, 3, 'csls');
  expect(csls.map((e) => e.score)).not.toEqual(nn.map((e) => e.score));

  const S = write('lex.src', sentences(corpus.src)),
    T = write('lex.tgt', sentences(corpus.tgt));
  const out = join(dir, 'nn.lex');
  const r = mekong('lexicon', '--method', 'bisent2vec', '--extraction', 'nn', '--epochs', '2', '--src', S, '--tgt', T, '--out', out);
  expect(r.code, r.err).toBe(0);
  const scores = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => Number(l.split('\t')[2]));
  expect(scores.every((s) => s <= 1 + 1e-6 && s >= -1 - 1e-6)).toBe(true);
  const bad = mekong('lexicon', '--method', 'bisent2vec', '--extraction', 'em', '--src', S, '--tgt', T, '--out', out);
  expect(bad.code).toBe(1);
  expect(bad.err.trim()).toBe('mekong: --extraction of bisent2vec must be one of csls, nn, got "em"');
}, 60_000);

const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * A saved model of one-word training sentences whose word vectors (rows of V, dim 2) are set at
 * the angles given, with the document frequencies given out of 10 sentences, tf-idf on or off.
 */
async function handModel(name: string, src: Record<string, [number, number]>, tgt: Record<string, [number, number]>, tfidf: boolean) {
  const s = Object.keys(src),
    t = Object.keys(tgt);
  const n = Math.max(s.length, t.length);
  const { model } = await trainBisent2vec(
    Array.from({ length: n }, (_, k) => [s[k % s.length]]),
    Array.from({ length: n }, (_, k) => [t[k % t.length]]),
    { dim: 2, epochs: 1, minCount: 1, charN: 0, bigrams: false, subsample: 0, tfidf },
    { threads: 1 },
  );
  model.index.vocab.sentences = 10;
  ([src, tgt] as const).forEach((words, side) =>
    model.index.vocab.words[side].forEach((w, k) => {
      const row = model.index.offsets.words[side] + k;
      const [angle, df] = words[w];
      model.V.set([Math.cos(rad(angle)), Math.sin(rad(angle))], row * 2);
      model.index.vocab.df[row] = df;
    }),
  );
  const folder = join(dir, name);
  saveBisent2vec(folder, model);
  return folder;
}

test('eval retrieval --encoder bisent2vec:DIR weighs words by idf when the model was trained with --tfidf, by hand', async () => {
  // Words (angle, df of 10): s1 (0°, 1), s2 (100°, 5), s3 (80°, 2); t1 (0°, 1), t2 (90°, 1).
  // Pairs: "s1 s2" ↔ "t1", "s3" ↔ "t2".
  // Plain mean: "s1 s2" at 50°, nearer t2 (40°) than t1 (50°): ✗; "s3" (80°) → t2 ✓. P@1 src→tgt 1/2.
  //   Backwards t1 (0°) → "s1 s2" (50°) before "s3" (80°) ✓; t2 (90°) → "s3" (10°) ✓: 1.
  // idf: s1 ln 10 = 2.303, s2 ln 2 = 0.693: ln 10·(1, 0) + ln 2·(cos 100°, sin 100°) = (2.182, 0.683), at 17.4°,
  //   nearer t1 ✓: P@1 1 both ways.
  const words = {
    src: { s1: [0, 1], s2: [100, 5], s3: [80, 2] } as Record<string, [number, number]>,
    tgt: { t1: [0, 1], t2: [90, 1] } as Record<string, [number, number]>,
  };
  const angle = Math.atan2(Math.log(2) * Math.sin(rad(100)), Math.log(10) + Math.log(2) * Math.cos(rad(100))) / rad(1);
  expect(angle).toBeCloseTo(17.4, 1);
  const plain = await handModel('plain', words.src, words.tgt, false);
  const weighted = await handModel('tfidf', words.src, words.tgt, true);
  const S = write('ret.src', 's1 s2\ns3\n'),
    T = write('ret.tgt', 't1\nt2\n');
  const p1 = (folder: string) => {
    const r = mekong('eval', 'retrieval', '--src', S, '--tgt', T, '--encoder', `bisent2vec:${folder}`, '--json');
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out).p1;
  };
  expect(p1(plain)).toEqual({ src_tgt: 0.5, tgt_src: 1 });
  expect(p1(weighted)).toEqual({ src_tgt: 1, tgt_src: 1 });
}, 60_000);
