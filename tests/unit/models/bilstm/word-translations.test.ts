// The BiLSTM lexicon's vocabulary extractions (models/bilstm/word-translations.ts): a word's
// vector is its contextual vectors averaged over its occurrences, made unit length, and the
// lexicon lists each source word's nearest target words by CSLS (K = 3) or by cosine; checked
// by hand on contextual vectors set in the plane (no model: the vectors are what a trained
// model's embedder would give).
import { expect, test } from 'vitest';
import { embeddings, src, tgt } from '../../eval/plane-words.ts';
import { typeVectors, vocabularyLexicon } from '../../../../src/main/models/bilstm/word-translations.ts';

const e = embeddings;

test('a word type’s vector is the unit mean of its occurrences, in order of first occurrence', () => {
  const t = typeVectors(src, e.src, 2);
  expect(t.words).toEqual(['a', 'b', 'c', 'd']);
  expect(t.vectors[0]).toBeCloseTo(1, 6);
  expect(t.vectors[1]).toBeCloseTo(0, 6);
  expect(Math.hypot(t.vectors[2], t.vectors[3])).toBeCloseTo(1, 6);
});

test('csls and nn lexicons over the whole target vocabulary, best first', async () => {
  const best = async (extraction: 'csls' | 'nn') =>
    Object.fromEntries((await vocabularyLexicon(src, tgt, e, extraction, 1)).map((x) => [x.src, x.tgt]));
  expect(await best('csls')).toEqual({ a: 'p', b: 'p', c: 'r', d: 's' });
  expect(await best('nn')).toEqual({ a: 'p', b: 'p', c: 'q', d: 's' });
  const c = (await vocabularyLexicon(src, tgt, e, 'csls', 5)).filter((x) => x.src === 'c');
  expect(c.map((x) => x.tgt)).toEqual(['r', 'q', 'p', 's']);
  expect(c[0].score).toBeCloseTo(0.3879, 4);
});
