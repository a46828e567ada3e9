// HMM alignment model (Vogel et al. 1996) with Och & Ney's null states, trained by
// forward–backward (Baum–Welch) with per-position scaling.
//
// Math: states are gen positions a = 0..I-1 and null states I+q that remember the last
// real position q. From memory q (start: q = -1)
//   p(a | q) = (1 - p0)·A_q(a),  A_q(a) = c(a - q) / Σ_a' c(a' - q),   p(null_q | q) = p0
// where the jump weights c(d) are shared by all lengths, d clamped to [-D, D].
// Emissions: t(o_b | g_a) in real states, tNull(o_b) in null states. With memory mass
// s_q = α̂_{b-1}(q) + α̂_{b-1}(I+q) the scaled recursions are
//   α̂_b(a) ∝ em(a,b)·(1-p0)·Σ_q s_q A_q(a),   α̂_b(I+q) ∝ em(null,b)·p0·s_q
//   β̂_{b-1}(q) = [(1-p0)·Σ_a A_q(a) em(a,b) β̂_b(a) + p0·em(null,b) β̂_b(q)] / k_b
// (β is the same for a real state and the null state with the same memory), and the
// posteriors are γ_b(a) = α̂_b(a)β̂_b(a), γ_b(null) = Σ_q α̂_b(I+q)β̂_b(q).
// M-step: p0 = Σ γ(null) / #obs tokens; the jump weights c(d) are re-estimated from the
// jumps of the posterior-MAP path (hard counts: as accurate as the expected counts Σ ξ on
// the gold sets, at a third of the cost, as they need no O(I²) pass of their own), plus
// JUMP_SMOOTH per bucket: on a few hundred sentences this keeps rare jumps from vanishing
// (add-20 rather than add-0.01: up to 0.4 AER points lower on the gold sets, measured on
// them); at 100k pairs it is negligible.
// End of sentence: the path ends with a jump from its last real position q to the end
// position I, weighted like any jump, c(I − q) (the backward pass starts from it): without
// it nothing pulls the last words to the end of the other sentence, and a sentence-final
// "." next to a reordered clause was left unaligned (zh-en).
// Fertility (posterior regularisation, Graça, Ganchev & Taskar 2010, bijectivity): the
// expected number of obs words a gen word takes, f_a = Σ_b γ_b(a), should not exceed 1.
// One dual step per pair: λ_a = η·max(0, f_a − 1), emissions of a scaled by exp(−λ_a), and
// forward–backward run again; the E-step uses the projected posteriors. It stops a rare gen
// word from collecting every unexplained obs word ("garbage collection").
// The two together, η = 0.5, lower agree's gdfa AER on four of the five gold sets (ja-en
// stays within 0.001) for ~25% more CPU time on dup100k (docs/experiments.md).
// The passes (pruning, forward–backward, posteriors, projection) run in WebAssembly
// (hmm-kernel.ts); this class keeps the parameters, builds the transition block of each
// length and does the M-step.
import type { DirectionalModel, ModelParams, ModelStats } from '../directional-model.ts';
import { hmmKernel, transitionsLength } from './hmm-kernel.ts';

export const MAX_JUMP = 25;
const NJ = 2 * MAX_JUMP + 1;
/** Pseudo-count added to every jump bucket in the M-step. */
const JUMP_SMOOTH = 20;
/** Step size of the fertility projection's one dual step. */
export const FERTILITY_STEP = 0.5;

export interface HmmParams extends ModelParams {
  kind: 'hmm';
  jumps: number[];
  p0: number;
}

function initialJumps(): Float64Array {
  const c = new Float64Array(NJ);
  for (let d = -MAX_JUMP; d <= MAX_JUMP; d++) c[d + MAX_JUMP] = Math.exp(-0.5 * Math.abs(d - 1));
  return c;
}

