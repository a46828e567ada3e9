// Fine-tuning tiny BERT- and XLM-R-shaped encoders end to end (real ONNX sessions): the
// training loss goes down; the saved folder holds exactly transformers' BertModel /
// XLMRobertaModel tensors (names and shapes written out here for a 2-layer config), reopens
// through hf-encoder.ts with the hidden states of the trained weights, and aligns; model
// links ≥ 0.9 supervise pairs without gold; cancelling stops it and writes nothing; bad
// options and bad link files are one-line errors, through the API and `mekong finetune`;
// language embeddings are trained, saved beside the bare model's tensors and read per side.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert, writeTinyXlmr } from './tiny-encoders.ts';
import { CancelledError, UserError } from '../../../../src/main/errors.ts';
import { finetuneEncoder, type FinetuneOptions } from '../../../../src/main/models/transformer/encoder-finetune.ts';
import { HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import { buildEncoderGraph } from '../../../../src/main/models/transformer/encoder-graph.ts';
import { firstPosition, readEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';
import { LANGUAGE_EMBEDDINGS, LANGUAGE_FILE } from '../../../../src/main/models/transformer/hf-weights.ts';
import { alignWithEncoder } from '../../../../src/main/models/transformer/encoder-aligner.ts';
import { readSafetensors } from '../../../../src/main/nn/safetensors.ts';
import { fineTuningLinks } from '../../../../src/main/models/transformer/finetune-supervision.ts';
import { Program } from '../../../../src/main/nn/session.ts';
import { encoderFeeds } from '../../../../src/main/models/transformer/hf-encoder.ts';

const dir = tempDir();
const { src, tgt } = samplePairs(8);
const gold = src.map((s, k) => {
  const n = Math.min(s.length, tgt[k].length, 6);
  return Array.from({ length: n }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null }));
});
const bert = join(dir, 'bert');
writeTinyBert(bert);
const xlmr = join(dir, 'xlmr');
writeTinyXlmr(xlmr);

/** transformers' BertModel / XLMRobertaModel state_dict for a 2-layer config (both share the names). */
function expectedShapes(V: number, P: number, types: number): Record<string, number[]> {
  const D = 32,
    F = 64;
  const out: Record<string, number[]> = {
    'embeddings.word_embeddings.weight': [V, D],
    'embeddings.position_embeddings.weight': [P, D],
    'embeddings.token_type_embeddings.weight': [types, D],
    'embeddings.LayerNorm.weight': [D],
    'embeddings.LayerNorm.bias': [D],
    'pooler.dense.weight': [D, D],
    'pooler.dense.bias': [D],
  };
  for (const l of [0, 1]) {
    const p = `encoder.layer.${l}`;
    Object.assign(out, {
      [`${p}.attention.self.query.weight`]: [D, D],
      [`${p}.attention.self.query.bias`]: [D],
      [`${p}.attention.self.key.weight`]: [D, D],
      [`${p}.attention.self.key.bias`]: [D],
      [`${p}.attention.self.value.weight`]: [D, D],
      [`${p}.attention.self.value.bias`]: [D],
      [`${p}.attention.output.dense.weight`]: [D, D],
      [`${p}.attention.output.dense.bias`]: [D],
      [`${p}.attention.output.LayerNorm.weight`]: [D],
      [`${p}.attention.output.LayerNorm.bias`]: [D],
      [`${p}.intermediate.dense.weight`]: [F, D],
      [`${p}.intermediate.dense.bias`]: [F],
      [`${p}.output.dense.weight`]: [D, F],
      [`${p}.output.dense.bias`]: [D],
      [`${p}.output.LayerNorm.weight`]: [D],
      [`${p}.output.LayerNorm.bias`]: [D],
    });
  }
  return out;
}

const base = (encoder: string, out: string): FinetuneOptions => ({
  encoder,
  src,
  tgt,
  gold,
  out: join(dir, out),
  epochs: 4,
  batch: 8,
  lr: 2e-3,
  log: () => {},
});

