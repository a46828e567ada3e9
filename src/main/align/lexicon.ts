// Lexical translation table of one direction, t(o | g), and its EM statistics.
//
// Math: with expected counts c(g,o) from the E-step and prior pseudo-counts π(g,o)
// (dictionary), the maximum-likelihood (MAP, for π) update over the words o' seen with g is
//   t(o|g) = (c(g,o) + π(g,o)) / Σ_o' (c(g,o') + π(g,o'))
// The null word has its own table tNull(o) = (c(null,o) + α0) / (Σ c(null,·) + α0·V_obs).
// t is indexed by lexical pair id (see corpus.ts), tNull by obs word id.
import type { View } from './view.ts';

export interface Lexicon {
  t: Float32Array;
  tNull: Float32Array;
}

export interface LexCounts {
  c: Float64Array;
  cNull: Float64Array;
}

/** Smallest probability kept in the table (avoids underflow and denormals). */
export const T_FLOOR = 1e-12;

export function uniformLexicon(v: View): Lexicon {
  const u = 1 / Math.max(1, v.obsTypes);
  return { t: new Float32Array(v.pairGen.length).fill(u), tNull: new Float32Array(v.obsTypes).fill(u) };
}

export function newCounts(v: View): LexCounts {
  return { c: new Float64Array(v.pairGen.length), cNull: new Float64Array(v.obsTypes) };
}

const NULL_ALPHA = 1e-3;

/** Re-estimates `lex` from `counts` (in place); counts are left untouched. */
export function mStep(v: View, counts: LexCounts, lex: Lexicon, prior: Float32Array | null): void {
  const { c } = counts;
  const nPairs = c.length;
  const tot = new Float64Array(v.genTypes);
  for (let p = 0; p < nPairs; p++) tot[v.pairGen[p]] += c[p] + (prior ? prior[p] : 0);
  const t = lex.t;
  for (let p = 0; p < nPairs; p++) {
    const d = tot[v.pairGen[p]];
    t[p] = d > 0 ? Math.max(T_FLOOR, (c[p] + (prior ? prior[p] : 0)) / d) : T_FLOOR;
  }
  let sum = 0;
  const cNull = counts.cNull;
  for (let x = 0; x < cNull.length; x++) sum += cNull[x];
  const d = sum + NULL_ALPHA * cNull.length;
  for (let x = 0; x < cNull.length; x++) lex.tNull[x] = Math.max(T_FLOOR, (cNull[x] + NULL_ALPHA) / d);
}
