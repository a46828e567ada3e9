// The siamese head's frozen sentence encoders (models/siamese/sentence-encoders.ts), each
// opened from its `kind:DIR` spec through the registry's look-up (aligners/registry.ts),
// through its real loading code on a small model built or trained here: Bi-Sent2Vec and the
// BiLSTM trained for seconds on Multi30k en–fr pairs (their vectors retrieve the translations
// of those pairs far above chance), a tiny random BERT (its vectors are the mean of the
// default layer's rows over the words' subwords); and retrieval P@1/P@5 on a hand case.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { retrievalAccuracy } from '../../../../src/main/eval/retrieval.ts';
import { sentenceVectors } from '../../../../src/main/models/bisent2vec/embed.ts';
import { trainBisent2vec } from '../../../../src/main/models/bisent2vec/parallel-train.ts';
import { saveBisent2vec } from '../../../../src/main/models/bisent2vec/bisent2vec-folder.ts';
import { saveNeuralModel } from '../../../../src/main/models/bilstm/bilstm-folder.ts';
import { trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { normalised } from '../../../../src/main/models/siamese/head.ts';
import { openSentenceEncoder } from '../../../../src/main/models/siamese/sentence-encoders.ts';
import { sentenceEncoderOf } from '../../../../src/main/aligners/registry.ts';
import { defaultAlignLayer, readEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';
import { HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import { samplePairs, writeTinyBert } from '../transformer/tiny-encoders.ts';
import { m30kPairs } from './bench-pairs.ts';

const dir = tempDir('mekong-siamese-');

/** The encoder of a `kind:DIR` spec, looked up as `mekong siamese` does (the registry's SIAMESE_HEAD). */
function open(spec: string) {
  const { family, dir: folder } = sentenceEncoderOf(spec);
  return openSentenceEncoder(family, folder);
}
const pairs = m30kPairs(400);

test('retrieval P@1 and P@5 both ways, by hand', async () => {
  // x_i against y_j (unit rows, d = 2): x0 nearest y0; x1 nearest y0 then y1 (18° and 22° off); x2 nearest y1 then y0 then y2
  const deg = (a: number) => [Math.cos((a * Math.PI) / 180), Math.sin((a * Math.PI) / 180)];
  const x = Float32Array.from([0, 28, 80].flatMap(deg));
  const y = Float32Array.from([10, 50, 170].flatMap(deg));
  const r = await retrievalAccuracy(x, y, 2, [1, 2]);
  expect(r.forward[1]).toBeCloseTo(1 / 3, 6); // only x0 → y0
  expect(r.forward[2]).toBeCloseTo(2 / 3, 6); // x1 has y1 second; x2 has y2 third
  // y0 nearest x0; y1 (50°) nearest x1 (22° off; x2 30°); y2 (170°) nearest x2
  expect(r.backward[1]).toBeCloseTo(1, 6);
});

/** P@1 from source to target of the encoder's vectors of `n` pairs. */
async function p1(spec: string, n: number): Promise<{ p1: number; dim: number; x: Float32Array }> {
  const enc = open(spec);
  try {
    const x = await enc.embed(0, pairs.src.slice(0, n));
    const y = await enc.embed(1, pairs.tgt.slice(0, n));
    expect(x.length).toBe(n * enc.dim);
    expect(y.length).toBe(n * enc.dim);
    const r = await retrievalAccuracy(normalised(x, enc.dim), normalised(y, enc.dim), enc.dim);
    return { p1: r.forward[1], dim: enc.dim, x };
  } finally {
    await enc.release();
  }
}

test('bisent2vec:DIR gives the saved model sentence vectors, which retrieve the pairs', async () => {
  const { model } = await trainBisent2vec(pairs.src, pairs.tgt, { minCount: 1, dim: 32, epochs: 20 }, { threads: 1 });
  const folder = join(dir, 'bisent2vec');
  saveBisent2vec(folder, model);
  const r = await p1(`bisent2vec:${folder}`, 200);
  expect(r.dim).toBe(32);
  expect(Array.from(r.x)).toEqual(Array.from(sentenceVectors(model, 0, pairs.src.slice(0, 200))));
  console.log(`bisent2vec (400 pairs, 20 epochs): training-pair retrieval P@1 ${r.p1.toFixed(3)} over 200`);
  expect(r.p1).toBeGreaterThan(0.8);
}, 60_000);

test('bilstm:DIR gives pooled encoder states, the same alone as in a batch, which retrieve the pairs', async () => {
  const model = await trainNeural({ src: pairs.src, tgt: pairs.tgt }, { epochs: 3, dim: 32, batchSize: 16, device: 'cpu' });
  const folder = join(dir, 'bilstm');
  saveNeuralModel(folder, model);
  const r = await p1(`bilstm:${folder}`, 200);
  expect(r.dim).toBe(32);
  const enc = open(`bilstm:${folder}`);
  const alone = await enc.embed(0, [pairs.src[5]]);
  for (let t = 0; t < 32; t++) expect(alone[t]).toBeCloseTo(r.x[5 * 32 + t], 5);
  console.log(`bilstm (400 pairs, 3 epochs): training-pair retrieval P@1 ${r.p1.toFixed(3)} over 200`);
  expect(r.p1).toBeGreaterThan(0.05); // chance: 0.005
}, 120_000);

test("hf:DIR gives the default layer's mean over the words' subwords, with the side's language", async () => {
  const folder = join(dir, 'bert');
  writeTinyBert(folder);
  const config = readEncoderConfig(folder);
  const sample = samplePairs(6);
  const enc = open(`hf:${folder}`);
  const v = await enc.embed(1, sample.tgt);
  await enc.release();
  expect(enc.dim).toBe(config.hidden);
  // by hand for sentence 3: the rows of the hidden state whose token belongs to a word
  const hf = HfEncoder.open(folder);
  const [s] = hf.encode([sample.tgt[3]]);
  const [[h]] = await hf.hiddenStates([s], [defaultAlignLayer(config)], undefined, [1]);
  await hf.release();
  const D = config.hidden;
  const rows = [...s.wordOf.keys()].filter((t) => s.wordOf[t] >= 0);
  expect(rows.length).toBeLessThan(s.ids.length); // [CLS] and [SEP] left out
  for (let t = 0; t < D; t++) {
    const mean = rows.reduce((a, r) => a + h[r * D + t], 0) / rows.length;
    expect(v[3 * D + t]).toBeCloseTo(mean, 4);
  }
}, 60_000);

test('a malformed encoder spec is a one-line error naming the kinds', () => {
  for (const spec of ['word2vec:x', 'bilstm', 'hf:'])
    expect(() => open(spec)).toThrow(/^--encoder must be bisent2vec:DIR, bilstm:DIR, hf:DIR; got/);
});
