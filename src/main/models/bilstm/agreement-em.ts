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
// A bilingual dictionary, when given, adds pseudo-counts π(s, t) to c(s, t) in every pass
// (the statistical aligner's dictionary prior, align/prior.ts, on the same Bitext).
// The first pass uses the priors alone (tables at 1); 10 more follow. Per-pair similarities
// lack corpus-level competition: with it, a target word already explained by a frequent
// source word stops being credited to its neighbours, in the lexicon and in each pair.
// Measured: see lexicon.ts (P@1) and aligner.ts (AER).
// Word types and cells (the word pair of each source × target position) come from the
// statistical aligners' Bitext (corpus.ts), over the tokens that have embeddings.
// Memory: per word pair of each sentence pair, two Float32 priors and the Bitext's
// three-byte cell (11 bytes; 5k pairs of 25 words ≈ 35 MB). Hand-written: no library does EM over
// ragged per-sentence matrices.
import { type Bitext, buildBitext } from '../../align/corpus.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { dictionaryPrior, sparsePrior, type Prior } from '../../align/prior.ts';
import { mapLexicons, type SavedModel } from '../../align/statistical-model.ts';
import type { PairEmbeddings } from './embedder.ts';
import { checkCancelled, type JobContext } from '../../jobs/job-context.ts';
import { cosines, csls, PAIR_CSLS_K } from '../../eval/csls.ts';
import type { PairPosteriors } from './link-classifier.ts';
import type { CorpusLinks, LinkRef } from '../../../shared/link-set.ts';

const PRIOR_TEMPERATURE = 0.8;
const EM_PASSES = 11;

interface PairCells {
  I: number;
  J: number;
  /** gold links, counted instead of the posteriors */
  fixed?: readonly LinkRef[];
  /** the word pair (index into the Bitext's pairSrc/pairTgt) of (s_i, t_j) [I·J]: lo | hi << 16 */
  lo: Uint16Array;
  hi: Uint8Array | Uint16Array;
  /** f_ij, normalised over i for each j [I·J] */
  fromSrc: Float32Array;
  /** r_ij, normalised over j for each i [I·J] */
  toTgt: Float32Array;
}

/** The word pair of cell x of a sentence pair. */
function cellPair(p: PairCells, x: number): number {
  return p.lo[x] | (p.hi[x] << 16);
}

/** A pair's posteriors under the final tables, source-major [I·J]. */
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

export interface AgreementEmOptions {
  /** gold links per pair, counted instead of the posteriors */
  gold?: CorpusLinks;
  /** a bilingual dictionary: its entries' prior pseudo-counts join every pass's counts */
  dictionary?: readonly DictEntry[];
  /** progress (passes done of all) and cancel, after each pass */
  ctx?: JobContext;
}

export class AgreementEm {
  private readonly b: Bitext;
  /** per input pair; null where a side is empty */
  private readonly pairs: (PairCells | null)[];
  private tGivenS: Float64Array;
  private sGivenT: Float64Array;

  private readonly prior: Prior | null;

