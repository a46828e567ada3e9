// Link extraction from a similarity matrix of one sentence pair, as the similarity aligners
// define it. Matrices are row-major [I × J] (I source rows, J target columns).
//   SimAlign (Jalili Sabet et al. 2020): sim = (cos + 1)/2;
//     ArgMax  — links that are both their row's and their column's maximum;
//     IterMax — ArgMax, then up to max_count − 1 more rounds over the words still unlinked:
//               cells whose row and column are both unlinked keep their similarity, cells with
//               one side linked are damped by α = 0.9, cells with both linked are excluded, and
//               the ArgMax of what is left is added (its reference keeps max_count 2);
//     Match   — the maximum-weight assignment (Hungarian; min(I, J) links). Library: munkres
//               (MIT, maintained, O(M²N) on rectangular matrices); SimAlign uses networkx's
//               max_weight_matching, which on a complete bipartite graph with positive
//               weights finds the same optimum.
//   awesome-align (Dou & Neubig 2021): on dot products S, P→ = softmax over targets, P← =
//     softmax over sources; a link where both exceed the threshold. Its entmax15
//     variant (Peters et al. 2019, α = 1.5, exact by sorting) replaces both softmaxes by the
//     sparse entmax and links where both are non-zero.
//   PMI-Align (Azadi et al. 2023): the joint p(i, j) = softmax of S over the whole matrix,
//     PMI = log p(i, j) − log p(i) − log p(j) with the marginals of p; then ArgMax.
//   Link probability (for --scores): awesome-align's heuristic, the harmonic mean of the two
//     directional softmaxes of S scaled by 1/√(length of the other side).
//   SimAlign's two adjustments (its scripts/align_files.py), on the matrix its extraction reads:
//     distortion k — each cell times 1 − k·(j/(J−1) − i/(I−1))², pulling links toward the
//       diagonal (k = 0, or a side of one unit: unchanged);
//     null-align p — each cell scores the smaller of its row's and its column's normalised
//       entropy (the L1-normalised row's entropy over log J, the column's over log I; none when a
//       side has two units or fewer); over the whole corpus the links' positive scores are
//       sorted and those above the one at share p are removed (p = 1: none), so the links in the
//       flattest rows and columns — words with no clear counterpart — go.
import munkres from 'munkres';

export type Matrix = Float32Array | Float64Array;

/** Index of the largest of n values at `at(k)` (first on ties, as numpy's argmax). */
function argmax(n: number, at: (k: number) => number): number {
  let best = 0;
  for (let k = 1; k < n; k++) if (at(k) > at(best)) best = k;
  return best;
}

/** ArgMax: cells that are the maximum of their row and of their column. */
export function argmaxLinks(sim: Matrix, I: number, J: number): Uint8Array {
  const out = new Uint8Array(I * J);
  if (!I || !J) return out;
  const colBest = Int32Array.from({ length: J }, (_, j) => argmax(I, (i) => sim[i * J + j]));
  for (let i = 0; i < I; i++) {
    const j = argmax(J, (k) => sim[i * J + k]);
    if (colBest[j] === i) out[i * J + j] = 1;
  }
  return out;
}

/** IterMax: ArgMax, then rounds over the unlinked words with damped similarities. */
export function iterMaxLinks(sim: Matrix, I: number, J: number, maxCount = 2, alpha = 0.9): Uint8Array {
  const links = argmaxLinks(sim, I, J);
  if (Math.min(I, J) <= 2) return links;
  for (let round = 1; round < maxCount; round++) {
    const rowOn = new Uint8Array(I),
      colOn = new Uint8Array(J);
    for (let i = 0; i < I; i++) for (let j = 0; j < J; j++) if (links[i * J + j]) rowOn[i] = colOn[j] = 1;
    // no unlinked word left on a side: nothing to add
    if (rowOn.every((x) => x) || colOn.every((x) => x)) break;
    const damped = new Float64Array(I * J);
    for (let i = 0; i < I; i++)
      for (let j = 0; j < J; j++) damped[i * J + j] = sim[i * J + j] * Math.min(1, alpha * (1 - rowOn[i]) + alpha * (1 - colOn[j]));
    const fresh = argmaxLinks(damped, I, J);
    let added = 0;
    for (let x = 0; x < I * J; x++) {
      const i = Math.floor(x / J),
        j = x % J;
      if (fresh[x] && !(rowOn[i] && colOn[j]) && !links[x]) {
        links[x] = 1;
        added++;
      }
    }
    if (!added) break;
  }
  return links;
}

