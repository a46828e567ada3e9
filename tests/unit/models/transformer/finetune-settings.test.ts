// The papers' fine-tuning settings on tiny BERTs written by the tests (real ONNX training):
// --max-length cuts the subwords fed, --max-steps stops at that many optimiser steps,
// accumulation of K micro-batches of B pairs makes the same update as one batch of B×K (the
// per-pair objectives, dropout off), dropout is in the training graph at the config's rates
// and nowhere else, DAP's eq. 7 weighs TR 1 under tr,rtl, and `mekong finetune --dev-src`
// writes the checkpoint with the best dev retrieval P@1 (or the lowest dev AER) to --out.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from './tiny-encoders.ts';
import { UserError } from '../../../../src/main/errors.ts';
import { finetuneEncoder, type FinetuneOptions } from '../../../../src/main/models/transformer/encoder-finetune.ts';
import { buildEncoderGraph } from '../../../../src/main/models/transformer/encoder-graph.ts';
import { buildObjectiveGraph, OBJECTIVE_DEFAULTS } from '../../../../src/main/models/transformer/finetune-objectives.ts';
import { readEncoderConfig } from '../../../../src/main/models/transformer/hf-config.ts';
import { readEncoderWeights } from '../../../../src/main/models/transformer/hf-weights.ts';
import { retrievalP1 } from '../../../../src/main/train/encoder-checkpoint-score.ts';

const dir = tempDir('mekong-finetune-settings-');
const { src, tgt } = samplePairs(16);
const diagonal = (k: number) =>
  Array.from({ length: Math.min(src[k].length, tgt[k].length, 5) }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null }));
const bert = join(dir, 'bert');
writeTinyBert(bert);
const still = join(dir, 'bert-no-dropout');
writeTinyBert(still, { dropout: { hidden: 0, attention: 0 } });

let outs = 0;
const opts = (o: Partial<FinetuneOptions>): FinetuneOptions => ({
  encoder: bert,
  src: src.slice(0, 8),
  tgt: tgt.slice(0, 8),
  gold: src.slice(0, 8).map((_, k) => diagonal(k)),
  out: join(dir, `out-${++outs}`),
  objectives: ['tr', 'wtr'],
  epochs: 1,
  batch: 8,
  lr: 2e-3,
  log: () => {},
  ...o,
});
const record = (out: string) => JSON.parse(readFileSync(join(out, 'mekong-finetune.json'), 'utf8'));

test("--max-length cuts every sentence fed to that many subwords (specials included, whole words); without it, only the encoder's 64 positions cut", async () => {
  const full = await finetuneEncoder(
    opts({ src: src.slice(0, 8).map((s) => s.slice(0, 4)), tgt: tgt.slice(0, 8).map((s) => s.slice(0, 4)), gold: undefined }),
  );
  expect(full.subwords.longest).toBeGreaterThan(12);
  expect(full.subwords.longest).toBeLessThanOrEqual(64);

  const cut = await finetuneEncoder(
    opts({
      src: src.slice(0, 8).map((s) => s.slice(0, 4)),
      tgt: tgt.slice(0, 8).map((s) => s.slice(0, 4)),
      gold: undefined,
      maxLength: 12,
    }),
  );
  expect(cut.subwords.longest).toBeLessThanOrEqual(12);
  expect(cut.subwords.truncated).toBeGreaterThan(full.subwords.truncated);
  expect(record(cut.out).maxLength).toBe(12);
  await expect(finetuneEncoder(opts({ maxLength: 2 }))).rejects.toThrow(
    /max length 2 leaves no room for a word beside the 2 special tokens/,
  );
  await expect(finetuneEncoder(opts({ maxLength: 2 }))).rejects.toBeInstanceOf(UserError);
}, 120_000);

test('--max-steps stops at that many optimiser steps, mid-epoch, and still writes the folder', async () => {
  const steps: number[] = [];
  const r = await finetuneEncoder(
    opts({ batch: 2, epochs: undefined, maxSteps: 6, onEvent: (e) => void (e.type === 'step' && steps.push(e.step)) }),
  );
  // 8 pairs, 2 a step: 4 steps an epoch, so the second epoch stops after its second step
  expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
  expect(r.steps).toBe(6);
  expect(r.epochs.map((e) => e.epoch)).toEqual([1, 2]);
  expect(existsSync(join(r.out, 'model.safetensors'))).toBe(true);
  expect(record(r.out).steps).toBe(6);
}, 120_000);

