// Words a trained model lacks: at inference they are the unknown word plus their BPE
// subwords; a continued training grows the vocabulary (old ids kept, new words after them,
// a new Han character a new subword) and the tables (a new word's row starts as the unknown
// word's, a new subword's at zero), then learns the new rows; a model saved before its BPE
// model was kept loads, aligns and continues with its vocabulary as it was.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadNeuralModel, saveNeuralModel } from '../../../../src/main/models/bilstm/bilstm-folder.ts';
import { trainNeural } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { grownParams, grownVocab } from '../../../../src/main/models/bilstm/vocab-growth.ts';
import { batchFeeds, buildVocab, UNK } from '../../../../src/main/models/bilstm/vocab-batches.ts';
import { modelDims } from '../../../../src/main/models/bilstm/bilstm-train.ts';
import { floats } from '../../../../src/main/nn/tensor.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const dir = tempDir('mekong-vocab-growth-');
const ints = (t: { data: unknown }) => Array.from(t.data as BigInt64Array, Number);
const src = [
  ['walking', 'talked'],
  ['walked', 'talking'],
  ['walking', 'walked'],
  ['talked', 'talking'],
  ['我', '走'],
];
const tgt = [
  ['a', 'b'],
  ['b', 'a'],
  ['a', 'c'],
  ['c', 'b'],
  ['x', 'y'],
];

test('a word the vocabulary lacks is the unknown word plus its known subwords', () => {
  // no merges: words are their characters, so "talks" has four known pieces (no word ends in s)
  const v = buildVocab(src, tgt, 0, 4);
  const f = batchFeeds(v, { src: [['talks', 'walked']], tgt: [['a']] }, 8);
  const ids = ints(f['s.ids']);
  expect(ids[0]).toBe(UNK);
  const K = 4;
  const subs = ints(f['s.sub'])
    .slice(0, K)
    .filter((x) => x > 0);
  expect(subs.map((id) => v.subwordModel!.pieces[id - 1])).toEqual(['t', 'a', 'l', 'k']);
  const w = Array.from(f['s.subw'].data as Float32Array).slice(0, K);
  expect(w.filter((x) => x > 0).every((x) => Math.abs(x - 1 / subs.length) < 1e-6)).toBe(true);
  // without the BPE model (older saved models) it has none
  const old = { ...v, subwordModel: undefined };
  expect(ints(batchFeeds(old, { src: [['talks']], tgt: [['a']] }, 8)['s.sub']).slice(0, K)).toEqual([0, 0, 0, 0]);
});

test('growing keeps the old ids and rows, appends new words and pieces, copies the unknown row', () => {
  const v = buildVocab(src, tgt, 20, 4);
  const g = grownVocab(
    v,
    [
      ['talks', 'walking'],
      ['我', '跑'],
    ],
    [['d', 'a']],
  );
  for (const [w, id] of v.src.ids) expect(g.src.ids.get(w)).toBe(id);
  expect(g.src.ids.get('talks')).toBe(v.src.ids.size + 4);
  expect(g.tgt.ids.get('d')).toBe(v.tgt.ids.size + 4);
  expect(g.subwordModel!.pieces.slice(0, v.subwordCount - 1)).toEqual(v.subwordModel!.pieces);
  const newPiece = g.subwordModel!.pieces.indexOf('跑</w>') + 1;
  expect(newPiece).toBeGreaterThanOrEqual(v.subwordCount);
  expect(g.src.subwords[g.src.ids.get('跑')!]).toEqual([newPiece]);
  expect(g.subwordCount).toBe(g.subwordModel!.pieces.length + 1);
  expect(grownVocab(v, src, tgt)).toBe(v);
  expect(grownVocab({ ...v, subwordModel: undefined }, [['new']], [['x']])).toEqual({ ...v, subwordModel: undefined });

  const [from, to] = [modelDims(v, 2), modelDims(g, 2)];
  const table = (rows: number) =>
    floats(
      Array.from({ length: rows * 2 }, (_, k) => k + 1),
      [rows, 2],
    );
  const params = new Map([
    ['emb.s.table', table(from.srcVocab)],
    ['emb.t.table', table(from.tgtVocab)],
    ['emb.sub.table', table(from.subwords)],
    ['out.w', table(3)],
  ]);
  const grown = grownParams(params, from, to);
  const rows = (name: string) => {
    const t = grown.get(name)!;
    return { dims: t.dims, data: Array.from(t.data as Float32Array) };
  };
  expect(rows('emb.s.table').dims).toEqual([to.srcVocab, 2]);
  expect(rows('emb.s.table').data.slice(0, from.srcVocab * 2)).toEqual(Array.from(params.get('emb.s.table')!.data as Float32Array));
  expect(rows('emb.s.table').data.slice(-2)).toEqual([2 * UNK + 1, 2 * UNK + 2]);
  expect(rows('emb.sub.table').data.slice(-2)).toEqual([0, 0]);
  expect(grown.get('out.w')).toBe(params.get('out.w'));
});

test('a continued training learns the new words; a model saved without its BPE model continues as it was', async () => {
  const tiny = { dim: 16, epochs: 2, batchSize: 4, merges: 20 };
  const first = await trainNeural({ src, tgt }, tiny);
  const saved = join(dir, 'first');
  saveNeuralModel(saved, first);
  const more = { src: [...src, ['talks', 'runs'], ['runs', 'walking']], tgt: [...tgt, ['e', 'f'], ['f', 'a']] };
  const next = await trainNeural(more, tiny, {}, loadNeuralModel(saved));
  const id = next.vocab.src.ids.get('runs')!;
  expect(id).toBeGreaterThan(first.vocab.src.ids.size);
  const D = 16;
  const row = (m: typeof next, k: number) => Array.from((m.params.get('emb.s.table')!.data as Float32Array).slice(k * D, (k + 1) * D));
  // the new row started as the unknown word's and has moved
  expect(row(next, id)).not.toEqual(row(first, UNK));
  expect(next.dims.srcVocab).toBe(first.dims.srcVocab + 2);
  const again = join(dir, 'next');
  saveNeuralModel(again, next);
  expect(loadNeuralModel(again).vocab.src.ids.get('runs')).toBe(id);

  const vocab = JSON.parse(readFileSync(join(saved, 'vocab.json'), 'utf8'));
  delete vocab.subwordModel;
  writeFileSync(join(saved, 'vocab.json'), JSON.stringify(vocab));
  const old = loadNeuralModel(saved);
  expect(old.vocab.subwordModel).toBeUndefined();
  const kept = await trainNeural(more, { ...tiny, epochs: 1 }, {}, old);
  expect(kept.vocab.src.ids.has('runs')).toBe(false);
  expect(kept.dims).toEqual(first.dims);
}, 120_000);
