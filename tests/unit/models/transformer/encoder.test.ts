// The encoders of Hugging Face folders: our graph's hidden states against an independent
// float64 forward pass written here (BERT and XLM-R shapes, a padded batch), the same folder
// run from model.onnx, half-precision weights, device fallback, and the word ↔ subword maps.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { randomWeights, samplePairs, writeTinyBert, writeTinyXlmr } from './tiny-encoders.ts';
import { exportEncoderOnnx, HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import { alignWithEncoder } from '../../../../src/main/models/transformer/encoder-aligner.ts';
import { ENCODER_ALIGN_METHODS } from '../../../../src/shared/methods.ts';
import { buildEncoderGraph, hiddenStateName } from '../../../../src/main/models/transformer/encoder-graph.ts';
import { defaultAlignLayer, type EncoderConfig, parseEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';
import { readEncoderWeights } from '../../../../src/main/models/transformer/hf-weights.ts';
import { poolWords } from '../../../../src/main/models/transformer/word-pooling.ts';
import { decodeSafetensors, encodeSafetensors, writeSafetensors } from '../../../../src/main/nn/safetensors.ts';
import { exportOnnx } from '../../../../src/main/nn/model-folder.ts';
import { Tensor } from '../../../../src/main/nn/tensor.ts';

const dir = tempDir();
const pairs = samplePairs(6);
/** Sentences of 1 to 12 words: a batch with real padding. */
const sentences = [...pairs.src.map((s, k) => s.slice(0, 2 + 2 * k)), ['ລາວ'], pairs.tgt[0].slice(0, 9)];

// ---- the reference: transformers' BertModel forward, one sentence, float64 ----

/** erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x < 0 ? -y : y;
}

function referenceForward(c: EncoderConfig, w: Map<string, Tensor>, ids: number[]): Float64Array[] {
  const D = c.hidden,
    T = ids.length,
    H = c.heads,
    d = D / H;
  const W = (n: string) => w.get(n)!.data as Float32Array;
  const linear = (x: Float64Array, name: string, out: number, inp: number) => {
    const wt = W(`${name}.weight`),
      b = W(`${name}.bias`);
    const y = new Float64Array(T * out);
    for (let t = 0; t < T; t++)
      for (let o = 0; o < out; o++) {
        let s = b[o];
        for (let i = 0; i < inp; i++) s += x[t * inp + i] * wt[o * inp + i];
        y[t * out + o] = s;
      }
    return y;
  };
  const norm = (x: Float64Array, name: string) => {
    const g = W(`${name}.weight`),
      b = W(`${name}.bias`);
    const y = new Float64Array(T * D);
    for (let t = 0; t < T; t++) {
      let m = 0,
        v = 0;
      for (let i = 0; i < D; i++) m += x[t * D + i] / D;
      for (let i = 0; i < D; i++) v += (x[t * D + i] - m) ** 2 / D;
      for (let i = 0; i < D; i++) y[t * D + i] = ((x[t * D + i] - m) / Math.sqrt(v + c.layerNormEps)) * g[i] + b[i];
    }
    return y;
  };
  const first = c.family === 'roberta' ? c.padId + 1 : 0;
  const e = new Float64Array(T * D);
  const [we, pe, te] = ['word', 'position', 'token_type'].map((k) => W(`embeddings.${k}_embeddings.weight`));
  for (let t = 0; t < T; t++) for (let i = 0; i < D; i++) e[t * D + i] = we[ids[t] * D + i] + pe[(first + t) * D + i] + te[i];
  const hs = [norm(e, 'embeddings.LayerNorm')];
  for (let l = 0; l < c.layers; l++) {
    const p = `encoder.layer.${l}`;
    const h = hs[l];
    const [q, k, v] = ['query', 'key', 'value'].map((m) => linear(h, `${p}.attention.self.${m}`, D, D));
    const ctx = new Float64Array(T * D);
    for (let head = 0; head < H; head++)
      for (let i = 0; i < T; i++) {
        const s = new Float64Array(T);
        for (let j = 0; j < T; j++) {
          for (let x = 0; x < d; x++) s[j] += q[i * D + head * d + x] * k[j * D + head * d + x];
          s[j] /= Math.sqrt(d);
        }
        const m = Math.max(...s);
        const z = s.reduce((a, x) => a + Math.exp(x - m), 0);
        for (let j = 0; j < T; j++)
          for (let x = 0; x < d; x++) ctx[i * D + head * d + x] += (Math.exp(s[j] - m) / z) * v[j * D + head * d + x];
      }
    const ao = linear(ctx, `${p}.attention.output.dense`, D, D).map((x, i) => x + h[i]);
    const a = norm(ao, `${p}.attention.output.LayerNorm`);
    const inter = linear(a, `${p}.intermediate.dense`, c.intermediate, D).map((x) => 0.5 * x * (1 + erf(x / Math.SQRT2)));
    const out = linear(inter, `${p}.output.dense`, D, c.intermediate).map((x, i) => x + a[i]);
    hs.push(norm(out, `${p}.output.LayerNorm`));
  }
  return hs;
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

test.each([
  ['bert', writeTinyBert, ''],
  ['xlm-roberta (roberta. prefix of a masked-LM checkpoint)', writeTinyXlmr, 'roberta.'],
] as const)('%s: every hidden state of a padded batch matches the float64 reference to 1e-4', async (_, write, prefix) => {
  const folder = join(dir, `ref-${prefix || 'plain'}-${write.name}`);
  const raw = write(folder, { prefix });
  const c = parseEncoderConfig(raw, 'config.json');
  const enc = HfEncoder.open(folder);
  expect(enc.backend).toBe('graph');
  const encoded = enc.encode(sentences);
  expect(new Set(encoded.map((e) => e.ids.length)).size).toBeGreaterThan(3);
  const layers = [0, 1, 2];
  const ours = await enc.hiddenStates(encoded, layers);
  const weights = readEncoderWeights(folder, c);
  let worst = 0;
  encoded.forEach((e, k) => {
    const ref = referenceForward(c, weights, e.ids);
    layers.forEach((l) => (worst = Math.max(worst, maxDiff(ours[l][k], ref[l]))));
  });
  expect(worst).toBeLessThan(1e-4);
  // the hidden states differ from layer to layer (the test would not see a skipped layer otherwise)
  expect(maxDiff(ours[1][0], ours[2][0])).toBeGreaterThan(0.1);
  await enc.release();
});

test('model.onnx (our graph exported, weights baked in) gives the same hidden states and the same alignments', async () => {
  const folder = join(dir, 'onnx-bert');
  writeTinyBert(folder, { seed: 11 });
  exportEncoderOnnx(folder);
  const onnxOnly = join(dir, 'onnx-only');
  mkdirSync(onnxOnly);
  for (const f of ['config.json', 'tokenizer.json', 'model.onnx']) copyFileSync(join(folder, f), join(onnxOnly, f));
  const graph = HfEncoder.open(folder);
  const onnx = HfEncoder.open(onnxOnly);
  expect(onnx.backend).toBe('onnx');
  expect(HfEncoder.open(folder, { backend: 'onnx' }).backend).toBe('onnx');
  const encoded = graph.encode(sentences);
  const [a] = await graph.hiddenStates(encoded, [1]);
  const [b] = await onnx.hiddenStates(encoded, [1]);
  a.forEach((x, k) => expect(maxDiff(x, b[k])).toBeLessThan(1e-5));
  const { src, tgt } = samplePairs(6);
  const progress: number[] = [];
  await alignWithEncoder(graph, 'awesome', src, tgt, {
    ctx: { progress: ({ done, total }) => void progress.push(done / total), signal: new AbortController().signal },
  });
  expect(progress[0]).toBe(0);
  expect(progress.at(-1)).toBe(1);
  expect(progress.every((p, i) => i === 0 || p >= progress[i - 1])).toBe(true);
  for (const method of ENCODER_ALIGN_METHODS) {
    const la = await alignWithEncoder(graph, method, src, tgt, { layer: 1 });
    const lb = await alignWithEncoder(onnx, method, src, tgt, { layer: 1 });
    expect(lb.map((ls) => ls.map((l) => `${l.s}-${l.t}`))).toEqual(la.map((ls) => ls.map((l) => `${l.s}-${l.t}`)));
    expect(la.flat().length).toBeGreaterThan(10);
  }
  await graph.release();
  await onnx.release();
});

test('model.onnx without the hidden state asked for is a one-line error; last_hidden_state serves the last layer', async () => {
  const folder = join(dir, 'onnx-last');
  const raw = writeTinyXlmr(folder, { seed: 5 });
  const c = parseEncoderConfig(raw, 'config.json');
  const weights = readEncoderWeights(folder, c);
  const { graph, hidden } = buildEncoderGraph(c, weights);
  writeFileSync(join(folder, 'model.onnx'), exportOnnx(graph, { last_hidden_state: hidden[2] }, weights));
  const onnx = HfEncoder.open(folder, { backend: 'onnx' });
  const encoded = onnx.encode(sentences.slice(0, 3));
  await expect(onnx.hiddenStates(encoded, [1])).rejects.toThrow(/model\.onnx: no output hidden_states\.1 \(it has last_hidden_state\)/);
  const [last] = await onnx.hiddenStates(encoded, [2]);
  const ours = HfEncoder.open(folder);
  const [ref] = await ours.hiddenStates(encoded, [2]);
  last.forEach((x, k) => expect(maxDiff(x, ref[k])).toBeLessThan(1e-5));
  await onnx.release();
  await ours.release();
  expect(hiddenStateName(3)).toBe('hidden_states.3');
  // the default layer: 8 of 12 as SimAlign and awesome-align, round(2/3·L) otherwise
  expect([12, 24, 3, 2].map((layers) => defaultAlignLayer({ ...c, layers }))).toEqual([8, 16, 2, 1]);
});

/** float32 → bfloat16 bits by truncation (the test makes weights that bf16 holds exactly). */
const bf16Bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0] >>> 16;

test('half-precision weights: F16 values decode exactly, a BF16 checkpoint loads as its float32 twin', async () => {
  // F16 by hand: 1.5, −2, 65504 (largest), 2⁻²⁴ (smallest subnormal), −0
  const header = JSON.stringify({ h: { dtype: 'F16', shape: [5], data_offsets: [0, 10] } }).padEnd(56, ' ');
  const bytes = new Uint8Array(8 + header.length + 10);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(header.length), true);
  bytes.set(new TextEncoder().encode(header), 8);
  const halves = [0x3e00, 0xc000, 0x7bff, 0x0001, 0x8000];
  halves.forEach((h, i) => new DataView(bytes.buffer).setUint16(8 + header.length + 2 * i, h, true));
  const h = decodeSafetensors(bytes).tensors.get('h')!;
  expect(h.type).toBe('float32');
  expect(Array.from(h.data as Float32Array)).toEqual([1.5, -2, 65504, 2 ** -24, -0]);
  // a header whose shape does not fit the bytes: a one-line error, not a RangeError
  const bad = new Uint8Array(bytes);
  bad.set(new TextEncoder().encode(header.replace('[5]', '[4]')), 8);
  expect(() => decodeSafetensors(bad, 'h.safetensors')).toThrow(/^h\.safetensors: tensor h has 10 bytes but F16 \[4\] needs 8$/);

  const folder = join(dir, 'bf16');
  const raw = writeTinyBert(folder, { seed: 3 });
  const exact = randomWeights(raw, 3);
  for (const t of exact.values()) {
    const f = t.data as Float32Array;
    for (let i = 0; i < f.length; i++) f[i] = new Float32Array(new Uint32Array([bf16Bits(f[i]) << 16]).buffer)[0];
  }
  writeSafetensors(join(folder, 'model.safetensors'), exact);
  const twin = join(dir, 'bf16-twin');
  mkdirSync(twin);
  for (const f of ['config.json', 'tokenizer.json']) copyFileSync(join(folder, f), join(twin, f));
  // the same tensors stored as BF16: rewrite each F32 entry's bytes as the upper halves
  const st = encodeSafetensors(exact);
  const n = Number(new DataView(st.buffer).getBigUint64(0, true));
  const head = JSON.parse(new TextDecoder().decode(st.subarray(8, 8 + n))) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const parts: Uint8Array[] = [];
  let off = 0;
  for (const [name, e] of Object.entries(head)) {
    if (name === '__metadata__') continue;
    const f = exact.get(name)!.data as Float32Array;
    const u = new Uint16Array(f.length).map((_, i) => bf16Bits(f[i]));
    e.dtype = 'BF16';
    e.data_offsets = [off, off + u.byteLength];
    off += u.byteLength;
    parts.push(new Uint8Array(u.buffer));
  }
  let json = JSON.stringify(head);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const out = new Uint8Array(8 + json.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(new TextEncoder().encode(json), 8);
  let at = 8 + json.length;
  for (const p of parts) (out.set(p, at), (at += p.length));
  writeFileSync(join(twin, 'model.safetensors'), out);
  const a = HfEncoder.open(folder),
    b = HfEncoder.open(twin);
  const encoded = a.encode(sentences.slice(0, 4));
  const [ha] = await a.hiddenStates(encoded, [2]);
  const [hb] = await b.hiddenStates(encoded, [2]);
  ha.forEach((x, k) => expect(maxDiff(x, hb[k])).toBe(0));
  await a.release();
  await b.release();
});

test('a checkpoint in shards (model.safetensors.index.json) loads as the single file does', async () => {
  const folder = join(dir, 'one-file');
  const raw = writeTinyXlmr(folder, { seed: 9 });
  const sharded = join(dir, 'sharded');
  mkdirSync(sharded);
  for (const f of ['config.json', 'tokenizer.json']) copyFileSync(join(folder, f), join(sharded, f));
  const all = [...randomWeights(raw, 9)];
  const half = Math.floor(all.length / 2);
  const shards = { 'model-00001-of-00002.safetensors': all.slice(0, half), 'model-00002-of-00002.safetensors': all.slice(half) };
  const weightMap: Record<string, string> = {};
  for (const [file, tensors] of Object.entries(shards)) {
    writeSafetensors(join(sharded, file), new Map(tensors));
    for (const [name] of tensors) weightMap[name] = file;
  }
  writeFileSync(join(sharded, 'model.safetensors.index.json'), JSON.stringify({ metadata: {}, weight_map: weightMap }));
  const a = HfEncoder.open(folder),
    b = HfEncoder.open(sharded);
  expect(b.backend).toBe('graph');
  const encoded = a.encode(sentences.slice(0, 3));
  const [ha] = await a.hiddenStates(encoded, [2]);
  const [hb] = await b.hiddenStates(encoded, [2]);
  ha.forEach((x, k) => expect(maxDiff(x, hb[k])).toBe(0));
  await a.release();
  await b.release();
});

test('a forced GPU provider falls back to the CPU, says so once and records it', async () => {
  const folder = join(dir, 'device');
  writeTinyBert(folder);
  const lines: string[] = [];
  const enc = HfEncoder.open(folder, { device: 'cuda', log: (l) => lines.push(l) });
  await enc.hiddenStates(enc.encode(sentences.slice(0, 2)), [1]);
  expect(enc.device).toBe('cpu');
  expect(lines.join('\n')).toMatch(/^nn: execution provider cpu \(requested cuda; unavailable: cuda: /);
  await enc.release();
});

test('words ↔ subwords: each word’s subwords in order, each subword’s word, and first/mean/max pooling', () => {
  const folder = join(dir, 'maps');
  writeTinyXlmr(folder);
  const enc = HfEncoder.open(folder);
  const words = pairs.src[0].slice(0, 8);
  const [e] = enc.encode([words]);
  expect(e.ids[0]).toBe(0); // <s>
  expect(e.ids.at(-1)).toBe(2); // </s>
  words.forEach((w, k) => {
    expect(e.ids.slice(e.start[k], e.end[k])).toEqual(enc.tokenizer.pieces(w));
    for (let t = e.start[k]; t < e.end[k]; t++) expect(e.wordOf[t]).toBe(k);
  });
  expect(words.some((_, k) => e.end[k] - e.start[k] > 1)).toBe(true);
  expect([e.wordOf[0], e.wordOf.at(-1)]).toEqual([-1, -1]);
  // too long for the positions: the words past the cut have no subwords
  const cut = enc.tokenizer.encodeWords([...words, ...words, ...words, ...words, ...words, ...words, ...words, ...words], 20);
  expect(cut.ids.length).toBeLessThanOrEqual(20);
  expect(cut.end.at(-1)! - cut.start.at(-1)!).toBe(0);
  // pooling over hand-made states: word 0 has subwords 1–2, word 1 none, word 2 subword 3
  const s = { ids: [9, 5, 6, 7, 9], start: Int32Array.of(1, 3, 3), end: Int32Array.of(3, 3, 4), wordOf: Int32Array.of(-1, 0, 0, 2, -1) };
  const h = Float32Array.of(0, 0, 1, 4, 3, -2, 5, 5, 0, 0);
  expect(Array.from(poolWords(h, s, 2, 'first').vectors)).toEqual([1, 4, 0, 0, 5, 5]);
  expect(Array.from(poolWords(h, s, 2, 'mean').vectors)).toEqual([2, 1, 0, 0, 5, 5]);
  expect(Array.from(poolWords(h, s, 2, 'max').vectors)).toEqual([3, 4, 0, 0, 5, 5]);
  expect(Array.from(poolWords(h, s, 2, 'mean').has)).toEqual([1, 0, 1]);
});