test('accumulating 2 micro-batches of 4 pairs makes the update of one batch of 8 (per-pair objectives, dropout off)', async () => {
  // 6 pairs: micro-batches of 4 and 2, each weighted by its share of the step's pairs
  const base = {
    src: src.slice(0, 6),
    tgt: tgt.slice(0, 6),
    gold: src.slice(0, 6).map((_, k) => diagonal(k)),
    objectives: ['awp', 'wtr', 'rtl'] as const,
    awpMasks: 64,
    dropout: false,
    epochs: 2,
    lr: 1e-3,
  };
  const one = await finetuneEncoder(opts({ ...base, objectives: [...base.objectives], batch: 8 }));
  const acc = await finetuneEncoder(opts({ ...base, objectives: [...base.objectives], batch: 4, accumulate: 2 }));
  const even = await finetuneEncoder(opts({ ...base, objectives: [...base.objectives], batch: 3, accumulate: 2 }));
  expect(acc.steps).toBe(2);
  for (const r of [acc, even]) {
    r.epochs.forEach((e, i) => expect(Math.abs(e.loss - one.epochs[i].loss)).toBeLessThan(1e-4 * one.epochs[i].loss));
    let worst = 0;
    for (const [name, t] of one.weights) {
      // a key bias shifts every score of a query alike, which softmax ignores: its gradient is 0
      // up to rounding, and AdamW turns that rounding into steps of ±lr either way
      if (name.endsWith('attention.self.key.bias')) continue;
      const a = t.data as Float32Array,
        b = r.weights.get(name)!.data as Float32Array;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
    }
    // a tenth of one step's size (lr 1e-3): a mis-weighted micro-batch turns gradients' signs, steps of 2·lr
    expect(worst).toBeLessThan(1e-4);
  }
  // batch 2 without accumulation takes 3 steps an epoch: a different run
  const small = await finetuneEncoder(opts({ ...base, objectives: [...base.objectives], batch: 2 }));
  expect(small.steps).toBe(6);
  expect(Math.abs(small.epochs[1].loss - one.epochs[1].loss)).toBeGreaterThan(1e-4 * one.epochs[1].loss);
}, 240_000);

test("dropout: in the training graph at config.json's rates, never in the encoder's own graph; rates of 0 train as without dropout", async () => {
  const config = readEncoderConfig(bert);
  expect([config.hiddenDropout, config.attentionDropout]).toEqual([0.1, 0.1]);
  const weights = readEncoderWeights(bert, config);
  const g = buildObjectiveGraph(config, weights, {
    ...OBJECTIVE_DEFAULTS,
    objectives: ['tr'],
    layer: 2,
    dropout: { hidden: 0.2, attention: 0.3, seed: 1 },
  }).graph;
  const rates = g.nodes.filter((n) => n.op === 'Dropout').map((n) => (n.attrs._rate as { f: number }).f);
  // embeddings' output, then per layer: attention probabilities, attention output, feed-forward output
  expect(rates.sort()).toEqual([0.2, 0.2, 0.2, 0.2, 0.2, 0.3, 0.3]);
  expect(buildEncoderGraph(config, weights).graph.nodes.some((n) => n.op === 'Dropout')).toBe(false);

  const losses = async (encoder: string, dropout: boolean) =>
    (await finetuneEncoder(opts({ encoder, dropout, epochs: 2, batch: 4 }))).epochs.map((e) => e.loss);
  const [on, off] = [await losses(bert, true), await losses(bert, false)];
  expect(Math.max(...on.map((x, i) => Math.abs(x - off[i])))).toBeGreaterThan(1e-3);
  expect(await losses(still, true)).toEqual(await losses(still, false));
  expect(record(join(dir, `out-${outs - 1}`)).dropout).toEqual({ hidden: 0, attention: 0 });
}, 240_000);

test("tr,rtl weighs TR 1 (DAP's eq. 7); seed 000's objectives keep 0.8; a weight given is kept", async () => {
  const dap = await finetuneEncoder(opts({ objectives: ['tr', 'rtl'], dropout: false }));
  expect(record(dap.out).weights).toMatchObject({ alpha: 1, delta: 1 });
  const { loss, terms } = dap.epochs[0];
  expect(Math.abs(loss - (terms.tr! + terms.rtl!))).toBeLessThan(1e-4 * loss);
  const wacse = await finetuneEncoder(opts({ objectives: ['tr', 'wtr'], dropout: false }));
  expect(record(wacse.out).weights).toMatchObject({ alpha: 0.8, gamma: 0.1 });
  expect(Math.abs(wacse.epochs[0].loss - (0.8 * wacse.epochs[0].terms.tr! + 0.1 * wacse.epochs[0].terms.wtr!))).toBeLessThan(1e-4);
  const given = await finetuneEncoder(opts({ objectives: ['tr', 'rtl'], alpha: 0.5, dropout: false }));
  expect(record(given.out).weights.alpha).toBe(0.5);
}, 180_000);

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, err: r.stderr };
}

