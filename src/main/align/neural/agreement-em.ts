// EM with agreement over the neural model's similarities: what turns eq. 17's per-pair
// similarities into the corpus's alignments (aligner.ts) and its lexicon (lexicon.ts).
// Per pair, C = CSLS (K = 3) of the contextual embeddings, and two alignment priors:
//   f_ij = softmax_i(C_·j / τ)  (which source word target word j comes from)
//   r_ij = softmax_j(C_i· / τ)  (which target word source word i goes to),  τ = 0.8.
// EM over the corpus, both directions at once: posteriors
//   g_ij ∝ t(t_j | s_i)·f_ij (normalised over i),  h_ij ∝ t(s_i | t_j)·r_ij (over j),
// agreed as q_ij = √(g_ij·h_ij) (the geometric mean of Liang et al.'s agreement), counts
// c(s, t) = Σ q over the cells of s and t, then t(t | s) = c / c(s·), t(s | t) = c / c(·t).
// Pairs with gold links count those links (1 each) instead of their posteriors, in every
// pass: a linguist's corrections steer the tables, and through them every other pair.
// The first pass uses the priors alone (tables at 1); 10 more follow. Per-pair similarities
// lack corpus-level competition: with it, a target word already explained by a frequent
// source word stops being credited to its neighbours, in the lexicon and in each pair.
// Measured: see lexicon.ts (P@1) and aligner.ts (AER).
// Memory: per pair two Float32 priors and an Int32 cell index per word pair (12 bytes each;
// 5k pairs of 25 words ≈ 40 MB). Hand-written: no library does EM over ragged per-sentence
// matrices.
import type { PairEmbeddings } from './embedder.ts';
import { cosines, csls } from './csls.ts';
import type { PairLinks } from './vocab.ts';

export const PAIR_CSLS_K = 3;
export const PRIOR_TEMPERATURE = 0.8;
export const EM_PASSES = 11;

/** Type indices of a side's words. */
class Types {
  readonly index = new Map<string, number>();
  readonly words: string[] = [];
  id(w: string): number {
    let n = this.index.get(w);
    if (n === undefined) this.index.set(w, (n = this.words.push(w) - 1));
    return n;
  }
}

interface PairCells {
  I: number;
  J: number;
  /** gold links, counted instead of the posteriors */
  fixed?: PairLinks;
  /** cell of (s_i, t_j) [I·J] */
  cell: Int32Array;
  /** f_ij, normalised over i for each j [I·J] */
  fromSrc: Float32Array;
  /** r_ij, normalised over j for each i [I·J] */
  toTgt: Float32Array;
}

/** A pair's posteriors under the final tables, source-major [I·J]. */
export interface PairPosteriors {
  I: number;
  J: number;
  /** g: for each target word, over the source words */
  g: Float64Array;
  /** h: for each source word, over the target words */
  h: Float64Array;
}

/** softmax(m/τ) along one axis of an I×J matrix: over i for each j (`overRows`) or over j for each i. */
function softmaxAxis(m: Float32Array, I: number, J: number, tau: number, overRows: boolean): Float32Array {
  const out = new Float32Array(I * J);
  const [outer, inner] = overRows ? [J, I] : [I, J];
  const at = overRows ? (o: number, n: number) => n * J + o : (o: number, n: number) => o * J + n;
  for (let o = 0; o < outer; o++) {
    let max = -Infinity;
    for (let n = 0; n < inner; n++) max = Math.max(max, m[at(o, n)]);
    let z = 0;
    for (let n = 0; n < inner; n++) z += out[at(o, n)] = Math.exp((m[at(o, n)] - max) / tau);
    for (let n = 0; n < inner; n++) out[at(o, n)] /= z;
  }
  return out;
}

export class AgreementEm {
  private readonly src = new Types();
  private readonly tgt = new Types();
  private readonly cellSrc: number[] = [];
  private readonly cellTgt: number[] = [];
  /** per input pair; null where a side is empty */
  private readonly pairs: (PairCells | null)[];
  private tGivenS = new Float64Array(0);
  private sGivenT = new Float64Array(0);

