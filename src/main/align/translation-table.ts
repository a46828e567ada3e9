// Lexical translation table of one direction, t(o | g), and its EM statistics.
//
// Math: with expected counts c(g,o) from the E-step and prior pseudo-counts π(g,o)
// (dictionary, identical words), the maximum-likelihood (MAP, for π) update over the
// words o' seen with g is
//   t(o|g) = (c(g,o) + π(g,o)) / Σ_o' (c(g,o') + π(g,o'))
// The null word has its own table tNull(o) = (c(null,o) + α0) / (Σ c(null,·) + α0·V_obs).
// Layout: tc[2p] = t and tc[2p+1] = c for lexical pair id p (see corpus.ts), so the E-step's
// read of t and its count update touch one cache line; tNull/cNull by obs word id.
import type { View } from './view.ts';

/** The saved form of a table. */
export interface Lexicon {
  t: Float32Array;
  tNull: Float32Array;
}

/** Smallest probability kept in the table (avoids underflow and denormals). */
export const T_FLOOR = 1e-12;
const NULL_ALPHA = 1e-3;

export class LexTable {
  readonly tc: Float64Array;
  readonly tNull: Float64Array;
  readonly cNull: Float64Array;

  constructor(
    private readonly v: View,
    init?: Lexicon,
  ) {
    const n = v.pairGen.length,
      u = 1 / Math.max(1, v.obsTypes);
    this.tc = new Float64Array(2 * n);
    for (let p = 0; p < n; p++) this.tc[2 * p] = init ? init.t[p] : u;
    this.tNull = init ? Float64Array.from(init.tNull) : new Float64Array(v.obsTypes).fill(u);
    this.cNull = new Float64Array(v.obsTypes);
  }

  resetCounts(): void {
    const tc = this.tc;
    for (let x = 1; x < tc.length; x += 2) tc[x] = 0;
    this.cNull.fill(0);
  }

  /** Re-estimates t and tNull from the counts (left in place until resetCounts). */
  mStep(prior: Float32Array | null): void {
    const { tc, v } = this;
    const n = v.pairGen.length;
    const tot = new Float64Array(v.genTypes);
    for (let p = 0; p < n; p++) tot[v.pairGen[p]] += tc[2 * p + 1] + (prior ? prior[p] : 0);
    for (let p = 0; p < n; p++) {
      const d = tot[v.pairGen[p]];
      tc[2 * p] = d > 0 ? Math.max(T_FLOOR, (tc[2 * p + 1] + (prior ? prior[p] : 0)) / d) : T_FLOOR;
    }
    const cNull = this.cNull;
    let sum = 0;
    for (let x = 0; x < cNull.length; x++) sum += cNull[x];
    const d = sum + NULL_ALPHA * cNull.length;
    for (let x = 0; x < cNull.length; x++) this.tNull[x] = Math.max(T_FLOOR, (cNull[x] + NULL_ALPHA) / d);
  }

  toLexicon(): Lexicon {
    const t = new Float32Array(this.v.pairGen.length);
    for (let p = 0; p < t.length; p++) t[p] = this.tc[2 * p];
    return { t, tNull: Float32Array.from(this.tNull) };
  }
}
