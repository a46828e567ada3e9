// A word-translation lexicon from the neural aligner: the model's eq. 17 similarities of each
// sentence pair, turned into a corpus-level translation table by EM with agreement.
// Per pair, C = CSLS (K = 3) of the contextual embeddings, and two alignment priors:
//   f_ij = softmax_i(C_·j / τ)  (which source word target word j comes from)
//   r_ij = softmax_j(C_i· / τ)  (which target word source word i goes to),  τ = 0.8.
// EM over the corpus, both directions at once: posteriors
//   g_ij ∝ t(t_j | s_i)·f_ij (normalised over i),  h_ij ∝ t(s_i | t_j)·r_ij (over j),
// agreed as q_ij = √(g_ij·h_ij) (the geometric mean of Liang et al.'s agreement), counts
// c(s, t) = Σ q over the cells of s and t, then t(t | s) = c / c(s·), t(s | t) = c / c(·t).
// The first pass uses the priors alone; 10 more follow. score(s, t) = t(t | s)·t(s | t).
// The EM is what the per-pair similarities lack: corpus-level competition, so a target word
// already explained by a frequent source word stops being credited to its neighbours.
// Measured (Tatoeba x→en, MUSE, 20 epochs; vi/id/zh/th P@1): `npm run bench -- neural` gives
// 0.603/0.674/0.614/0.651 (previous lexicon, summed cell confidences / count + type-vector
// CSLS: 0.544/0.638/0.564/0.560). On one trained model per language, τ 0.8 gave
// 0.601/0.676/0.617/0.657, τ 0.4 0.606/—/—/0.649, τ 0.5 —/0.679/0.592/—;
// the same EM with uniform priors (no neural model: IBM-1 with agreement) 0.570/0.617/0.592/
// 0.617, so the priors carry the gain; the statistical aligner (agree) 0.604/0.677/0.662/0.642.
// Also tried here: t(t|s) alone as the score (0.600/0.664/0.623/0.639), adding the old score
// (lower), τ 0.05–0.2 (lower), a null word (lower), 20 passes (no better), EM in one direction
// without agreement (th 0.52–0.58). Tried for the old lexicon and not kept: type vectors alone
// (0.41/0.49/0.43/0.43), static eq. 10 vectors, counts of gdfa or competitive-linking links,
// decoder attention as counts, a model trained on agree's links ≥ 0.9 as seed-000
// pseudo-labels (0.604/0.660/0.631 on vi/id/zh), self-training on the model's own links ≥ 0.9
// (th 0.562 → 0.569 → 0.557), 60 epochs (th 0.571), three seeds' scores summed (th 0.580).
// Memory: per pair two Float32 priors and an Int32 cell index per word pair (12 bytes each).
// Hand-written: no library does EM over ragged per-sentence matrices.
import type { PairEmbeddings } from './aligner.ts';
import { cosines, csls } from './csls.ts';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

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
  /** cell of (s_i, t_j) [I·J] */
  cell: Int32Array;
  /** f_ij, normalised over i for each j [I·J] */
  fromSrc: Float32Array;
  /** r_ij, normalised over j for each i [I·J] */
  toTgt: Float32Array;
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

export function neuralLexicon(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, top = 5): LexiconEntry[] {
  const S = new Types(), T = new Types();
  const cellOf = new Map<number, number>();
  const cellSrc: number[] = [], cellTgt: number[] = [];
  const pairs: PairCells[] = [];
  e.src.forEach((x, k) => {
    const I = x.length / e.dim, J = e.tgt[k].length / e.dim;
    if (!I || !J) return;
    const c = csls(cosines(x, e.tgt[k], e.dim), I, J, PAIR_CSLS_K);
    const cell = new Int32Array(I * J);
    const si = src[k].slice(0, I).map((w) => S.id(w)), tj = tgt[k].slice(0, J).map((w) => T.id(w));
    for (let i = 0; i < I; i++)
      for (let j = 0; j < J; j++) {
        const key = si[i] * 2 ** 26 + tj[j];
        let n = cellOf.get(key);
        if (n === undefined) {
          cellOf.set(key, (n = cellSrc.length));
          cellSrc.push(si[i]);
          cellTgt.push(tj[j]);
        }
        cell[i * J + j] = n;
      }
    pairs.push({ I, J, cell, fromSrc: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, true), toTgt: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, false) });
  });
  const n = cellSrc.length;
  let tGivenS = new Float64Array(n).fill(1), sGivenT = new Float64Array(n).fill(1);
  for (let pass = 0; pass < EM_PASSES; pass++) {
    const c = new Float64Array(n), bySrc = new Float64Array(S.words.length), byTgt = new Float64Array(T.words.length);
    for (const p of pairs) {
      const g = agreedPosteriors(p, tGivenS, sGivenT);
      for (let x = 0; x < g.length; x++) {
        const cl = p.cell[x];
        c[cl] += g[x];
        bySrc[cellSrc[cl]] += g[x];
        byTgt[cellTgt[cl]] += g[x];
      }
    }
    tGivenS = c.map((v, cl) => v / bySrc[cellSrc[cl]]);
    sGivenT = c.map((v, cl) => v / byTgt[cellTgt[cl]]);
  }
  const bySource = S.words.map(() => [] as { tgt: string; score: number }[]);
  for (let cl = 0; cl < n; cl++) bySource[cellSrc[cl]].push({ tgt: T.words[cellTgt[cl]], score: tGivenS[cl] * sGivenT[cl] });
  return bySource.flatMap((row, i) => row.sort((a, b) => b.score - a.score).slice(0, top).map((x) => ({ src: S.words[i], ...x })));
}

/** q_ij = √(g_ij·h_ij) of one pair under the current tables (module header). */
function agreedPosteriors(p: PairCells, tGivenS: Float64Array, sGivenT: Float64Array): Float64Array {
  const { I, J, cell } = p;
  const g = new Float64Array(I * J), h = new Float64Array(I * J);
  for (let j = 0; j < J; j++) {
    let z = 0;
    for (let i = 0; i < I; i++) z += g[i * J + j] = tGivenS[cell[i * J + j]] * p.fromSrc[i * J + j];
    for (let i = 0; i < I; i++) g[i * J + j] /= z || 1;
  }
  for (let i = 0; i < I; i++) {
    let z = 0;
    for (let j = 0; j < J; j++) z += h[i * J + j] = sGivenT[cell[i * J + j]] * p.toTgt[i * J + j];
    for (let j = 0; j < J; j++) h[i * J + j] /= z || 1;
  }
  for (let x = 0; x < g.length; x++) g[x] = Math.sqrt(g[x] * h[x]);
  return g;
}
