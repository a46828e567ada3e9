// Seeded randomness for parameter initialisation, data shuffling and tests: a small
// counter-free PRNG (mulberry32) with uniform, normal (Box–Muller) and shuffle helpers,
// and the usual initialisers. Glorot-uniform: U(±√(6/(fan_in+fan_out))).
import { type FloatDType, Tensor } from './tensor.ts';

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  normal(): number {
    const u = Math.max(this.next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  shuffle<T>(xs: T[]): T[] {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  }
}

function filled(shape: readonly number[], dtype: FloatDType, f: () => number): Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  const data = dtype === 'float32' ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) data[i] = f();
  return new Tensor(dtype, data, [...shape]);
}

export function glorotUniform(rng: Rng, shape: readonly number[], dtype: FloatDType = 'float32'): Tensor {
  const fanIn = shape.length > 1 ? shape[shape.length - 2] : shape[0];
  const fanOut = shape[shape.length - 1];
  const a = Math.sqrt(6 / (fanIn + fanOut));
  return filled(shape, dtype, () => (2 * rng.next() - 1) * a);
}

export function normalInit(rng: Rng, shape: readonly number[], std: number, dtype: FloatDType = 'float32'): Tensor {
  return filled(shape, dtype, () => rng.normal() * std);
}

export function constantInit(shape: readonly number[], v: number, dtype: FloatDType = 'float32'): Tensor {
  return filled(shape, dtype, () => v);
}