  /** Runs the EM on the pairs (tokens and their embeddings, pair by pair; gold links where
   *  known; a dictionary's prior), reporting to `ctx` after each pass (CancelledError once it is cancelled). */
  constructor(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, o: AgreementEmOptions = {}) {
    const { gold, ctx } = o;
    const embedded = (side: readonly string[][], vecs: Float32Array[]) => side.map((s, k) => s.slice(0, vecs[k].length / e.dim));
    const b = (this.b = buildBitext(embedded(src, e.src), embedded(tgt, e.tgt)));
    const prior = o.dictionary?.length ? dictionaryPrior(b, o.dictionary) : null;
    this.prior = prior ? sparsePrior(prior) : null;
    this.pairs = e.src.map((x, k) => {
      const I = x.length / e.dim,
        J = e.tgt[k].length / e.dim;
      if (!I || !J) return null;
      const c = csls(cosines(x, e.tgt[k], e.dim), I, J, PAIR_CSLS_K);
      const fixed = gold?.[k]?.filter((l) => l.s < I && l.t < J);
      return {
        I,
        J,
        fixed: fixed?.length ? fixed : undefined,
        lo: b.cellLo.subarray(b.cellOff[k], b.cellOff[k + 1]),
        hi: b.cellHi.subarray(b.cellOff[k], b.cellOff[k + 1]),
        fromSrc: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, true),
        toTgt: softmaxAxis(c, I, J, PRIOR_TEMPERATURE, false),
      };
    });
    this.tGivenS = new Float64Array(b.pairSrc.length).fill(1);
    this.sGivenT = new Float64Array(b.pairSrc.length).fill(1);
    for (let pass = 0; pass < EM_PASSES; pass++) {
      this.pass();
      checkCancelled(ctx?.signal);
      ctx?.progress({ done: pass + 1, total: EM_PASSES });
    }
  }

  private pass(): void {
    const { pairSrc, pairTgt } = this.b;
    const c = new Float64Array(pairSrc.length);
    const bySrc = new Float64Array(this.b.srcVocab.length),
      byTgt = new Float64Array(this.b.tgtVocab.length);
    const count = (cl: number, q: number) => {
      c[cl] += q;
      bySrc[pairSrc[cl]] += q;
      byTgt[pairTgt[cl]] += q;
    };
    for (const p of this.pairs) {
      if (!p) continue;
      if (p.fixed) {
        for (const l of p.fixed) count(cellPair(p, l.s * p.J + l.t), 1);
        continue;
      }
      const { g, h } = this.posteriorsOf(p);
      for (let x = 0; x < g.length; x++) count(cellPair(p, x), Math.sqrt(g[x] * h[x]));
    }
    const prior = this.prior;
    if (prior) prior.ids.forEach((cl, j) => prior.w[j] && count(cl, prior.w[j]));
    // a word seen only in gold pairs, unlinked there, has no counts: its table entries are 0
    this.tGivenS = c.map((v, cl) => v / (bySrc[pairSrc[cl]] || 1));
    this.sGivenT = c.map((v, cl) => v / (byTgt[pairTgt[cl]] || 1));
  }

  private posteriorsOf(p: PairCells): PairPosteriors {
    const { I, J } = p;
    const g = new Float64Array(I * J),
      h = new Float64Array(I * J);
    for (let j = 0; j < J; j++) {
      let z = 0;
      for (let i = 0; i < I; i++) z += g[i * J + j] = this.tGivenS[cellPair(p, i * J + j)] * p.fromSrc[i * J + j];
      for (let i = 0; i < I; i++) g[i * J + j] /= z || 1;
    }
    for (let i = 0; i < I; i++) {
      let z = 0;
      for (let j = 0; j < J; j++) z += h[i * J + j] = this.sGivenT[cellPair(p, i * J + j)] * p.toTgt[i * J + j];
      for (let j = 0; j < J; j++) h[i * J + j] /= z || 1;
    }
    return { I, J, g, h };
  }

  /** Pair k's posteriors under the final tables (null where a side is empty). */
  posteriors(k: number): PairPosteriors | null {
    const p = this.pairs[k];
    return p ? this.posteriorsOf(p) : null;
  }

  /**
   * Every co-occurring (source word, target word) with t(t | s)·√t(s | t), grouped by source
   * word; with a statistical model, times its forward table p(t | s) to the power `weight`
   * (pairs it never saw together at statistical-model.ts's UNSEEN).
   */
  translations(statistical?: { model: SavedModel; weight: number }): { src: string; tgt: { word: string; score: number }[] }[] {
    const { srcVocab, tgtVocab, pairSrc, pairTgt } = this.b;
    const stat = statistical && mapLexicons(statistical.model, this.b).fwd.t;
    const out = srcVocab.map((src) => ({ src, tgt: [] as { word: string; score: number }[] }));
    pairSrc.forEach((s, cl) => {
      const own = this.tGivenS[cl] * Math.sqrt(this.sGivenT[cl]);
      out[s].tgt.push({ word: tgtVocab[pairTgt[cl]], score: stat ? own * stat[cl] ** statistical.weight : own });
    });
    return out;
  }
}
