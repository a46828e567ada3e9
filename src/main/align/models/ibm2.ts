// IBM Model 2 with fast_align's diagonal reparameterisation (see diagonal.ts):
//   p(a_b = null) = p0,  p(a_b = a) = (1 - p0)·δ(a | b; λ, I, J)
//   p(a_b = a | o, g) ∝ p(a_b = a)·t(o_b | g_a)
// Both the tension λ and the null probability p0 are re-estimated after every E-step:
// p0 = expected null links / obs tokens; λ moves towards the maximiser found by
// solveTension by at most MAX_STEP per iteration (the exact maximiser runs away: EM's
// peaked posteriors keep raising it, which on small corpora costs ~5 AER points).
import type { DirectionalModel, ModelParams, ModelStats } from '../directional-model.ts';
import { diagonalTable, solveTension } from './diagonal.ts';

const MAX_STEP = 0.5;
const MAX_TENSION = 14;

export interface Ibm2Params extends ModelParams {
  kind: 'ibm2';
  lambda: number;
  p0: number;
}

export class Ibm2 implements DirectionalModel {
  readonly kind = 'ibm2';
  lambda: number;
  p0: number;
  private cache = new Map<number, Float64Array>();
  private shapes = new Map<number, number>();
  private empirical = 0;
  private nullMass = 0;
  private tokens = 0;

  constructor(saved?: Partial<Ibm2Params>) {
    this.lambda = saved?.lambda ?? 4;
    this.p0 = saved?.p0 ?? 0.08;
  }

  private table(I: number, J: number): Float64Array {
    const key = (I << 16) | J;
    let t = this.cache.get(key);
    if (!t) {
      t = new Float64Array(I * J);
      diagonalTable(this.lambda, I, J, t);
      this.cache.set(key, t);
    }
    return t;
  }

  posteriors(em: Float64Array, I: number, J: number, post: Float64Array, learn: boolean): void {
    const d = this.table(I, J);
    const p0 = this.p0,
      p1 = 1 - p0,
      nullRow = I * J;
    let emp = 0,
      nul = 0;
    for (let b = 0; b < J; b++) {
      let z = p0 * em[nullRow + b];
      for (let a = 0, x = b; a < I; a++, x += J) z += p1 * d[x] * em[x];
      const inv = z > 0 ? 1 / z : 0;
      post[nullRow + b] = p0 * em[nullRow + b] * inv;
      nul += post[nullRow + b];
      const y = (b + 0.5) / J;
      for (let a = 0, x = b; a < I; a++, x += J) {
        const p = p1 * d[x] * em[x] * inv;
        post[x] = p;
        emp -= p * Math.abs((a + 0.5) / I - y);
      }
    }
    if (!learn) return;
    const key = (I << 16) | J;
    this.shapes.set(key, (this.shapes.get(key) ?? 0) + 1);
    this.empirical += emp;
    this.nullMass += nul;
    this.tokens += J;
  }

  takeStats(): ModelStats {
    const s = { shapes: this.shapes, empirical: this.empirical, nullMass: this.nullMass, tokens: this.tokens };
    this.shapes = new Map();
    this.empirical = this.nullMass = this.tokens = 0;
    return s;
  }

  addStats(s: ModelStats): void {
    for (const [key, n] of s.shapes as Map<number, number>) this.shapes.set(key, (this.shapes.get(key) ?? 0) + n);
    this.empirical += s.empirical as number;
    this.nullMass += s.nullMass as number;
    this.tokens += s.tokens as number;
  }

  update(): void {
    if (this.tokens > 0) {
      this.p0 = Math.min(0.5, Math.max(0.01, this.nullMass / this.tokens));
      const share = 1 - this.nullMass / this.tokens;
      const target = solveTension(this.empirical, this.shapes, share, 0.5, MAX_TENSION);
      this.lambda += Math.max(-MAX_STEP, Math.min(MAX_STEP, target - this.lambda));
    }
    this.cache.clear();
    this.shapes.clear();
    this.empirical = this.nullMass = this.tokens = 0;
  }

  save(): Ibm2Params {
    return { kind: 'ibm2', lambda: this.lambda, p0: this.p0 };
  }
}
