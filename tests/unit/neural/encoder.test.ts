// The inference encoder (whole-sequence LSTM nodes) gives the same contextual embeddings as
// the training graph's unrolled encoder, for the same parameters, on right-padded rows of
// different lengths on both sides.
import { expect, test } from 'vitest';
import { buildEncoder } from '../../../src/main/align/neural/encoder.ts';
import { buildNetwork } from '../../../src/main/align/neural/network.ts';
import { DEFAULT_CONFIG, modelDims } from '../../../src/main/align/neural/train.ts';
import { batchFeeds, buildVocab } from '../../../src/main/align/neural/vocab.ts';
import { Program, type Tensor } from '../../../src/main/nn/index.ts';
import { syntheticCorpus } from './synthetic.ts';

test('inference encoder = training encoder (same parameters, padded rows)', async () => {
  const c = syntheticCorpus(6, 10);
  c.src[0].push('s1', 's2', 's3');
  const vocab = buildVocab(c.src, c.tgt, 20, DEFAULT_CONFIG.maxSubwords);
  const dims = modelDims(vocab, 16);
  const T = 12;
  const net = buildNetwork(T, dims, DEFAULT_CONFIG);
  const params: Record<string, Tensor> = Object.fromEntries([...net.graph.params].map(([name, p]) => [name, p.init]));
  const feeds = { ...batchFeeds(vocab, { src: c.src, tgt: c.tgt }, T), ...params };
  const run = async (graph: typeof net.graph, us: typeof net.us, ut: typeof net.ut) => {
    const p = await Program.compile(graph, { us, ut }, { device: 'cpu' });
    try {
      return await p.run(feeds);
    } finally {
      await p.release();
    }
  };
  const enc = buildEncoder(T, dims);
  const want = await run(net.graph, net.us, net.ut);
  const got = await run(enc.graph, enc.us, enc.ut);
  for (const side of ['us', 'ut'] as const) {
    const a = want[side].data as Float32Array, b = got[side].data as Float32Array;
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    expect(worst).toBeLessThan(1e-5);
    expect(a.some((x) => Math.abs(x) > 0.01)).toBe(true);
  }
});
