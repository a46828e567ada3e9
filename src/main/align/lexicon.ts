// Lexical translation table of one direction, t(o | g), and its EM statistics.
//
// Math: with expected counts c(g,o) from the E-step and prior pseudo-counts π(g,o)
// (dictionary, orthography), the M-step is either maximum likelihood
//   t(o|g) = (c(g,o) + π(g,o)) / Σ_o' (c(g,o') + π(g,o'))
// or, with a symmetric Dirichlet(α) prior, the mean-field variational Bayes update
//   t(o|g) = exp ψ(c + π + α) / exp ψ(Σ_o' (c + π) + α·n_g)     (n_g = #pairs of g)
// The null word has its own table tNull(o) = (c(null,o) + α) / (Σ c(null,·) + α·V_obs).
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

/** ψ(x) for x > 0: recurrence up to x ≥ 6, then the asymptotic series. */
export function digamma(x: number): number {
  let r = 0;
  while (x < 6) {
    r -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

export interface MStepOptions {
  /** Dirichlet concentration for variational Bayes; 0 = maximum likelihood */
  alpha: number;
  prior?: Float32Array | null;
}

/** Re-estimates `lex` from `counts` (in place); counts are left untouched. */
export function mStep(v: View, counts: LexCounts, lex: Lexicon, o: MStepOptions): void {
  const { c } = counts;
  const nPairs = c.length;
  const tot = new Float64Array(v.genTypes);
  const num = new Float64Array(v.genTypes);
  const prior = o.prior ?? null;
  for (let p = 0; p < nPairs; p++) {
    const g = v.pairGen[p];
    tot[g] += c[p] + (prior ? prior[p] : 0);
    num[g] += 1;
  }
  const t = lex.t;
  if (o.alpha > 0) {
    for (let g = 0; g < tot.length; g++) tot[g] = Math.exp(digamma(tot[g] + o.alpha * num[g]));
    for (let p = 0; p < nPairs; p++) {
      const x = c[p] + (prior ? prior[p] : 0) + o.alpha;
      t[p] = Math.max(T_FLOOR, Math.exp(digamma(x)) / tot[v.pairGen[p]]);
    }
  } else {
    for (let p = 0; p < nPairs; p++) {
      const x = c[p] + (prior ? prior[p] : 0);
      const d = tot[v.pairGen[p]];
      t[p] = d > 0 ? Math.max(T_FLOOR, x / d) : T_FLOOR;
    }
  }
  nullMStep(counts.cNull, lex.tNull, Math.max(o.alpha, 1e-3));
}

function nullMStep(cNull: Float64Array, tNull: Float32Array, alpha: number): void {
  let sum = 0;
  for (let o = 0; o < cNull.length; o++) sum += cNull[o];
  const d = sum + alpha * cNull.length;
  for (let o = 0; o < cNull.length; o++) tNull[o] = Math.max(T_FLOOR, (cNull[o] + alpha) / d);
}