  /** Runs the EM on the pairs (tokens and their embeddings, pair by pair; gold links where known). */
  constructor(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, gold?: readonly PairLinks[]) {
    const cellOf = new Map<number, number>();
    this.pairs = e.src.map((x, k) => {
      const I = x.length / e.dim, J = e.tgt[k].length / e.dim;
      if (!I || !J) return null;
      const c = csls(cosines(x, e.tgt[k], e.dim), I, J, PAIR_CSLS_K);
      const si = src[k].slice(0, I).map((w) => this.src.id(w)), tj = tgt[k].slice(0, J).map((w) => this.tgt.id(w));
      const cell = new Int32Array(I * J);
      for (let i = 0; i < I; i++)
        for (let j = 0; j < J; j++) {
          const key = si[i] * 2 ** 26 + tj[j];
          let n = cellOf.get(key);
          if (n === undefined) {
            cellOf.set(key, (n = this.cellSrc.length));
            this.cellSrc.push(si[i]);
            this.cellTgt.push(tj[j]);
          }
          cell[i * J + j] = n;
        }
      const fixed = gold?.[k]?.filter((l) => l.s < I && l.t < J);
      return { I, J, cell, fixed: fixed?.length ? fixed : undefined, fromSrc: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, true), toTgt: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, false) };
    });
    this.tGivenS = new Float64Array(this.cellSrc.length).fill(1);
    this.sGivenT = new Float64Array(this.cellSrc.length).fill(1);
    for (let pass = 0; pass < EM_PASSES; pass++) this.pass();
  }

  private pass(): void {
    const c = new Float64Array(this.cellSrc.length);
    const bySrc = new Float64Array(this.src.words.length), byTgt = new Float64Array(this.tgt.words.length);
    const count = (cl: number, q: number) => {
      c[cl] += q;
      bySrc[this.cellSrc[cl]] += q;
      byTgt[this.cellTgt[cl]] += q;
    };
    for (const p of this.pairs) {
      if (!p) continue;
      if (p.fixed) {
        for (const l of p.fixed) count(p.cell[l.s * p.J + l.t], 1);
        continue;
      }
      const { g, h } = this.posteriorsOf(p);
      for (let x = 0; x < g.length; x++) count(p.cell[x], Math.sqrt(g[x] * h[x]));
    }
    // a word seen only in gold pairs, unlinked there, has no counts: its table entries are 0
    this.tGivenS = c.map((v, cl) => v / (bySrc[this.cellSrc[cl]] || 1));
    this.sGivenT = c.map((v, cl) => v / (byTgt[this.cellTgt[cl]] || 1));
  }

  private posteriorsOf(p: PairCells): PairPosteriors {
    const { I, J, cell } = p;
    const g = new Float64Array(I * J), h = new Float64Array(I * J);
    for (let j = 0; j < J; j++) {
      let z = 0;
      for (let i = 0; i < I; i++) z += g[i * J + j] = this.tGivenS[cell[i * J + j]] * p.fromSrc[i * J + j];
      for (let i = 0; i < I; i++) g[i * J + j] /= z || 1;
    }
    for (let i = 0; i < I; i++) {
      let z = 0;
      for (let j = 0; j < J; j++) z += h[i * J + j] = this.sGivenT[cell[i * J + j]] * p.toTgt[i * J + j];
      for (let j = 0; j < J; j++) h[i * J + j] /= z || 1;
    }
    return { I, J, g, h };
  }

  /** Pair k's posteriors under the final tables (null where a side is empty). */
  posteriors(k: number): PairPosteriors | null {
    const p = this.pairs[k];
    return p ? this.posteriorsOf(p) : null;
  }

  /** Every co-occurring (source word, target word) with t(t | s)·t(s | t), grouped by source word. */
  translations(): { src: string; tgt: { word: string; score: number }[] }[] {
    const out = this.src.words.map((src) => ({ src, tgt: [] as { word: string; score: number }[] }));
    this.cellSrc.forEach((s, cl) => out[s].tgt.push({ word: this.tgt.words[this.cellTgt[cl]], score: this.tGivenS[cl] * this.sGivenT[cl] }));
    return out;
  }
}
