// The link decision learned from held-out gold links (link-classifier.ts through aligner.ts's
// extraction), on embeddings that say nothing (random vectors): whatever the linguist's
// held-out links show — here, that words link along the diagonal — the learned decision
// reproduces on the other pairs, which the symmetrisation heuristic cannot; with too few
// held-out links the heuristic decides as before; scores are link probabilities. Which gold
// pairs are held out of training: an even share of those with gold, from a minimum on.
import { expect, test } from 'vitest';
import { extractLinks, MIN_HELD_OUT_LINKS } from '../../../../src/main/models/bilstm/aligner.ts';
import { HELD_OUT_SHARE, heldOutPairs, MIN_GOLD_PAIRS_TO_HOLD_OUT } from '../../../../src/main/models/bilstm/held-out.ts';
import type { PairEmbeddings } from '../../../../src/main/models/bilstm/embedder.ts';
import { Rng } from '../../../../src/main/nn/index.ts';
import { aer } from './synthetic.ts';

const DIM = 8;

/** Pairs of 4–8 words, same length both sides, diagonal gold, random embeddings. */
function diagonalCorpus(pairs: number, seed: number) {
  const rng = new Rng(seed);
  const src: string[][] = [],
    tgt: string[][] = [],
    gold: { s: number; t: number }[][] = [];
  const e: PairEmbeddings = { dim: DIM, src: [], tgt: [] };
  for (let k = 0; k < pairs; k++) {
    const n = 4 + rng.int(5);
    src.push(Array.from({ length: n }, () => `s${rng.int(30)}`));
    tgt.push(Array.from({ length: n }, () => `t${rng.int(30)}`));
    gold.push(Array.from({ length: n }, (_, i) => ({ s: i, t: i })));
    e.src.push(Float32Array.from({ length: n * DIM }, () => rng.normal()));
    e.tgt.push(Float32Array.from({ length: n * DIM }, () => rng.normal()));
  }
  return { src, tgt, gold, e };
}

const c = diagonalCorpus(80, 5);
const HELD = 40;
const heldOut = (pairs: number) => c.gold.map((g, k) => (k < pairs ? g : []));
const others = (links: { s: number; t: number }[][]) => links.slice(HELD);

test('the decision learned from held-out links reproduces their pattern on the other pairs', () => {
  const heuristic = extractLinks(c.src, c.tgt, c.e);
  const learned = extractLinks(c.src, c.tgt, c.e, { heldOut: heldOut(HELD) });
  expect(aer(others(heuristic), others(c.gold))).toBeGreaterThan(0.5);
  expect(aer(others(learned), others(c.gold))).toBeLessThan(0.1);
  for (const l of learned.flat()) expect(l.score! > 0 && l.score! < 1).toBe(true);
});

test('too few held-out links leave the decision to the symmetrisation heuristic', () => {
  const few = heldOut(3);
  expect(few.flat().length).toBeLessThan(MIN_HELD_OUT_LINKS);
  expect(extractLinks(c.src, c.tgt, c.e, { heldOut: few })).toEqual(extractLinks(c.src, c.tgt, c.e, { gold: few }));
});

test('held-out pairs: an even share of the pairs with gold, none below the minimum or at share 0', () => {
  const link = [{ s: 0, t: 0 }];
  const gold = (n: number) => Array.from({ length: 2 * n }, (_, k) => (k % 2 ? link : undefined));
  const held = heldOutPairs(gold(MIN_GOLD_PAIRS_TO_HOLD_OUT), HELD_OUT_SHARE);
  expect(held.filter(Boolean)).toHaveLength(MIN_GOLD_PAIRS_TO_HOLD_OUT * HELD_OUT_SHARE);
  expect(held.slice(0, 8)).toEqual([false, false, false, false, false, false, false, true]);
  held.forEach((h, k) => h && expect(k % 2).toBe(1));
  expect(heldOutPairs(gold(MIN_GOLD_PAIRS_TO_HOLD_OUT - 1), HELD_OUT_SHARE).some(Boolean)).toBe(false);
  expect(heldOutPairs(gold(MIN_GOLD_PAIRS_TO_HOLD_OUT), 0).some(Boolean)).toBe(false);
});

test('held-out pairs of a corpus with splits: its dev and test pairs with gold, else the share as without splits', () => {
  const link = [{ s: 0, t: 0 }];
  const gold = Array.from({ length: 2 * MIN_GOLD_PAIRS_TO_HOLD_OUT }, (_, k) => (k % 2 ? link : undefined));
  const split = gold.map((_, k) => (k === 1 || k === 2 ? 'dev' : k === 5 ? 'test' : 'train'));
  // pair 2 is dev but has no gold: nothing to hold out there
  expect(heldOutPairs(gold, HELD_OUT_SHARE, split).flatMap((h, k) => (h ? [k] : []))).toEqual([1, 5]);
  // every pair with gold in train: the share, as for a corpus without splits
  expect(heldOutPairs(gold, HELD_OUT_SHARE, ['train', 'train', 'dev', ...gold.slice(3).map(() => 'train')])).toEqual(
    heldOutPairs(gold, HELD_OUT_SHARE),
  );
});

test('held-out pairs whose every cell is linked still give a decision (it links every cell)', () => {
  const one = diagonalCorpus(120, 9);
  const src = one.src.map((s) => s.slice(0, 1)),
    tgt = one.tgt.map((t) => t.slice(0, 1));
  const e: PairEmbeddings = { dim: DIM, src: one.e.src.map((v) => v.slice(0, DIM)), tgt: one.e.tgt.map((v) => v.slice(0, DIM)) };
  const links = extractLinks(src, tgt, e, { heldOut: src.map((_, k) => (k < 110 ? [{ s: 0, t: 0 }] : [])) });
  for (const ls of links.slice(110)) expect(ls).toEqual([{ s: 0, t: 0, kind: 'sure', score: expect.closeTo(1, 3) }]);
});
