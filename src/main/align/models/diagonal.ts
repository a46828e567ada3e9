// fast_align's diagonal alignment prior (Dyer et al. 2013), with centred positions.
//
// Math: for gen length I, obs length J, obs position b and gen position a (0-based),
//   h(a,b) = -| (a+½)/I - (b+½)/J |,   δ(a | b) = exp(λ·h(a,b)) / Z_b(λ),
//   Z_b(λ) = Σ_a exp(λ·h(a,b)),        d log Z_b / dλ = E_δ[h | b].
// The full prior is p(a_b = null) = p0 and p(a_b = a) = (1 - p0)·δ(a | b).
// The M-step for λ (tension) solves Σ_b E_post[h] = Σ_b m_b·E_δ[h | b], where m_b is the
// non-null posterior mass of b: the expected-log-likelihood gradient is zero there, and
// the right side grows monotonically with λ, so bisection finds it.

/** Fills table[a*J + b] = δ(a | b) for all a, b (unnormalised rows would not do: Σ_a = 1). */
export function diagonalTable(lambda: number, I: number, J: number, table: Float64Array): void {
  for (let b = 0; b < J; b++) {
    const y = (b + 0.5) / J;
    let z = 0;
    for (let a = 0, x = b; a < I; a++, x += J) {
      const w = Math.exp(-lambda * Math.abs((a + 0.5) / I - y));
      table[x] = w;
      z += w;
    }
    const inv = 1 / z;
    for (let a = 0, x = b; a < I; a++, x += J) table[x] *= inv;
  }
}

/** Σ_b E_δ[h | b] for one sentence shape: the model side of the tension gradient. */
export function expectedFeature(lambda: number, I: number, J: number): number {
  let sum = 0;
  for (let b = 0; b < J; b++) {
    const y = (b + 0.5) / J;
    let z = 0;
    let zh = 0;
    for (let a = 0; a < I; a++) {
      const h = -Math.abs((a + 0.5) / I - y);
      const w = Math.exp(lambda * h);
      z += w;
      zh += w * h;
    }
    sum += zh / z;
  }
  return sum;
}

/**
 * Tension λ in [lo, hi] at which the model's expected feature over the sentence shapes
 * (count and non-null share per shape) meets the posterior's `empirical` feature.
 */
export function solveTension(empirical: number, shapes: Map<number, number>, nonNullShare: number, lo = 0.5, hi = 40): number {
  const model = (lambda: number): number => {
    let s = 0;
    for (const [key, count] of shapes) s += count * expectedFeature(lambda, key >>> 16, key & 0xffff);
    return s * nonNullShare;
  };
  if (model(lo) >= empirical) return lo;
  if (model(hi) <= empirical) return hi;
  for (let it = 0; it < 30; it++) {
    const mid = 0.5 * (lo + hi);
    if (model(mid) < empirical) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}
