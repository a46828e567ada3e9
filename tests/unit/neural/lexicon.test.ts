// The neural lexicon (EM with agreement over the pairs' similarity priors) on hand-made
// embeddings: the priors decide where they are clear, the corpus decides where they are
// not (a word whose pairs say nothing is resolved by what its neighbours already explain),
// entries come best first, at most `top` per word, and empty pairs are skipped.
import { expect, test } from 'vitest';
import { neuralLexicon } from '../../../src/main/align/neural/lexicon.ts';
import type { PairEmbeddings } from '../../../src/main/align/neural/embedder.ts';

const X = [1, 0], Y = [0, 1];
const rows = (...vs: number[][]) => Float32Array.from(vs.flat());

function lexicon(pairs: [string, string, number[][], number[][]][], top = 5) {
  const e: PairEmbeddings = { dim: 2, src: pairs.map((p) => rows(...p[2])), tgt: pairs.map((p) => rows(...p[3])) };
  const split = (s: string) => s.split(' ').filter(Boolean);
  return neuralLexicon(pairs.map((p) => split(p[0])), pairs.map((p) => split(p[1])), e, top);
}

const bestOf = (entries: ReturnType<typeof lexicon>, w: string) => entries.find((e) => e.src === w)?.tgt;

test('the similarity priors decide within a pair', () => {
  const lex = lexicon([['a b', 'x y', [Y, X], [X, Y]]]);
  expect(bestOf(lex, 'a')).toBe('y');
  expect(bestOf(lex, 'b')).toBe('x');
});

test('the corpus decides where the priors are flat: b takes what a does not explain', () => {
  const flat: [string, string, number[][], number[][]][] = [['a b', 'x y', [X, X], [X, X]], ['a', 'x', [X], [X]]];
  const lex = lexicon(flat);
  expect(bestOf(lex, 'a')).toBe('x');
  expect(bestOf(lex, 'b')).toBe('y');
  const b = lex.filter((e) => e.src === 'b');
  expect(b[0].score).toBeGreaterThan(2 * b[1].score);
});

test('best first, at most `top` per word, scores in (0, 1], empty pairs skipped', () => {
  const lex = lexicon([['a b c', 'x y z', [X, Y, X], [Y, X, X]], ['', 'x', [], [X]], ['c', 'z', [X], [X]]], 2);
  for (const w of ['a', 'b', 'c']) {
    const mine = lex.filter((e) => e.src === w);
    expect(mine.length).toBe(2);
    expect(mine[0].score).toBeGreaterThanOrEqual(mine[1].score);
    for (const e of mine) expect(e.score > 0 && e.score <= 1).toBe(true);
  }
  expect(bestOf(lex, 'c')).toBe('z');
});
