// The inference encoder (whole-sequence LSTM nodes) gives the same contextual embeddings as
// the training graph's unrolled encoder, for the same parameters, on right-padded rows of
// different lengths on both sides; with a static weight w the extraction vectors are
// [√(1−w)·u ; √w·r̂], unit rows at real tokens and zero at padding.
import { expect, test } from 'vitest';
import { buildEncoder } from '../../../../src/main/models/bilstm/encoder.ts';
import { buildNetwork } from '../../../../src/main/models/bilstm/network.ts';
import { DEFAULT_CONFIG, modelDims } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { batchFeeds, buildVocab } from '../../../../src/main/models/bilstm/vocab-batches.ts';
import { type Graph, Program, type Tensor, type Value } from '../../../../src/main/nn/index.ts';
import { syntheticCorpus } from './synthetic.ts';

const T = 12;
const D = 16;
const c = syntheticCorpus(6, 10);
c.src[0].push('s1', 's2', 's3');
const vocab = buildVocab(c.src, c.tgt, 20, DEFAULT_CONFIG.maxSubwords);
const dims = modelDims(vocab, D);
const net = buildNetwork(T, c.src.length, dims, DEFAULT_CONFIG);
const params: Record<string, Tensor> = Object.fromEntries([...net.graph.params].map(([name, p]) => [name, p.init]));
const feeds = { ...batchFeeds(vocab, { src: c.src, tgt: c.tgt }, T), ...params };

async function run(graph: Graph, us: Value, ut: Value): Promise<Record<'us' | 'ut', Float32Array>> {
  const p = await Program.compile(graph, { us, ut }, { device: 'cpu' });
  try {
    const r = await p.run(feeds);
    return { us: r.us.data as Float32Array, ut: r.ut.data as Float32Array };
  } finally {
    await p.release();
  }
}

test('inference encoder = training encoder (same parameters, padded rows)', async () => {
  const enc = buildEncoder(T, dims, 1, 0);
  const want = await run(net.graph, net.us, net.ut);
  const got = await run(enc.graph, enc.us, enc.ut);
  for (const side of ['us', 'ut'] as const) {
    const a = want[side],
      b = got[side];
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-5);
    expect(a.some((x) => Math.abs(x) > 0.01)).toBe(true);
  }
});

test('with a static weight w, each token is [√(1−w)·u ; √w·r̂]: unit rows, zero at padding', async () => {
  const w = 0.3;
  const plain = buildEncoder(T, dims, 1, 0),
    mixed = buildEncoder(T, dims, 1, w);
  const u = await run(plain.graph, plain.us, plain.ut);
  const got = await run(mixed.graph, mixed.us, mixed.ut);
  const sides = { us: c.src, ut: c.tgt } as const;
  for (const side of ['us', 'ut'] as const) {
    expect(got[side].length).toBe(2 * u[side].length);
    sides[side].forEach((sent, b) => {
      for (let i = 0; i < T; i++) {
        const row = got[side].subarray((b * T + i) * 2 * D, (b * T + i + 1) * 2 * D);
        const norm = (xs: Float32Array) => Math.sqrt(xs.reduce((a, x) => a + x * x, 0));
        if (i >= sent.length) {
          expect(norm(row)).toBe(0);
          continue;
        }
        for (let k = 0; k < D; k++) expect(row[k]).toBeCloseTo(Math.sqrt(1 - w) * u[side][(b * T + i) * D + k], 5);
        expect(norm(row.subarray(D))).toBeCloseTo(Math.sqrt(w), 5);
        expect(norm(row)).toBeCloseTo(1, 5);
      }
    });
  }
});
