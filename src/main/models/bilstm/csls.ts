// Extraction by cross-domain similarity local scaling (seed 003 eq. 17, Conneau et al. 2018).
// Index conventions: X [I, D], Y [J, D] L2-normalised rows; C_ij = cos(x_i, y_j);
//   r_T(i) = mean of the K largest C_i·  (x_i's K nearest target words),
//   r_S(j) = mean of the K largest C_·j (y_j's K nearest source words),
//   CSLS_ij = 2·C_ij − r_T(i) − r_S(j).
// K is capped by the number of candidates. agreement-em.ts turns CSLS into alignment priors.

/** K within a sentence pair (eq. 17's neighbourhood). */
export const PAIR_CSLS_K = 3;

export function cosines(x: Float32Array, y: Float32Array, d: number): Float32Array {
  const I = x.length / d,
    J = y.length / d;
  const c = new Float32Array(I * J);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      let s = 0;
      for (let k = 0; k < d; k++) s += x[i * d + k] * y[j * d + k];
      c[i * J + j] = s;
    }
  return c;
}

/** Indices of the k largest of values(0…n−1), best first (insertion into a short list). */
export function topK(n: number, k: number, value: (i: number) => number): number[] {
  const best: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (best.length === k && v <= value(best[k - 1])) continue;
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && value(best[at - 1]) < v) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}

function topMean(n: number, k: number, value: (i: number) => number): number {
  const top = topK(n, k, value);
  return top.reduce((a, i) => a + value(i), 0) / Math.max(1, top.length);
}

/** CSLS [I, J] from cosines C [I, J]. */
export function csls(c: Float32Array, I: number, J: number, K: number): Float32Array {
  const rT = Array.from({ length: I }, (_, i) => topMean(J, K, (j) => c[i * J + j]));
  const rS = Array.from({ length: J }, (_, j) => topMean(I, K, (i) => c[i * J + j]));
  const out = new Float32Array(I * J);
  for (let i = 0; i < I; i++) for (let j = 0; j < J; j++) out[i * J + j] = 2 * c[i * J + j] - rT[i] - rS[j];
  return out;
}
