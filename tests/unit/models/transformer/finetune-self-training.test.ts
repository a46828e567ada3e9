// awesome-align's self-training with its labels recomputed during training (soLabels
// 'recomputed', `mekong finetune --so-labels recomputed`) on a tiny BERT built by the test,
// one step per epoch: the labels of step 0 are those the untouched encoder gives, the labels
// of step e are exactly those the checkpoint saved after epoch e gives (the model as it stood),
// and they change as the model trains; with 'fixed' they are found once and never again;
// awesome-align's own objective SO, on labels recomputed each step, lowers its loss.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert } from './tiny-encoders.ts';
import { finetuneEncoder, type FinetuneOptions } from '../../../../src/main/models/transformer/encoder-finetune.ts';
import { alignWithEncoder } from '../../../../src/main/models/transformer/encoder-aligner.ts';
import { HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';
import type { LinkRef } from '../../../../src/shared/link-set.ts';

const dir = tempDir();
const { src, tgt } = samplePairs(8);
const bert = join(dir, 'bert');
writeTinyBert(bert);

const text = (links: readonly LinkRef[]) =>
  links
    .map((l) => `${l.s}-${l.t}`)
    .sort()
    .join(' ');

/** The awesome links (threshold 0: every link) of every pair by the encoder in `folder`. */
async function linksOf(folder: string): Promise<string[]> {
  const enc = HfEncoder.open(folder);
  try {
    return (await alignWithEncoder(enc, 'awesome', src, tgt)).map(text);
  } finally {
    await enc.release();
  }
}

const options = (out: string): FinetuneOptions => ({
  encoder: bert,
  src,
  tgt,
  out,
  objectives: ['wtr', 'awp'],
  epochs: 3,
  batch: 8,
  lr: 5e-3,
  threshold: 0,
  dropout: false,
  log: () => {},
});

test('recomputed labels are re-extracted before each step from the model as it stands, and change as it trains', async () => {
  const seen: ReadonlyMap<number, readonly LinkRef[]>[] = [];
  const saved = new Map<number, string>();
  const r = await finetuneEncoder({
    ...options(join(dir, 'recomputed')),
    soLabels: 'recomputed',
    onLabels: (step, links) => (seen[step] = links),
    checkpoints: {
      every: 1,
      save: (epoch, m) => {
        saved.set(epoch, join(dir, `epoch-${epoch}`));
        m.save(saved.get(epoch)!);
      },
    },
  });
  expect(seen).toHaveLength(3);
  for (const s of seen) expect([...s.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  const labels = (step: number) => src.map((_, k) => text(seen[step].get(k)!));
  // step 0: the untouched encoder's links, those the fixed labels are made of
  expect(labels(0)).toEqual(await linksOf(bert));
  // step 1 and 2: the links of the model saved after epoch 1 and 2 (one step each)
  expect(labels(1)).toEqual(await linksOf(saved.get(1)!));
  expect(labels(2)).toEqual(await linksOf(saved.get(2)!));
  // the labels moved with the model
  const changed = src.filter((_, k) => labels(2)[k] !== labels(0)[k]).length;
  expect(changed).toBeGreaterThan(0);
  expect(r.labels.recomputed).toBe(24);
  expect(r.labels.changed).toBeGreaterThanOrEqual(changed);
  expect(JSON.parse(readFileSync(join(r.out, 'mekong-finetune.json'), 'utf8')).supervision.labels).toBe('recomputed');
});

test("SO alone on recomputed labels (awesome-align's self-training): its loss falls epoch by epoch, weighted by ε", async () => {
  const r = await finetuneEncoder({
    ...options(join(dir, 'so')),
    objectives: ['so'],
    epsilon: 2,
    epochs: 4,
    soLabels: 'recomputed',
    // the random encoder's link probabilities are flat: at 0 every subword pair is a label (SO ≈ −2 from the start), at 0.2 none is
    threshold: 0.05,
  });
  const so = r.epochs.map((e) => e.terms.so!);
  expect(so).toHaveLength(4);
  // −1/N Σ (mass on own links): between −2 and 0, and lower after each epoch
  for (const x of so) {
    expect(x).toBeLessThan(0);
    expect(x).toBeGreaterThan(-2);
  }
  for (let e = 1; e < so.length; e++) expect(so[e]).toBeLessThan(so[e - 1]);
  expect(so[3]).toBeLessThan(so[0] - 0.3);
  expect(r.labels.changed).toBeGreaterThan(0);
  expect(r.epochs[0].loss).toBeCloseTo(2 * so[0], 4);
  expect(r.labels.recomputed).toBe(32);
  const record = JSON.parse(readFileSync(join(r.out, 'mekong-finetune.json'), 'utf8'));
  expect(record.objectives).toEqual(['so']);
  expect(record.weights.epsilon).toBe(2);
});

test('fixed labels are found once: nothing is recomputed', async () => {
  let calls = 0;
  const r = await finetuneEncoder({ ...options(join(dir, 'fixed')), onLabels: () => calls++ });
  expect(calls).toBe(0);
  expect(r.labels).toEqual({ recomputed: 0, changed: 0 });
  expect(JSON.parse(readFileSync(join(r.out, 'mekong-finetune.json'), 'utf8')).supervision.labels).toBe('fixed');
});

test('mekong finetune --so-labels recomputed says how often the labels changed', () => {
  const S = join(dir, 'cli.lo'),
    T = join(dir, 'cli.th');
  writeFileSync(S, src.map((s) => s.join(' ') + '\n').join(''));
  writeFileSync(T, tgt.map((s) => s.join(' ') + '\n').join(''));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['bin/mekong.js', 'finetune', '--encoder', bert, '--src', S, '--tgt', T, ...args], { encoding: 'utf8' });
  const ok = run(
    '--out',
    join(dir, 'cli-out'),
    '--so-labels',
    'recomputed',
    '--threshold',
    '0',
    '--lr',
    '0.005',
    '--batch',
    '8',
    '--epochs',
    '2',
  );
  expect(ok.status, ok.stderr).toBe(0);
  expect(ok.stderr).toMatch(/self-training: the aligner's links found again 16 times for a pair, \d+ of them different/);
  const bad = run('--out', join(dir, 'cli-bad'), '--so-labels', 'sometimes');
  expect(bad.status).not.toBe(0);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toMatch(/--so-labels.*sometimes/);
});
