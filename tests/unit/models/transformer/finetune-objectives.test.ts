// The fine-tuning objectives on a tiny BERT-shaped encoder, in real ONNX sessions: TR, WTR
// (with a rejected link), AWP and SO each against a computation written here from the graph's
// own hidden states; the batch's weights as the equations give them; and the gradient of the
// whole weighted loss (TR + AWP + WTR + RTL + SO) against central finite differences on sampled
// parameters, encoder, MLM head and RTL head alike (float32, h = 2e-3: at 1e-2 the MLM head's
// curvature alone made a 20% gap).
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from './tiny-encoders.ts';
import { grad } from '../../../../src/main/nn/autodiff.ts';
import { Rng } from '../../../../src/main/nn/init.ts';
import { Program } from '../../../../src/main/nn/session.ts';
import { Tensor } from '../../../../src/main/nn/tensor.ts';
import type { Value } from '../../../../src/main/nn/graph.ts';
import { readEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';
import { HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import { readEncoderWeights } from '../../../../src/main/models/transformer/hf-weights.ts';
import {
  buildObjectiveGraph,
  INPUT,
  OBJECTIVE_DEFAULTS,
  type Objective,
} from '../../../../src/main/models/transformer/finetune-objectives.ts';
import { batchFeeds, type FinetuneExample } from '../../../../src/main/models/transformer/finetune-batch.ts';

const dir = tempDir();
const bertDir = join(dir, 'bert');
writeTinyBert(bertDir, { hidden: 16, heads: 2, intermediate: 32, layers: 2 });
const config = readEncoderConfig(bertDir);
const weights = readEncoderWeights(bertDir, config);
const encoder = HfEncoder.open(bertDir);
const pairs = samplePairs(3);
const src = pairs.src.map((s) => s.slice(0, 5));
const tgt = pairs.tgt.map((s) => s.slice(0, 6));
const links = [
  [
    { s: 0, t: 0 },
    { s: 1, t: 2 },
    { s: 1, t: 3 },
  ],
  [{ s: 2, t: 1 }],
  [
    { s: 0, t: 1 },
    { s: 4, t: 5 },
  ],
];
const examples: FinetuneExample[] = src.map((s, k) => {
  const [a, b] = encoder.encode([s, tgt[k]]);
  return { src: a, tgt: b, links: links[k], rejected: k === 0 ? [{ s: 2, t: 0 }] : [] };
});
const N = examples.length;
const tau = 0.5;
const D = config.hidden;

function feedsFor(objectives: Objective[]): Record<string, Tensor> {
  return batchFeeds(examples, {
    config,
    objectives,
    maskId: encoder.tokenizer.maskId,
    awpMasks: 99,
    rtlDirection: 'src-to-tgt',
    rng: new Rng(3),
  });
}

async function run(objectives: Objective[], layer: number, soLayer?: number) {
  const g = buildObjectiveGraph(config, weights, { ...OBJECTIVE_DEFAULTS, objectives, layer, soLayer, temperature: tau });
  const outs: Record<string, Value> = { h: g.hidden[layer], last: g.hidden[config.layers], loss: g.loss };
  for (const [k, v] of Object.entries(g.terms)) outs[k] = v;
  const prog = await Program.compile(g.graph, outs, { device: 'cpu' });
  const params = Object.fromEntries([...g.graph.params].map(([n, p]) => [n, p.init]));
  const feeds = feedsFor(objectives);
  const r = await prog.run({ ...feeds, ...params });
  await prog.release();
  const T = feeds.input_ids.dims[1];
  const row = (h: Tensor, r_: number, t: number) => Array.from((h.data as Float32Array).subarray((r_ * T + t) * D, (r_ * T + t + 1) * D));
  return { r, feeds, params, T, row, value: (k: string) => Number(r[k].data[0]) };
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);
const cos = (a: number[], b: number[]) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
const logSoftmax = (z: number[]) => {
  const m = Math.max(...z);
  const lse = m + Math.log(z.reduce((s, x) => s + Math.exp(x - m), 0));
  return z.map((x) => x - lse);
};

test('TR is −1/N Σ log softmax_j cos(CLS_Xi, CLS_Yj)/τ at j = i (eq. 9–10)', async () => {
  const { row, r, value } = await run(['tr'], 2);
  let want = 0;
  for (let i = 0; i < N; i++) {
    const z = Array.from({ length: N }, (_, j) => cos(row(r.h, i, 0), row(r.h, N + j, 0)) / tau);
    want -= logSoftmax(z)[i] / N;
  }
  expect(value('tr')).toBeCloseTo(want, 4);
});

test('WTR: mean-pooled words, softmax over the other sentence, both directions, 1/2N; a rejected link adds −log(1 − p) (eq. 6–8)', async () => {
  const { row, r, value } = await run(['wtr'], 1);
  const word = (rr: number, s: (typeof examples)[number]['src'], k: number) => {
    const v = new Array<number>(D).fill(0);
    for (let t = s.start[k]; t < s.end[k]; t++) row(r.h, rr, t).forEach((x, d) => (v[d] += x / (s.end[k] - s.start[k])));
    return v;
  };
  const lp = (ra: number, a: number, rb: number, b: number) => {
    const ea = ra < N ? examples[ra].src : examples[ra - N].tgt;
    const eb = rb < N ? examples[rb].src : examples[rb - N].tgt;
    const anchor = word(ra, ea, a);
    const present = [...eb.start.keys()].filter((n) => eb.end[n] > eb.start[n]);
    const z = present.map((n) => cos(anchor, word(rb, eb, n)) / tau);
    return logSoftmax(z)[present.indexOf(b)];
  };
  let want = 0;
  const has = (s: (typeof examples)[number]['src'], k: number) => s.end[k] > s.start[k];
  examples.forEach((e, i) => {
    for (const l of e.links.filter((x) => has(e.src, x.s) && has(e.tgt, x.t)))
      want -= (lp(i, l.s, N + i, l.t) + lp(N + i, l.t, i, l.s)) / (2 * N);
    for (const l of e.rejected.filter((x) => has(e.src, x.s) && has(e.tgt, x.t)))
      want -= (Math.log(1 - Math.exp(lp(i, l.s, N + i, l.t)) + 1e-6) + Math.log(1 - Math.exp(lp(N + i, l.t, i, l.s)) + 1e-6)) / (2 * N);
  });
  // the sample has a word the tokenizer turns into nothing (it takes part in no term)
  expect(examples.some((e) => e.links.some((l) => !has(e.src, l.s) || !has(e.tgt, l.t)))).toBe(true);
  expect(value('wtr')).toBeCloseTo(want, 4);
});

test('AWP: the masked word predicts its linked word through the MLM head, clipped to the shorter word, 1/2N (eq. 4–5, §4.3)', async () => {
  const { r, feeds, params, T, value } = await run(['awp'], 2);
  const at = Array.from(feeds[INPUT.awpAt].data as BigInt64Array, Number);
  const target = Array.from(feeds[INPUT.awpTarget].data as BigInt64Array, Number);
  const w = Array.from(feeds[INPUT.awpWeight].data as Float32Array);
  // every link counts once per direction, with total weight 1/2N
  const totalLinks = examples.reduce(
    (a, e) => a + e.links.filter((l) => e.src.end[l.s] > e.src.start[l.s] && e.tgt.end[l.t] > e.tgt.start[l.t]).length,
    0,
  );
  expect(totalLinks).toBeGreaterThan(3);
  expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo((2 * totalLinks) / (2 * N), 5);
  // each predicted position is masked in its row, and holds the linked word's subword
  const ids = feeds.input_ids.data as BigInt64Array;
  for (const x of at) expect(Number(ids[x])).toBe(encoder.tokenizer.maskId);
  const P = (n: string) => Array.from(params[n].data as Float32Array);
  const [Wd, bd, gam, bet, bias, E] = [
    'mlm.dense.weight',
    'mlm.dense.bias',
    'mlm.norm.weight',
    'mlm.norm.bias',
    'mlm.bias',
    'embeddings.word_embeddings.weight',
  ].map(P);
  const erf = (x: number) => {
    const t = 1 / (1 + 0.3275911 * Math.abs(x));
    const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
    return x < 0 ? -y : y;
  };
  let want = 0;
  at.forEach((x, k) => {
    const h = Array.from((r.last.data as Float32Array).subarray(x * D, (x + 1) * D));
    const u = Array.from({ length: D }, (_, o) => {
      const v = bd[o] + dot(Wd.slice(o * D, (o + 1) * D), h);
      return 0.5 * v * (1 + erf(v / Math.SQRT2));
    });
    const mean = u.reduce((a, b) => a + b, 0) / D;
    const vr = u.reduce((a, b) => a + (b - mean) ** 2, 0) / D;
    const n = u.map((v, d) => ((v - mean) / Math.sqrt(vr + config.layerNormEps)) * gam[d] + bet[d]);
    const logits = Array.from({ length: config.vocabSize }, (_, j) => bias[j] + dot(E.slice(j * D, (j + 1) * D), n));
    want -= w[k] * logSoftmax(logits)[target[k]];
  });
  expect(T).toBeGreaterThan(0);
  expect(value('awp')).toBeCloseTo(want, 3);
});

test("SO: each subword's softmax over the other sentence's subwords, summed over the pair's linked subword pairs, /n and /m, −1/N (awesome-align's train_so)", async () => {
  // hidden state 2 while the aligner's default is 1: SO reads the layer it is given
  const { row, r, value } = await run(['so'], 2, 2);
  const softmax = (z: number[]) => logSoftmax(z).map(Math.exp);
  let want = 0;
  let multi = 0;
  examples.forEach((e, i) => {
    const P = [...e.src.wordOf.keys()].filter((t) => e.src.wordOf[t] >= 0);
    const Q = [...e.tgt.wordOf.keys()].filter((t) => e.tgt.wordOf[t] >= 0);
    const S = P.map((j) => Q.map((k) => dot(row(r.h, i, j), row(r.h, N + i, k))));
    const xy = S.map(softmax);
    const yx = Q.map((_, b) => softmax(P.map((_, a) => S[a][b])));
    const A = new Set<string>();
    for (const l of e.links)
      for (let j = e.src.start[l.s]; j < e.src.end[l.s]; j++) for (let k = e.tgt.start[l.t]; k < e.tgt.end[l.t]; k++) A.add(`${j} ${k}`);
    for (const l of e.links) if (e.src.end[l.s] - e.src.start[l.s] > 1 || e.tgt.end[l.t] - e.tgt.start[l.t] > 1) multi++;
    for (const cell of A) {
      const [j, k] = cell.split(' ').map(Number);
      want -= (xy[P.indexOf(j)][Q.indexOf(k)] / P.length + yx[Q.indexOf(k)][P.indexOf(j)] / Q.length) / N;
    }
  });
  // a link of a word of several subwords spans all its subword pairs
  expect(multi).toBeGreaterThan(0);
  expect(want).toBeLessThan(0);
  expect(value('so')).toBeCloseTo(want, 5);
  // at the default layer (the aligner's, 1 here) the value differs
  expect(Math.abs((await run(['so'], 2)).value('so') - want)).toBeGreaterThan(1e-4);
});

test('the weighted loss is α·TR + β·AWP + γ·WTR + δ·RTL + ε·SO', async () => {
  const { value } = await run(['tr', 'awp', 'wtr', 'rtl', 'so'], 2);
  const { alpha, beta, gamma, delta, epsilon } = OBJECTIVE_DEFAULTS;
  expect(value('loss')).toBeCloseTo(
    alpha * value('tr') + beta * value('awp') + gamma * value('wtr') + delta * value('rtl') + epsilon * value('so'),
    4,
  );
  expect(value('rtl')).toBeGreaterThan(0);
  expect(value('so')).toBeLessThan(0);
});

test('the gradient of the weighted loss matches central finite differences (encoder, MLM head, RTL head)', async () => {
  const objectives: Objective[] = ['tr', 'awp', 'wtr', 'rtl', 'so'];
  const g = buildObjectiveGraph(config, weights, { ...OBJECTIVE_DEFAULTS, objectives, layer: 1, temperature: tau });
  const names = [
    'embeddings.word_embeddings.weight',
    'embeddings.position_embeddings.weight',
    'encoder.layer.0.attention.self.query.weight',
    'encoder.layer.1.output.dense.weight',
    'mlm.dense.weight',
    'rtl.layer.1.intermediate.dense.weight',
  ];
  const wrt = names.map((n) => g.graph.params.get(n)!.value);
  const outs: Record<string, Value> = { loss: g.loss };
  grad(g.loss, wrt).forEach((v, i) => (outs[`g${i}`] = v));
  const prog = await Program.compile(g.graph, outs, { device: 'cpu' });
  const params = Object.fromEntries([...g.graph.params].map(([n, p]) => [n, p.init]));
  const feeds = feedsFor(objectives);
  const base = await prog.run({ ...feeds, ...params });
  const used = Number((feeds.input_ids.data as BigInt64Array)[1]);
  const rng = new Rng(11);
  const h = 2e-3;
  let worst = 0;
  for (const [i, n] of names.entries()) {
    const t = params[n];
    const analytic = base[`g${i}`].data as Float32Array;
    const picks = n === 'embeddings.word_embeddings.weight' ? [used * D, used * D + 3] : [rng.int(t.data.length), rng.int(t.data.length)];
    for (const j of picks) {
      const at = async (d: number) => {
        const data = (t.data as Float32Array).slice();
        data[j] += d;
        const r = await prog.run({ ...feeds, ...params, [n]: new Tensor('float32', data, t.dims) });
        return Number(r.loss.data[0]);
      };
      const numeric = ((await at(h)) - (await at(-h))) / (2 * h);
      worst = Math.max(worst, Math.abs(numeric - analytic[j]) / Math.max(0.05, Math.abs(numeric)));
      expect(Math.abs(analytic[j]) + Math.abs(numeric)).toBeGreaterThan(0);
    }
  }
  await prog.release();
  expect(worst).toBeLessThan(0.05);
});

test("RTL's head reads x's states except CLS, then one [MASK] slot per subword of y at y's positions, each weighted 1/(S_y·N)", () => {
  const f = feedsFor(['rtl']);
  const T = f.input_ids.dims[1];
  const R = f.input_ids.dims[0];
  const [, Tr] = f[INPUT.rtlIndex].dims;
  const index = Array.from(f[INPUT.rtlIndex].data as BigInt64Array, Number);
  const mask = Array.from(f[INPUT.rtlMask].data as BigInt64Array, Number);
  const slotIds = Array.from(f[INPUT.rtlSlotIds].data as BigInt64Array, Number);
  const slotPos = Array.from(f[INPUT.rtlSlotPos].data as BigInt64Array, Number);
  const at = Array.from(f[INPUT.rtlAt].data as BigInt64Array, Number);
  const target = Array.from(f[INPUT.rtlTarget].data as BigInt64Array, Number);
  const weight = Array.from(f[INPUT.rtlWeight].data as Float32Array);
  let slot = 0,
    goal = 0;
  examples.forEach((e, i) => {
    const x = e.src,
      y = e.tgt;
    const seq = index.slice(i * Tr, (i + 1) * Tr).filter((_, t) => mask[i * Tr + t]);
    const ys = [...y.wordOf.keys()].filter((t) => y.wordOf[t] >= 0);
    // x: its rows 1…len−1 (the [SEP] kept, [CLS] left out)
    expect(seq.slice(0, x.ids.length - 1)).toEqual(Array.from({ length: x.ids.length - 1 }, (_, t) => i * T + t + 1));
    // then the slots, each a [MASK] at its y token's position, predicting that token
    ys.forEach((t, u) => {
      expect(seq[x.ids.length - 1 + u]).toBe(R * T + slot);
      expect([slotIds[slot], slotPos[slot]]).toEqual([encoder.tokenizer.maskId, t]);
      expect([at[goal], target[goal]]).toEqual([i * Tr + x.ids.length - 1 + u, y.ids[t]]);
      expect(weight[goal]).toBeCloseTo(1 / (ys.length * N), 6);
      slot++;
      goal++;
    });
    expect(seq).toHaveLength(x.ids.length - 1 + ys.length);
  });
  expect(weight.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
});
