// The decoders' output vocabulary: every id for a small vocabulary; for a large one the
// reserved ids, the most frequent words and the batch's own words, with the decoder targets
// pointing at the right rows; and the decoder rows that have a target.
import { expect, test } from 'vitest';
import { trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { batchFeeds, BOS, buildVocab, EOS, OUTPUT_WORDS, RESERVED, sideSize } from '../../../../src/main/models/bilstm/vocab-batches.ts';

const ints = (t: { data: unknown }) => Array.from(t.data as BigInt64Array, Number);

test('a small vocabulary keeps the full softmax', () => {
  const v = buildVocab(
    [
      ['a', 'b'],
      ['b', 'c'],
    ],
    [['x', 'y'], ['y']],
    5,
    4,
  );
  const f = batchFeeds(v, { src: [['a', 'b']], tgt: [['y']] }, 8);
  expect(ints(f['s.out'])).toEqual(Array.from({ length: sideSize(v.src) }, (_, i) => i));
  expect(ints(f['s.next']).slice(0, 3)).toEqual([v.src.ids.get('a'), v.src.ids.get('b'), EOS]);
});

test('the decoder rows with a target are the positions the decoder mask keeps', () => {
  const v = buildVocab([['a', 'b', 'c'], ['b']], [['x'], ['y', 'x']], 5, 4);
  const f = batchFeeds(v, { src: [['a', 'b', 'c'], ['b']], tgt: [['x'], ['y', 'x']] }, 4);
  const kept = (t: { data: unknown }) => Array.from(t.data as Float32Array).flatMap((m, i) => (m === 1 ? [i] : []));
  expect(ints(f['s.rows'])).toEqual([0, 1, 2, 3, 5, 6]);
  expect(ints(f['s.rows'])).toEqual(kept(f['s.dmask']));
  expect(ints(f['t.rows'])).toEqual(kept(f['t.dmask']));
});

/** Two frequent words, then 6,000 words seen once (three a sentence). */
function largeCorpus(): { src: string[][]; tgt: string[][] } {
  const src = [
    Array(50).fill('w0'),
    Array(20).fill('w1'),
    ...Array.from({ length: 2000 }, (_, k) => [`r${3 * k}`, `r${3 * k + 1}`, `r${3 * k + 2}`]),
  ];
  return { src, tgt: src.map((s) => s.map((w) => `t${w}`)) };
}

test('a large vocabulary: frequent words plus the batch words, targets index into them', () => {
  const { src, tgt } = largeCorpus();
  const v = buildVocab(src, tgt, 0, 4);
  expect(sideSize(v.src)).toBeGreaterThan(RESERVED + OUTPUT_WORDS);
  const rare = ['r5990', 'r5999'];
  const f = batchFeeds(v, { src: [['w0', ...rare]], tgt: [['tw0']] }, 8);
  const out = ints(f['s.out']);
  expect(out.length).toBe(RESERVED + OUTPUT_WORDS + 2);
  expect(out.slice(0, RESERVED + 2)).toEqual([0, 1, 2, 3, v.src.ids.get('w0'), v.src.ids.get('w1')]);
  for (const w of rare) expect(v.src.ids.get(w)!).toBeGreaterThanOrEqual(RESERVED + OUTPUT_WORDS);
  const ids = ['w0', ...rare].map((w) => v.src.ids.get(w));
  expect(
    ints(f['s.next'])
      .slice(0, 4)
      .map((p) => out[p]),
  ).toEqual([...ids, EOS]);
  expect(
    ints(f['s.prev'])
      .slice(0, 4)
      .map((p) => out[p]),
  ).toEqual([...ids].reverse().concat(BOS));
});

test('a model trains on a large vocabulary (the selected softmax in a real session)', async () => {
  const losses: number[] = [];
  await trainNeural(
    largeCorpus(),
    { dim: 16, epochs: 1, batchSize: 256, merges: 0, maxLength: 8 },
    { onEvent: (e) => void (e.type === 'step' && losses.push(e.loss)) },
  );
  expect(losses.length).toBeGreaterThan(4);
  expect(losses.every(Number.isFinite)).toBe(true);
}, 120_000);
