// End to end: a tiny contrastive sentence encoder (embedding → masked mean pooling →
// linear, shared by both languages, symmetric InfoNCE) trained on 2,000 real English–French
// caption pairs, then retrieving the French side of 500 held-out pairs among all 500.
// Reads ../shared/data beside the repository (not shipped); skips when it is absent.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { linear, embedding } from '../../../src/main/nn/blocks/layers.ts';
import { infoNce } from '../../../src/main/nn/blocks/losses.ts';
import { meanPool } from '../../../src/main/nn/blocks/pooling.ts';
import { Scope } from '../../../src/main/nn/blocks/scope.ts';
import { Graph, type Value } from '../../../src/main/nn/graph.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { l2Normalize } from '../../../src/main/nn/ops/all-ops.ts';
import { Trainer } from '../../../src/main/nn/trainer.ts';
import { Program } from '../../../src/main/nn/session.ts';
import { floats, int64s, type Tensor } from '../../../src/main/nn/tensor.ts';

const dir = new URL('../../../../shared/data/bench-corpora/', import.meta.url);
const TRAIN = 2000;
const HELD_OUT = 500;
const BATCH = 100;
const DIM = 64;

function lines(name: string): string[] {
  return readFileSync(new URL(name, dir), 'utf8')
    .split('\n')
    .slice(0, TRAIN + HELD_OUT);
}

/** Word ids over both languages (0 = padding, 1 = unknown). */
function vocabulary(sentences: string[]): Map<string, number> {
  const vocab = new Map<string, number>();
  for (const s of sentences) for (const w of s.split(' ')) if (!vocab.has(w)) vocab.set(w, vocab.size + 2);
  return vocab;
}

function batch(sentences: string[], vocab: Map<string, number>): { ids: Tensor; mask: Tensor } {
  const toks = sentences.map((s) => s.split(' ').map((w) => vocab.get(w) ?? 1));
  const t = Math.max(...toks.map((x) => x.length));
  const ids = toks.flatMap((x) => [...x, ...new Array<number>(t - x.length).fill(0)]);
  return {
    ids: int64s(ids, [sentences.length, t]),
    mask: floats(
      ids.map((i) => (i ? 1 : 0)),
      [sentences.length, t],
    ),
  };
}

function encoder(s: Scope, ids: Value, mask: Value, vocab: number): Value {
  return linear(s.sub('proj'), meanPool(embedding(s.sub('emb'), ids, vocab, DIM), mask), DIM);
}

function build(vocab: number) {
  const g = new Graph();
  const s = new Scope(g, new Rng(1));
  const side = (n: string) => [g.input(`${n}.ids`, 'int64', ['B', `T_${n}`]), g.input(`${n}.mask`, 'float32', ['B', `T_${n}`])];
  const [enIds, enMask] = side('en');
  const [frIds, frMask] = side('fr');
  const en = encoder(s, enIds, enMask, vocab);
  const fr = encoder(s, frIds, frMask, vocab);
  return { g, loss: infoNce(en, fr, { temperature: 0.05, symmetric: true }), en: l2Normalize(en), fr: l2Normalize(fr) };
}

/** Share of French sentences whose nearest English vector (cosine) is their own pair. */
function accuracyAt1(en: Float32Array, fr: Float32Array, n: number): number {
  let hits = 0;
  for (let i = 0; i < n; i++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < DIM; k++) s += fr[i * DIM + k] * en[j * DIM + k];
      if (s > bestScore) [best, bestScore] = [j, s];
    }
    if (best === i) hits++;
  }
  return hits / n;
}

describe.skipIf(!existsSync(dir))('contrastive sentence encoder on real pairs', () => {
  test('held-out retrieval accuracy rises far above chance', async () => {
    const [en, fr] = [lines('m30k.en'), lines('m30k.fr')];
    const vocab = vocabulary([...en.slice(0, TRAIN), ...fr.slice(0, TRAIN)]);
    const m = build(vocab.size + 2);
    const trainer = await Trainer.create(m.g, m.loss, { schedule: { base: 0.01, warmup: 10, total: 200, decay: 'cosine' }, device: 'cpu' });
    const order = new Rng(2);
    for (let epoch = 0; epoch < 10; epoch++) {
      const idx = order.shuffle(Array.from({ length: TRAIN }, (_, i) => i));
      for (let b = 0; b < TRAIN; b += BATCH) {
        const pick = idx.slice(b, b + BATCH);
        const e = batch(
          pick.map((i) => en[i]),
          vocab,
        );
        const f = batch(
          pick.map((i) => fr[i]),
          vocab,
        );
        await trainer.step({ 'en.ids': e.ids, 'en.mask': e.mask, 'fr.ids': f.ids, 'fr.mask': f.mask });
      }
    }
    const fwd = await Program.compile(m.g, { en: m.en, fr: m.fr }, { device: 'cpu' });
    const e = batch(en.slice(TRAIN), vocab);
    const f = batch(fr.slice(TRAIN), vocab);
    const out = await fwd.run({
      'en.ids': e.ids,
      'en.mask': e.mask,
      'fr.ids': f.ids,
      'fr.mask': f.mask,
      ...Object.fromEntries(trainer.state.params),
    });
    const acc = accuracyAt1(out.en.data as Float32Array, out.fr.data as Float32Array, HELD_OUT);
    console.info(`nn e2e: held-out fr→en retrieval accuracy@1 ${(100 * acc).toFixed(1)}% (chance ${(100 / HELD_OUT).toFixed(1)}%)`);
    expect(acc).toBeGreaterThan(0.3); // chance is 1/500
    await fwd.release();
    await trainer.release();
  });
});
