// EM with agreement over the pairs' similarity priors, through the neural lexicon and the
// link extraction, on hand-made embeddings: the priors decide where they are clear, the
// corpus decides where they are not (a word whose pairs say nothing is resolved by what its
// neighbours already explain, or what a gold link says), lexicon entries come best first, at
// most `top` per word, and empty pairs are skipped; in the lexicon the statistical aligner's
// forward table (trained on the same pairs) overrules similarities that mislead.
import { expect, test } from 'vitest';
import { type ExtractOptions, extractLinks } from '../../../../src/main/models/bilstm/aligner.ts';
import { type LexiconEntry, neuralLexicon } from '../../../../src/main/models/bilstm/word-translations.ts';
import type { PairEmbeddings } from '../../../../src/main/models/bilstm/embedder.ts';

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
const lexicon = (pairs: Pair[], top = 5, statisticalWeight?: number) =>
  neuralLexicon(
    pairs.map((p) => split(p[0])),
    pairs.map((p) => split(p[1])),
    embeddings(pairs),
    top,
    undefined,
    statisticalWeight,
  );
const links = (pairs: Pair[], o: ExtractOptions = {}) =>
  extractLinks(
    pairs.map((p) => split(p[0])),
    pairs.map((p) => split(p[1])),
    embeddings(pairs),
    o,
  ).map((ls) => ls.map((l) => `${l.s}-${l.t}`));

const bestOf = (entries: LexiconEntry[], w: string) => entries.find((e) => e.src === w)?.tgt;

test('the similarity priors decide within a pair', async () => {
  const lex = await lexicon([['a b', 'x y', [Y, X], [X, Y]]]);
  expect(bestOf(lex, 'a')).toBe('y');
  expect(bestOf(lex, 'b')).toBe('x');
});

test('the corpus decides where the priors are flat: b takes what a does not explain', async () => {
  const flat: Pair[] = [
    ['a b', 'x y', [X, X], [X, X]],
    ['a', 'x', [X], [X]],
  ];
  const lex = await lexicon(flat);
  expect(bestOf(lex, 'a')).toBe('x');
  expect(bestOf(lex, 'b')).toBe('y');
  const b = lex.filter((e) => e.src === 'b');
  expect(b[0].score).toBeGreaterThan(2 * b[1].score);
});

test('best first, at most `top` per word, scores in (0, 1], empty pairs skipped', async () => {
  const lex = await lexicon(
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

test('a dictionary entry decides where the priors are flat, in the lexicon and in the links', async () => {
  const flat: Pair[] = [['a b', 'x y', [X, X], [X, X]]];
  const pairs = flat.map((p) => split(p[0]));
  const tgts = flat.map((p) => split(p[1]));
  const dictionary = [{ src: 'a', tgt: 'y', weight: 1 }];
  const withDict = await neuralLexicon(pairs, tgts, embeddings(flat), 5, dictionary);
  expect(bestOf(withDict, 'a')).toBe('y');
  expect(bestOf(withDict, 'b')).toBe('x');
  // an entry read the other way round (target word first) counts the same
  expect(bestOf(await neuralLexicon(pairs, tgts, embeddings(flat), 5, [{ src: 'y', tgt: 'a', weight: 1 }]), 'a')).toBe('y');
  expect(links(flat, { sym: 'intersect', dictionary })).toEqual([['0-1', '1-0']]);
});

test("the statistical aligner's forward table joins the score: it overrules similarities that mislead", async () => {
  // a always meets x, but its similarities lean to the word beside x each time
  const Z = [Math.SQRT1_2, Math.SQRT1_2];
  const pairs: Pair[] = [
    ['a b', 'x y', [Z, X], [X, Z]],
    ['a c', 'x z', [Z, X], [X, Z]],
    ['a d', 'x w', [Z, X], [X, Z]],
  ];
  const alone = await lexicon(pairs, 5, 0);
  const joint = await lexicon(pairs, 5);
  expect(bestOf(alone, 'a')).not.toBe('x');
  expect(bestOf(joint, 'a')).toBe('x');
  expect(joint.map((e) => e.score)).not.toEqual(alone.map((e) => e.score));
});