test('mekong finetune --dev-src/--dev-tgt: --out gets the checkpoint of the best dev retrieval P@1, or of the lowest dev AER', async () => {
  const write = (name: string, lines: string[]) => {
    const f = join(dir, name);
    writeFileSync(f, lines.map((l) => `${l}\n`).join(''));
    return f;
  };
  const S = write(
    'train.lo',
    src.slice(0, 8).map((s) => s.join(' ')),
  );
  const T = write(
    'train.th',
    tgt.slice(0, 8).map((s) => s.join(' ')),
  );
  const devSrc = src.slice(8, 16),
    devTgt = tgt.slice(8, 16);
  const DS = write(
    'dev.lo',
    devSrc.map((s) => s.join(' ')),
  );
  const DT = write(
    'dev.th',
    devTgt.map((s) => s.join(' ')),
  );
  const DG = write(
    'dev.gold',
    devSrc.map((_, k) =>
      diagonal(k + 8)
        .map((l) => `${l.s}-${l.t}`)
        .join(' '),
    ),
  );
  const common = ['--encoder', bert, '--src', S, '--tgt', T, '--objectives', 'tr', '--epochs', '4', '--batch', '4', '--lr', '1e-2'];
  const per = (err: string, key: RegExp) =>
    [...err.matchAll(new RegExp(`^epoch (\\d+): .*${key.source} ([\\d.]+)`, 'gm'))].map((m) => ({ epoch: +m[1], value: +m[2] }));
  const chosen = (err: string) => Number(/the checkpoint of epoch (\d+) of 4, best by/.exec(err)?.[1]);

  const byRetrieval = join(dir, 'cli-retrieval');
  const r = mekong('finetune', ...common, '--dev-src', DS, '--dev-tgt', DT, '--select-by', 'retrieval', '--out', byRetrieval);
  expect(r.code, r.err).toBe(0);
  const p1 = per(r.err, /dev retrieval P@1/);
  expect(p1.map((x) => x.epoch)).toEqual([1, 2, 3, 4]);
  const top = p1.reduce((a, b) => (b.value > a.value ? b : a));
  expect(chosen(r.err)).toBe(top.epoch);
  // --out holds that checkpoint: its P@1 each way on the dev pairs is the one logged for that epoch
  const [, ab, ba] = new RegExp(`^epoch ${top.epoch}: .*src→tgt ([\\d.]+), tgt→src ([\\d.]+)`, 'm').exec(r.err)!;
  const got = await retrievalP1(byRetrieval, devSrc, devTgt, { sentence: 'cls' });
  expect([got.srcTgt.toFixed(4), got.tgtSrc.toFixed(4), got.mean.toFixed(4)]).toEqual([ab, ba, top.value.toFixed(4)]);
  // and it is the figure `mekong eval retrieval` gives for that folder
  const ev = spawnSync(
    process.execPath,
    ['bin/mekong.js', 'eval', 'retrieval', '--src', DS, '--tgt', DT, '--encoder', `hf:${byRetrieval}`, '--pooling', 'cls', '--json'],
    { encoding: 'utf8' },
  );
  const json = JSON.parse(ev.stdout) as { p1: { src_tgt: number; tgt_src: number } };
  expect([json.p1.src_tgt.toFixed(4), json.p1.tgt_src.toFixed(4)]).toEqual([ab, ba]);

  const byAer = join(dir, 'cli-aer');
  const a = mekong('finetune', ...common, '--dev-src', DS, '--dev-tgt', DT, '--dev-gold', DG, '--out', byAer);
  expect(a.code, a.err).toBe(0);
  const aer = per(a.err, /dev AER/);
  expect(aer).toHaveLength(4);
  expect(chosen(a.err)).toBe(aer.reduce((x, y) => (y.value < x.value ? y : x)).epoch);

  const bad = mekong('finetune', ...common, '--dev-src', DS, '--dev-tgt', DT, '--select-by', 'aer', '--out', join(dir, 'cli-bad'));
  expect(bad.code).not.toBe(0);
  expect(bad.err.trim()).toBe("mekong: --select-by aer needs the dev pairs' gold links: --dev-gold");
}, 480_000);