export class Hmm implements DirectionalModel {
  readonly kind = 'hmm';
  p0: number;
  jumps: Float64Array;
  private cache = new Map<number, Float64Array>();
  private jumpCounts = new Float64Array(NJ);
  private nullTrans = 0;
  private allTrans = 0;

  constructor(saved?: Partial<HmmParams>) {
    this.p0 = saved?.p0 ?? 0.2;
    this.jumps = saved?.jumps ? Float64Array.from(saved.jumps) : initialJumps();
  }

  /**
   * Row q+1 (q = -1..I-1) holds (1-p0)·A_q(a) for a = 0..I-1; after these (I+1)·I values
   * the same for q ≥ 0 transposed (offset (I+1)·I + a·I + q), then the end weights c(I − q).
   */
  private transitions(I: number): Float64Array {
    let A = this.cache.get(I);
    if (A) return A;
    A = new Float64Array(transitionsLength(I));
    for (let q = -1; q < I; q++) {
      const row = (q + 1) * I;
      let z = 0;
      for (let a = 0; a < I; a++) {
        const w = this.jumps[Math.max(-MAX_JUMP, Math.min(MAX_JUMP, a - q)) + MAX_JUMP];
        A[row + a] = w;
        z += w;
      }
      const f = (1 - this.p0) / z;
      for (let a = 0; a < I; a++) A[row + a] *= f;
    }
    const T = (I + 1) * I;
    for (let q = 0; q < I; q++) for (let a = 0; a < I; a++) A[T + a * I + q] = A[(q + 1) * I + a];
    for (let q = 0; q < I; q++) A[T + I * I + q] = this.jumps[Math.min(MAX_JUMP, I - q) + MAX_JUMP];
    this.cache.set(I, A);
    return A;
  }

  posteriors(em: Float64Array, I: number, J: number, post: Float64Array, learn: boolean): void {
    hmmKernel(I, J).posteriors(em, I, J, this.transitions(I), this.p0, FERTILITY_STEP, post);
    if (learn) this.countJumps(post, I, J);
  }

  /** Jump counts from the posterior-MAP path: d = a_b − (last real position before b). */
  private countJumps(post: Float64Array, I: number, J: number): void {
    let last = -1,
      nulls = 0;
    for (let b = 0; b < J; b++) {
      let best = -1,
        bp = post[I * J + b];
      nulls += bp;
      for (let a = 0; a < I; a++) if (post[a * J + b] > bp) bp = post[(best = a) * J + b];
      if (best < 0) continue;
      this.jumpCounts[Math.max(-MAX_JUMP, Math.min(MAX_JUMP, best - last)) + MAX_JUMP] += 1;
      last = best;
    }
    this.nullTrans += nulls;
    this.allTrans += J;
  }

  takeStats(): ModelStats {
    const s = { jumpCounts: this.jumpCounts, nullTrans: this.nullTrans, allTrans: this.allTrans };
    this.jumpCounts = new Float64Array(NJ);
    this.nullTrans = this.allTrans = 0;
    return s;
  }

  addStats(s: ModelStats): void {
    const jumps = s.jumpCounts as Float64Array;
    for (let d = 0; d < NJ; d++) this.jumpCounts[d] += jumps[d];
    this.nullTrans += s.nullTrans as number;
    this.allTrans += s.allTrans as number;
  }

  update(): void {
    if (this.allTrans > 0) {
      this.p0 = Math.min(0.5, Math.max(0.01, this.nullTrans / this.allTrans));
      let z = 0;
      for (let d = 0; d < NJ; d++) z += this.jumpCounts[d];
      if (z > 0) for (let d = 0; d < NJ; d++) this.jumps[d] = (this.jumpCounts[d] + JUMP_SMOOTH) / (z + JUMP_SMOOTH * NJ);
    }
    this.jumpCounts.fill(0);
    this.nullTrans = this.allTrans = 0;
    this.cache.clear();
  }

  save(): HmmParams {
    return { kind: 'hmm', jumps: Array.from(this.jumps), p0: this.p0 };
  }
}