test.each([
  ['BERT', 'BertModel', bert],
  ['XLM-R', 'XLMRobertaModel', xlmr],
])(
  '%s: TR+AWP+WTR+RTL lowers the loss; the folder is a %s checkpoint that reopens with the trained hidden states and aligns',
  async (_n, arch, encoder) => {
    const seen: string[] = [];
    const r = await finetuneEncoder(
      {
        ...base(encoder, `out-${arch}`),
        objectives: ['tr', 'awp', 'wtr', 'rtl'],
        rejected: src.map((_, k) => (k === 0 ? [{ s: 0, t: 1 }] : [])),
      },
      { progress: ({ message }) => void (message && seen.push(message)), signal: new AbortController().signal },
    );
    expect(r.epochs).toHaveLength(4);
    expect(r.epochs[3].loss).toBeLessThan(r.epochs[0].loss * 0.9);
    expect(r.pairs).toMatchObject({ gold: 8, model: 0, rejected: 1 });
    expect(r.device).toBe('cpu');
    expect(seen.some((m) => m.startsWith('fine-tuning: epoch 4/4'))).toBe(true);

    const config = readEncoderConfig(encoder);
    const saved = readSafetensors(join(r.out, 'model.safetensors')).tensors;
    const want = expectedShapes(config.vocabSize, config.maxPositions, config.typeVocab);
    expect([...saved.keys()].sort()).toEqual(Object.keys(want).sort());
    for (const [name, t] of saved) expect([name, ...t.dims]).toEqual([name, ...want[name]]);
    expect(JSON.parse(readFileSync(join(r.out, 'config.json'), 'utf8')).architectures).toEqual([arch]);
    expect(readFileSync(join(r.out, 'tokenizer.json'), 'utf8')).toBe(readFileSync(join(encoder, 'tokenizer.json'), 'utf8'));
    const record = JSON.parse(readFileSync(join(r.out, 'mekong-finetune.json'), 'utf8'));
    expect(record).toMatchObject({ objectives: ['tr', 'awp', 'wtr', 'rtl'], device: 'cpu', epochs: 4 });
    expect(record.losses.map((l: { loss: number }) => l.loss)).toEqual(r.epochs.map((e) => e.loss));
    // weights changed, and the reopened folder gives the trained weights' hidden states
    const before = readSafetensors(join(encoder, 'model.safetensors')).tensors.get('encoder.layer.1.output.dense.weight')!
      .data as Float32Array;
    const after = saved.get('encoder.layer.1.output.dense.weight')!.data as Float32Array;
    expect(after.some((x, i) => Math.abs(x - before[i]) > 1e-4)).toBe(true);
    const reopened = HfEncoder.open(r.out);
    const sents = reopened.encode([src[0], tgt[1]]);
    const [h] = await reopened.hiddenStates(sents, [2]);
    const { graph, hidden } = buildEncoderGraph(config, r.weights);
    const prog = await Program.compile(graph, { h: hidden[2] }, { device: 'cpu' });
    for (const [k, s] of sents.entries()) {
      const { feeds } = encoderFeeds(config, [s]);
      const mem = (await prog.run({ ...feeds, ...Object.fromEntries(r.weights) })).h.data as Float32Array;
      expect(Math.max(...h[k].map((x, i) => Math.abs(x - mem[i])))).toBeLessThan(1e-5);
    }
    await prog.release();
    const links = await alignWithEncoder(reopened, 'awesome', src.slice(0, 3), tgt.slice(0, 3), { layer: 2 });
    expect(links).toHaveLength(3);
    expect(links.flat().length).toBeGreaterThan(0);
    await reopened.release();
  },
);

test('pairs without gold learn from the aligner links of probability ≥ the threshold; none above it leaves TR alone; frozen word embeddings stay', async () => {
  const r = await finetuneEncoder({ ...base(bert, 'model-links'), gold: undefined, epochs: 1, threshold: 0 });
  expect(r.pairs.model).toBe(8);
  expect(r.pairs.links).toBeGreaterThan(8);
  const strict = await finetuneEncoder({
    ...base(bert, 'model-links-strict'),
    gold: undefined,
    epochs: 1,
    threshold: 1,
    freezeEmbeddings: true,
  });
  const word = 'embeddings.word_embeddings.weight';
  expect(readSafetensors(join(strict.out, 'model.safetensors')).tensors.get(word)!.data).toEqual(
    readSafetensors(join(bert, 'model.safetensors')).tensors.get(word)!.data,
  );
  expect(strict.pairs.links).toBe(0);
  expect(strict.epochs[0].terms.awp).toBe(0);
  expect(strict.epochs[0].terms.tr).toBeGreaterThan(0);
});

