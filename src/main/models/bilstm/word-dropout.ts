// Frequency-based word dropout (Kiperwasser & Goldberg 2016) for training the neural
// aligner: each input occurrence of a word seen n times in the training corpus becomes the
// unknown word with probability α / (α + n) — a word seen once half the time at α = 1, a
// frequent word almost never. Its subwords (eq. 10) stay and the decoders' targets are
// untouched, so the model learns to represent rare words from their subwords and context
// rather than from a word vector trained on one or two sentences.
// α = 1 raises Tatoeba P@1 on zh and vi over no dropout and over α 0.5 and 3, with AER
// unchanged (docs/experiments.md).
import type { Rng } from '../../nn/index.ts';
import { RESERVED, type SideVocab, UNK } from './vocab-batches.ts';

/** How often each word id of `v` occurs in `side` (reserved ids and unseen words: 0). */
export function wordCounts(v: SideVocab, side: readonly (readonly string[])[]): Uint32Array {
  const counts = new Uint32Array(v.ids.size + RESERVED);
  for (const sent of side)
    for (const w of sent) {
      const id = v.ids.get(w);
      if (id !== undefined) counts[id]++;
    }
  return counts;
}

/** Replaces word ids in a batch's `ids` feed by UNK with probability α / (α + count). */
export function dropWords(ids: BigInt64Array, counts: Uint32Array, alpha: number, rng: Rng): void {
  for (let q = 0; q < ids.length; q++) {
    const id = Number(ids[q]);
    if (id >= RESERVED && rng.next() * (alpha + counts[id]) < alpha) ids[q] = BigInt(UNK);
  }
}