/** Match: the assignment of maximum total similarity (min(I, J) links). */
export function matchLinks(sim: Matrix, I: number, J: number): Uint8Array {
  const out = new Uint8Array(I * J);
  if (!I || !J) return out;
  const cost = Array.from({ length: I }, (_, i) => Array.from({ length: J }, (_, j) => -sim[i * J + j]));
  for (const [i, j] of munkres(cost)) out[i * J + j] = 1;
  return out;
}

/** Softmax of S/τ along rows (P→, over targets) and along columns (P←, over sources). */
function directionalSoftmax(s: Matrix, I: number, J: number, tauRow = 1, tauCol = 1): { fwd: Float64Array; bwd: Float64Array } {
  const fwd = new Float64Array(I * J),
    bwd = new Float64Array(I * J);
  for (let i = 0; i < I; i++) {
    let m = -Infinity,
      z = 0;
    for (let j = 0; j < J; j++) m = Math.max(m, s[i * J + j] / tauRow);
    for (let j = 0; j < J; j++) z += fwd[i * J + j] = Math.exp(s[i * J + j] / tauRow - m);
    for (let j = 0; j < J; j++) fwd[i * J + j] /= z;
  }
  for (let j = 0; j < J; j++) {
    let m = -Infinity,
      z = 0;
    for (let i = 0; i < I; i++) m = Math.max(m, s[i * J + j] / tauCol);
    for (let i = 0; i < I; i++) z += bwd[i * J + j] = Math.exp(s[i * J + j] / tauCol - m);
    for (let i = 0; i < I; i++) bwd[i * J + j] /= z;
  }
  return { fwd, bwd };
}

/** awesome-align's extraction: both directional softmaxes above `threshold`. */
export function softmaxLinks(scores: Matrix, I: number, J: number, threshold: number): Uint8Array {
  const { fwd, bwd } = directionalSoftmax(scores, I, J);
  return Uint8Array.from({ length: I * J }, (_, x) => (fwd[x] > threshold && bwd[x] > threshold ? 1 : 0));
}

/** entmax15 of a vector: p = [(z − max z)/2 − τ]₊², τ such that Σ p = 1 (the support found by sorting). */
function entmax15(z: Float64Array): Float64Array {
  const n = z.length;
  const top = Math.max(...z);
  const x = z.map((v) => (v - top) / 2);
  const sorted = Float64Array.from(x).sort().reverse();
  let sum = 0,
    sumSq = 0,
    tau = 0;
  for (let k = 1; k <= n; k++) {
    sum += sorted[k - 1];
    sumSq += sorted[k - 1] ** 2;
    const mean = sum / k;
    const delta = (1 - k * (sumSq / k - mean * mean)) / k;
    const t = mean - Math.sqrt(Math.max(delta, 0));
    if (t > sorted[k - 1]) break; // the support is the first k − 1
    tau = t;
  }
  return x.map((v) => Math.max(v - tau, 0) ** 2);
}

/** awesome-align's entmax15 extraction: both directions' entmax15 non-zero. */
export function entmaxLinks(scores: Matrix, I: number, J: number): Uint8Array {
  const fwd = new Uint8Array(I * J),
    out = new Uint8Array(I * J);
  for (let i = 0; i < I; i++)
    entmax15(Float64Array.from(scores.subarray(i * J, (i + 1) * J))).forEach((p, j) => (fwd[i * J + j] = p > 0 ? 1 : 0));
  for (let j = 0; j < J; j++)
    entmax15(Float64Array.from({ length: I }, (_, i) => scores[i * J + j])).forEach(
      (p, i) => (out[i * J + j] = p > 0 && fwd[i * J + j] ? 1 : 0),
    );
  return out;
}