test('cancelling stops between steps and writes no folder', async () => {
  const ctl = new AbortController();
  const out = join(dir, 'cancelled');
  const run = finetuneEncoder(
    { ...base(bert, 'cancelled'), batch: 2 },
    {
      progress: ({ done, message }) => {
        if (message?.startsWith('fine-tuning') && done >= 1) ctl.abort();
      },
      signal: ctl.signal,
    },
  );
  await expect(run).rejects.toBeInstanceOf(CancelledError);
  expect(existsSync(out)).toBe(false);
});

test.each<[string, Partial<FinetuneOptions>, RegExp]>([
  ['unknown objective', { objectives: ['tr', 'mlm' as never] }, /unknown objective "mlm"/],
  ['negative lr', { lr: -1 }, /lr must be a number > 0/],
  ['fractional epochs', { epochs: 1.5 }, /epochs must be a whole number/],
  ['layer beyond the model', { layer: 7 }, /layer 7 does not exist .* layers 1 to 2/],
  ['RTL deeper than the model', { objectives: ['rtl'], rtlLayers: 3 }, /last 3 layers, but .* has 2/],
  [
    'gold link outside a pair',
    { gold: gold.map((g, k) => (k === 2 ? [{ s: 99, t: 0, kind: 'sure' as const, score: null }] : g)) },
    /gold links:3: link 99-0 is outside the pair/,
  ],
  ['gold lines ≠ pairs', { gold: gold.slice(1) }, /has 7 lines for 8 sentence pairs/],
  ['out is the encoder', { out: bert }, /is the encoder folder itself/],
  ['no pairs', { src: [], tgt: [] }, /no sentence pairs/],
])('%s: one-line UserError', async (_n, extra, message) => {
  const err = await finetuneEncoder({ ...base(bert, 'bad'), ...extra }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UserError);
  expect((err as Error).message).toMatch(message);
  expect((err as Error).message).not.toContain('\n');
});

test('an output folder holding other files is refused before training', async () => {
  const out = join(dir, 'busy');
  mkdirSync(out);
  writeFileSync(join(out, 'notes.txt'), 'mine');
  await expect(finetuneEncoder({ ...base(bert, 'busy') })).rejects.toThrow(/not empty and not a previous fine-tuning/);
});

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('mekong finetune: writes the folder, and bad input is a one-line error', () => {
  const S = join(dir, 'lo.txt'),
    T = join(dir, 'th.txt'),
    G = join(dir, 'gold.txt'),
    bad = join(dir, 'bad-gold.txt');
  writeFileSync(S, src.map((s) => s.join(' ') + '\n').join(''));
  writeFileSync(T, tgt.map((s) => s.join(' ') + '\n').join(''));
  writeFileSync(G, gold.map((g) => g.map((l) => `${l.s}-${l.t}`).join(' ') + '\n').join(''));
  writeFileSync(bad, '0-0\n0-x\n');
  const out = join(dir, 'cli-out');
  const ok = mekong(
    'finetune',
    '--encoder',
    xlmr,
    '--src',
    S,
    '--tgt',
    T,
    '--gold',
    G,
    '--objectives',
    'tr,wtr',
    '--epochs',
    '1',
    '--batch',
    '4',
    '--device',
    'cpu',
    '--out',
    out,
  );
  expect(ok.err).toMatch(/2 steps on cpu, final epoch loss [\d.]+; links from gold for 8 pairs/);
  expect(ok.code).toBe(0);
  expect(existsSync(join(out, 'model.safetensors'))).toBe(true);
  for (const [args, msg] of [
    [['--objectives', 'tr,foo'], /unknown objective "foo"/],
    [['--gold', bad], /bad-gold\.txt:2: bad link "0-x"/],
    [['--lr', 'fast'], /--lr must be a number, got "fast"/],
    [['--alpha', '-1'], /alpha must be a number ≥ 0/],
  ] as [string[], RegExp][]) {
    const r = mekong('finetune', '--encoder', bert, '--src', S, '--tgt', T, '--out', join(dir, 'cli-bad'), ...args);
    expect(r.code).not.toBe(0);
    expect(r.err.trim()).toMatch(msg);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  }
});

