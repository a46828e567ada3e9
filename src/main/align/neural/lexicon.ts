// A word-translation lexicon from the neural aligner (seed 003 §IV.C: nearest word of the
// whole target vocabulary by CSLS). A word type's vector is the mean of its contextual
// embeddings over the corpus, L2-normalised; every source type gets its `top` target types
// by CSLS with K = 10 neighbours (Conneau et al.'s setting for vocabularies). Only the
// MAX_TYPES most frequent types of each side take part.
import type { PairEmbeddings } from './aligner.ts';
import { cosines, csls, topK } from './csls.ts';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

export const VOCAB_CSLS_K = 10;
/** the most frequent types of each side taken part (bounds the I×J similarity matrix) */
export const MAX_TYPES = 6000;

function typeVectors(sents: readonly string[][], vecs: Float32Array[], d: number, maxTypes: number): { words: string[]; flat: Float32Array } {
  const sums = new Map<string, Float32Array>();
  const counts = new Map<string, number>();
  sents.forEach((s, k) =>
    s.forEach((w, i) => {
      const acc = sums.get(w) ?? sums.set(w, new Float32Array(d)).get(w)!;
      counts.set(w, (counts.get(w) ?? 0) + 1);
      for (let c = 0; c < d; c++) acc[c] += vecs[k][i * d + c];
    }),
  );
  const words = [...sums.keys()].sort((a, b) => counts.get(b)! - counts.get(a)!).slice(0, maxTypes);
  const flat = new Float32Array(words.length * d);
  words.forEach((w, n) => {
    const v = sums.get(w)!;
    const norm = Math.hypot(...v) || 1;
    for (let c = 0; c < d; c++) flat[n * d + c] = v[c] / norm;
  });
  return { words, flat };
}

export function neuralLexicon(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, top = 5, maxTypes = MAX_TYPES): LexiconEntry[] {
  const s = typeVectors(src, e.src, e.dim, maxTypes);
  const t = typeVectors(tgt, e.tgt, e.dim, maxTypes);
  const I = s.words.length, J = t.words.length;
  const m = csls(cosines(s.flat, t.flat, e.dim), I, J, VOCAB_CSLS_K);
  const out: LexiconEntry[] = [];
  for (let i = 0; i < I; i++) {
    for (const j of topK(J, top, (x) => m[i * J + x])) out.push({ src: s.words[i], tgt: t.words[j], score: m[i * J + j] });
  }
  return out;
}
