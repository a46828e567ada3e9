// A generated parallel corpus with known word alignments for the neural aligner's tests:
// source words s0…s(V−1) translate one-to-one into target words t(π(i)) (π a fixed
// permutation), sentences of 3–6 words, the target side with its first two words swapped
// (so the alignment is not the diagonal). Deterministic from the seed.
import { Rng } from '../../../../src/main/nn/index.ts';

export interface SyntheticCorpus {
  src: string[][];
  tgt: string[][];
  gold: { s: number; t: number }[][];
  translation: Map<string, string>;
}

export function syntheticCorpus(pairs: number, vocab: number, seed = 3): SyntheticCorpus {
  const rng = new Rng(seed);
  const perm = rng.shuffle(Array.from({ length: vocab }, (_, i) => i));
  const translation = new Map(perm.map((p, i) => [`s${i}`, `t${p}`]));
  const out: SyntheticCorpus = { src: [], tgt: [], gold: [], translation };
  for (let k = 0; k < pairs; k++) {
    const n = 3 + rng.int(4);
    const src = Array.from({ length: n }, () => `s${rng.int(vocab)}`);
    const order = [1, 0, ...Array.from({ length: n - 2 }, (_, i) => i + 2)];
    out.src.push(src);
    out.tgt.push(order.map((i) => translation.get(src[i])!));
    out.gold.push(order.map((i, j) => ({ s: i, t: j })).sort((a, b) => a.s - b.s));
  }
  return out;
}

/** AER with every gold link sure: 1 − 2|A∩S| / (|A| + |S|). */
export function aer(pred: readonly { s: number; t: number }[][], gold: readonly { s: number; t: number }[][]): number {
  let both = 0,
    a = 0,
    s = 0;
  pred.forEach((p, k) => {
    const g = new Set(gold[k].map((l) => `${l.s}-${l.t}`));
    both += p.filter((l) => g.has(`${l.s}-${l.t}`)).length;
    a += p.length;
    s += g.size;
  });
  return 1 - (2 * both) / (a + s);
}