test('model links: a rejected one is never a positive and is kept as a negative; gold pairs keep their gold', async () => {
  const open = () => HfEncoder.open(bert, { log: () => {} });
  const all = await fineTuningLinks(open, src, tgt, undefined, undefined, { method: 'awesome', threshold: 0 });
  const no = all[1].links[0];
  const g = src.map((_, k) => (k === 0 ? gold[0] : null));
  const r = await fineTuningLinks(
    open,
    src,
    tgt,
    g,
    src.map((_, k) => (k === 1 ? [no] : null)),
    { method: 'awesome', threshold: 0 },
  );
  expect(r[0]).toMatchObject({ from: 'gold', links: gold[0].map((l) => ({ s: l.s, t: l.t })) });
  expect(r[1].from).toBe('model');
  expect(r[1].links).toEqual(all[1].links.filter((l) => l.s !== no.s || l.t !== no.t));
  expect(r[1].rejected).toEqual([no]);
});

test('cancelling while the aligner finds the supervision links stops too', async () => {
  const ctl = new AbortController();
  const run = finetuneEncoder(
    { ...base(bert, 'cancelled-early'), gold: undefined },
    { progress: ({ message }) => void (message?.startsWith('finding') && ctl.abort()), signal: ctl.signal },
  );
  await expect(run).rejects.toBeInstanceOf(CancelledError);
  expect(existsSync(join(dir, 'cancelled-early'))).toBe(false);
});

test("language embeddings (seed 000 §6.1): trained with every objective, saved beside transformers' tensors, and each side of a pair gets its own", async () => {
  const r = await finetuneEncoder({
    ...base(bert, 'out-lang'),
    epochs: 2,
    objectives: ['tr', 'awp', 'wtr', 'rtl'],
    languageEmbeddings: true,
  });
  expect(r.epochs[1].loss).toBeLessThan(r.epochs[0].loss);
  const config = readEncoderConfig(bert);
  const saved = readSafetensors(join(r.out, 'model.safetensors')).tensors;
  expect([...saved.keys()].sort()).toEqual(Object.keys(expectedShapes(config.vocabSize, config.maxPositions, config.typeVocab)).sort());
  const E = readSafetensors(join(r.out, LANGUAGE_FILE)).tensors.get(LANGUAGE_EMBEDDINGS)!;
  expect(E.dims).toEqual([2, config.hidden]);
  expect(JSON.parse(readFileSync(join(r.out, 'mekong-finetune.json'), 'utf8')).languageEmbeddings).toBe(true);

  // h₀ of the first token read as a target: LN(E_word[id] + E_pos[first] + E_type[0] + E_lang[1]), by hand
  const reopened = HfEncoder.open(r.out);
  const [sent] = reopened.encode([src[0]]);
  const [[asSrc, asTgt]] = await reopened.hiddenStates([sent, sent], [0], undefined, [0, 1]);
  await reopened.release();
  const D = config.hidden;
  const w = (name: string) => r.weights.get(name)!.data as Float32Array;
  const row = (name: string, k: number) => w(name).subarray(k * D, (k + 1) * D);
  const x = Array.from({ length: D }, (_, d) => {
    const word = row('embeddings.word_embeddings.weight', sent.ids[0])[d];
    const pos = row('embeddings.position_embeddings.weight', firstPosition(config))[d];
    return word + pos + row('embeddings.token_type_embeddings.weight', 0)[d] + row(LANGUAGE_EMBEDDINGS, 1)[d];
  });
  const mean = x.reduce((a, v) => a + v, 0) / D;
  const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / D;
  const want = x.map(
    (v, d) =>
      ((v - mean) / Math.sqrt(variance + config.layerNormEps)) * w('embeddings.LayerNorm.weight')[d] + w('embeddings.LayerNorm.bias')[d],
  );
  want.forEach((v, d) => expect(asTgt[d]).toBeCloseTo(v, 4));
  expect(Math.max(...asSrc.map((v, i) => Math.abs(v - asTgt[i])))).toBeGreaterThan(1e-3);

  // fine-tuning that folder again without language embeddings keeps them (they are part of the model now);
  // a folder saved without them has no stale file: transformers' bare model is all there is
  const again = await finetuneEncoder({ ...base(r.out, 'out-lang-2'), epochs: 1 });
  expect(existsSync(join(again.out, LANGUAGE_FILE))).toBe(true);
  const plain = await finetuneEncoder({ ...base(bert, 'out-lang'), epochs: 1 });
  expect(existsSync(join(plain.out, LANGUAGE_FILE))).toBe(false);
  const bare = HfEncoder.open(plain.out);
  const [[a, b]] = await bare.hiddenStates([sent, sent], [0], undefined, [0, 1]);
  await bare.release();
  expect(a).toEqual(b);
});
