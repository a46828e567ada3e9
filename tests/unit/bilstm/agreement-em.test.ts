// EM with agreement over the pairs' similarity priors, through the neural lexicon and the
// link extraction, on hand-made embeddings: the priors decide where they are clear, the
// corpus decides where they are not (a word whose pairs say nothing is resolved by what its
// neighbours already explain, or what a gold link says), lexicon entries come best first, at
// most `top` per word, and empty pairs are skipped.
import { expect, test } from 'vitest';
import { type ExtractOptions, extractLinks } from '../../../src/main/models/bilstm/aligner.ts';
import { neuralLexicon } from '../../../src/main/models/bilstm/word-translations.ts';
import type { PairEmbeddings } from '../../../src/main/models/bilstm/embedder.ts';

const X = [1, 0],
  Y = [0, 1];
const rows = (...vs: number[][]) => Float32Array.from(vs.flat());

type Pair = [string, string, number[][], number[][]];
const split = (s: string) => s.split(' ').filter(Boolean);
const embeddings = (pairs: Pair[]): PairEmbeddings => ({
  dim: 2,
  src: pairs.map((p) => rows(...p[2])),
  tgt: pairs.map((p) => rows(...p[3])),
});
const lexicon = (pairs: Pair[], top = 5) =>
  neuralLexicon(
    pairs.map((p) => split(p[0])),
    pairs.map((p) => split(p[1])),
    embeddings(pairs),
    top,
  );
const links = (pairs: Pair[], o: ExtractOptions = {}) =>
  extractLinks(
    pairs.map((p) => split(p[0])),
    pairs.map((p) => split(p[1])),
    embeddings(pairs),
    o,
  ).map((ls) => ls.map((l) => `${l.s}-${l.t}`));

const bestOf = (entries: ReturnType<typeof lexicon>, w: string) => entries.find((e) => e.src === w)?.tgt;

test('the similarity priors decide within a pair', () => {
  const lex = lexicon([['a b', 'x y', [Y, X], [X, Y]]]);
  expect(bestOf(lex, 'a')).toBe('y');
  expect(bestOf(lex, 'b')).toBe('x');
});

test('the corpus decides where the priors are flat: b takes what a does not explain', () => {
  const flat: Pair[] = [
    ['a b', 'x y', [X, X], [X, X]],
    ['a', 'x', [X], [X]],
  ];
  const lex = lexicon(flat);
  expect(bestOf(lex, 'a')).toBe('x');
  expect(bestOf(lex, 'b')).toBe('y');
  const b = lex.filter((e) => e.src === 'b');
  expect(b[0].score).toBeGreaterThan(2 * b[1].score);
});

test('best first, at most `top` per word, scores in (0, 1], empty pairs skipped', () => {
  const lex = lexicon(
    [
      ['a b c', 'x y z', [X, Y, X], [Y, X, X]],
      ['', 'x', [], [X]],
      ['c', 'z', [X], [X]],
    ],
    2,
  );
  for (const w of ['a', 'b', 'c']) {
    const mine = lex.filter((e) => e.src === w);
    expect(mine.length).toBe(2);
    expect(mine[0].score).toBeGreaterThanOrEqual(mine[1].score);
    for (const e of mine) expect(e.score > 0 && e.score <= 1).toBe(true);
  }
  expect(bestOf(lex, 'c')).toBe('z');
});

test('links: the corpus resolves a pair whose similarities are flat; confidences in (0, 1]', () => {
  const pairs: Pair[] = [
    ['a b', 'x y', [X, X], [X, X]],
    ['a', 'x', [X], [X]],
    ['b a', 'y x', [Y, X], [Y, X]],
  ];
  expect(links(pairs)).toEqual([['0-0', '1-1'], ['0-0'], ['0-0', '1-1']]);
  expect(links(pairs, { sym: 'intersect' })[0]).toEqual(['0-0', '1-1']);
  const all = extractLinks(
    pairs.map((p) => split(p[0])),
    pairs.map((p) => split(p[1])),
    embeddings(pairs),
  ).flat();
  for (const l of all) expect(l.score! > 0 && l.score! <= 1).toBe(true);
});

test('gold links steer the EM: a pair whose similarities are flat follows the gold of another', () => {
  // without gold the flat pairs stay flat; the gold b–x of pair 1 decides pair 0 (and not b–y)
  const pairs: Pair[] = [
    ['a b', 'x y', [X, X], [X, X]],
    ['b a', 'x y', [X, X], [X, X]],
  ];
  const gold = [
    undefined,
    [
      { s: 0, t: 0 },
      { s: 1, t: 1 },
    ],
  ];
  expect(links(pairs, { gold })[0]).toEqual(['0-1', '1-0']);
  expect(links(pairs)[0]).not.toEqual(['0-1', '1-0']);
});

test('a word seen only in a gold pair, unlinked there, gets no NaN', () => {
  const pairs: Pair[] = [
    ['a z', 'x', [X, Y], [X]],
    ['a', 'x', [X], [X]],
  ];
  const gold = [[{ s: 0, t: 0 }], undefined];
  const src = pairs.map((p) => split(p[0])),
    tgt = pairs.map((p) => split(p[1]));
  const found = extractLinks(src, tgt, embeddings(pairs), { gold });
  expect(found.flat().length).toBeGreaterThan(0);
  for (const l of found.flat()) expect(Number.isFinite(l.score)).toBe(true);
});

test('a dictionary entry decides where the priors are flat, in the lexicon and in the links', () => {
  const flat: Pair[] = [['a b', 'x y', [X, X], [X, X]]];
  const pairs = flat.map((p) => split(p[0]));
  const tgts = flat.map((p) => split(p[1]));
  const dictionary = [{ src: 'a', tgt: 'y', weight: 1 }];
  const withDict = neuralLexicon(pairs, tgts, embeddings(flat), 5, dictionary);
  expect(bestOf(withDict, 'a')).toBe('y');
  expect(bestOf(withDict, 'b')).toBe('x');
  // an entry read the other way round (target word first) counts the same
  expect(bestOf(neuralLexicon(pairs, tgts, embeddings(flat), 5, [{ src: 'y', tgt: 'a', weight: 1 }]), 'a')).toBe('y');
  expect(links(flat, { sym: 'intersect', dictionary })).toEqual([['0-1', '1-0']]);
});
