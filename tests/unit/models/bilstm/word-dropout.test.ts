// Frequency-based word dropout (word-dropout.ts) on a real batch's ids: a word seen once is
// replaced by the unknown word about half the time at α = 1, a word seen 99 times about 1%
// of the time, padding never; the subword feeds stay; α = 0 changes nothing.
import { expect, test } from 'vitest';
import { Rng } from '../../../../src/main/nn/index.ts';
import { dropWords, wordCounts } from '../../../../src/main/models/bilstm/word-dropout.ts';
import { batchFeeds, buildVocab, PAD, UNK } from '../../../../src/main/models/bilstm/vocab-batches.ts';

const src = [...Array.from({ length: 99 }, () => ['often', 'word']), ['once', 'word']];
const tgt = src.map(() => ['x']);
const vocab = buildVocab(src, tgt, 10, 4);

test('counts per word id of the side', () => {
  const c = wordCounts(vocab.src, src);
  expect(c[vocab.src.ids.get('word')!]).toBe(100);
  expect(c[vocab.src.ids.get('once')!]).toBe(1);
  expect(c[UNK]).toBe(0);
});

test('rare words are dropped often, frequent words seldom, padding never; subwords stay', () => {
  const counts = wordCounts(vocab.src, src);
  const rng = new Rng(7);
  const once = vocab.src.ids.get('once')!,
    often = vocab.src.ids.get('often')!;
  let onceDropped = 0,
    oftenDropped = 0;
  const trials = 4000;
  const batch = { src: [['once', 'often']], tgt: [['x']] };
  const T = 8;
  for (let n = 0; n < trials; n++) {
    const feeds = batchFeeds(vocab, batch, T);
    const sub = [...(feeds['s.sub'].data as BigInt64Array)];
    const ids = feeds['s.ids'].data as BigInt64Array;
    dropWords(ids, counts, 1, rng);
    if (ids[0] === BigInt(UNK)) onceDropped++;
    else expect(Number(ids[0])).toBe(once);
    if (ids[1] === BigInt(UNK)) oftenDropped++;
    else expect(Number(ids[1])).toBe(often);
    for (let i = 2; i < T; i++) expect(ids[i]).toBe(BigInt(PAD));
    expect([...(feeds['s.sub'].data as BigInt64Array)]).toEqual(sub);
  }
  expect(onceDropped / trials).toBeGreaterThan(0.45);
  expect(onceDropped / trials).toBeLessThan(0.55);
  expect(oftenDropped / trials).toBeLessThan(0.02);
  expect(oftenDropped).toBeGreaterThan(0);
});

test('α = 0 keeps every word', () => {
  const feeds = batchFeeds(vocab, { src: [['once', 'word']], tgt: [['x']] }, 8);
  const ids = feeds['s.ids'].data as BigInt64Array;
  const before = [...ids];
  dropWords(ids, wordCounts(vocab.src, src), 0, new Rng(1));
  expect([...ids]).toEqual(before);
});