/** Link probabilities: harmonic mean of the softmaxes of S/√J (over targets) and S/√I (over sources). */
export function linkProbabilities(scores: Matrix, I: number, J: number): Float64Array {
  const { fwd, bwd } = directionalSoftmax(scores, I, J, Math.sqrt(J), Math.sqrt(I));
  return Float64Array.from({ length: I * J }, (_, x) => (2 * fwd[x] * bwd[x]) / (fwd[x] + bwd[x] + 1e-9));
}

/** PMI-Align's normalisation: log p(i, j) − log p(i) − log p(j), p = softmax of S over all cells. */
export function pmiMatrix(scores: Matrix, I: number, J: number): Float64Array {
  let m = -Infinity;
  for (let x = 0; x < I * J; x++) m = Math.max(m, scores[x]);
  const p = Float64Array.from({ length: I * J }, (_, x) => Math.exp(scores[x] - m));
  const z = p.reduce((a, b) => a + b, 0);
  const row = new Float64Array(I),
    col = new Float64Array(J);
  for (let i = 0; i < I; i++)
    for (let j = 0; j < J; j++) {
      p[i * J + j] /= z;
      row[i] += p[i * J + j];
      col[j] += p[i * J + j];
    }
  return Float64Array.from({ length: I * J }, (_, x) => Math.log(p[x]) - Math.log(row[Math.floor(x / J)]) - Math.log(col[x % J]));
}

/** SimAlign's distortion: each cell times 1 − k·(j/(J−1) − i/(I−1))²; k = 0 or a side of one unit leaves `sim` as it is. */
export function withDistortion(sim: Matrix, I: number, J: number, k: number): Matrix {
  if (I < 2 || J < 2 || k === 0) return sim;
  return Float64Array.from({ length: I * J }, (_, x) => sim[x] * (1 - k * ((x % J) / (J - 1) - Math.floor(x / J) / (I - 1)) ** 2));
}

/** Entropy of the values at `at(0…n−1)`, L1-normalised, over log n (NaN when they sum to 0). */
function normalisedEntropy(n: number, at: (k: number) => number): number {
  let z = 0;
  for (let k = 0; k < n; k++) z += Math.abs(at(k));
  let h = 0;
  for (let k = 0; k < n; k++) {
    const p = Math.abs(at(k)) / z;
    if (p > 0) h -= p * Math.log(p);
  }
  return z > 0 ? h / Math.log(n) : NaN;
}

/** SimAlign's null-align score of each cell: min(row i's, column j's normalised entropy); null when a side has two units or fewer. */
export function nullAlignScores(sim: Matrix, I: number, J: number): Float64Array | null {
  if (Math.min(I, J) <= 2) return null;
  const row = Float64Array.from({ length: I }, (_, i) => normalisedEntropy(J, (j) => sim[i * J + j]));
  const col = Float64Array.from({ length: J }, (_, j) => normalisedEntropy(I, (i) => sim[i * J + j]));
  // Math.min would turn a NaN row into NaN too, as numpy's minimum does: such a cell is never removed
  return Float64Array.from({ length: I * J }, (_, x) => Math.min(row[Math.floor(x / J)], col[x % J]));
}

/** SimAlign's null-align threshold: of the links' positive scores, sorted, the one at index ⌊p·n⌋; Infinity (nothing removed) for p ≥ 1 or no score. */
export function nullAlignThreshold(scores: Iterable<number>, p: number): number {
  if (p >= 1) return Infinity;
  const kept = Float64Array.from([...scores].filter((v) => v > 0)).sort();
  return kept.length ? kept[Math.floor(p * kept.length)] : Infinity;
}
