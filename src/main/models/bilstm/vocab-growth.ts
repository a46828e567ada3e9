// A trained model's vocabulary grown for a continued training (bilstm-train.ts), so that pairs a
// linguist imported after the first training are learned word by word rather than as
// unknown words. Words of the new data the model lacks get ids after its own, their
// subwords from the model's BPE (a piece it never had, e.g. a new Han character, gets a new
// subword id); each word table (the decoders' output is tied to it) gains a row per new word,
// a copy of the unknown word's row, so that a new word starts exactly as the model read it
// before (the unknown word plus its subwords, as word dropout trains it), and the subword
// table a zero row per new piece. A model saved before its BPE model was kept cannot grow:
// its new words stay unknown, as they were.
// A continued training with the vocabulary grown gives a lower AER on the new pairs than
// with it kept, on ro-en and zh-en (docs/experiments.md); most new word types (86% on zh,
// 99% on en and ro) have subwords the model knows.
import { floats, type Tensor } from '../../nn/tensor.ts';
import type { ModelDims } from './encoder-decoder.ts';
import { addWords, countWords, expandSubwordModel, type NeuralVocab, UNK } from './vocab-batches.ts';

/** `v` with the words of src / tgt it lacks (v itself when it cannot grow or nothing is new). */
export function grownVocab(v: NeuralVocab, src: readonly string[][], tgt: readonly string[][]): NeuralVocab {
  if (!v.subwordModel) return v;
  const { bpe, subIds: known } = expandSubwordModel(v.subwordModel);
  const subIds = new Map(known);
  const side = {
    src: addWords(v.src, countWords(src, new Map()), bpe, subIds, v.maxSubwords),
    tgt: addWords(v.tgt, countWords(tgt, new Map()), bpe, subIds, v.maxSubwords),
  };
  if (side.src.ids.size === v.src.ids.size && side.tgt.ids.size === v.tgt.ids.size) return v;
  return {
    ...side,
    subwordCount: subIds.size + 1,
    maxSubwords: v.maxSubwords,
    subwordModel: { merges: v.subwordModel.merges, pieces: [...subIds.keys()] },
  };
}

/** Rows added to a [rows, D] table: copies of row `copy`, or zeros when copy is null. */
function withRows(t: Tensor, rows: number, copy: number | null): Tensor {
  const [n, d] = t.dims as number[];
  if (rows === n) return t;
  const out = new Float32Array(rows * d);
  out.set(t.data as Float32Array);
  if (copy !== null) for (let r = n; r < rows; r++) out.copyWithin(r * d, copy * d, (copy + 1) * d);
  return floats(out, [rows, d]);
}

/** The parameters of a model of dims `from` fitted to the grown dims `to` (the other parameters as they are). */
export function grownParams(params: ReadonlyMap<string, Tensor>, from: ModelDims, to: ModelDims): Map<string, Tensor> {
  const out = new Map(params);
  const grow = (name: string, rows: number, copy: number | null) => {
    const t = params.get(name);
    if (t) out.set(name, withRows(t, rows, copy));
  };
  if (to.srcVocab !== from.srcVocab) grow('emb.s.table', to.srcVocab, UNK);
  if (to.tgtVocab !== from.tgtVocab) grow('emb.t.table', to.tgtVocab, UNK);
  if (to.subwords !== from.subwords) grow('emb.sub.table', to.subwords, null);
  return out;
}
