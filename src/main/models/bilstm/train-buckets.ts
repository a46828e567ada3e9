// The length buckets of a training run, chosen for its corpus: at most MAX_BUCKETS lengths
// such that every bucket holds at least one full batch and the padded time steps of an epoch
// (Σ over batches of batch size × bucket length) are fewest. A training graph is unrolled to
// its bucket's length, so padding is work; each bucket is one session to build (1–2 s).
// Fixed multiples of 8 up to 32, then of 16 (vocab.ts bucketOf, what inference uses), padded
// the first 5,000 pairs of uniq39k en–de to 144,896 time steps an epoch, 17% of them padding,
// and put their 54 pairs of 49–50 tokens in a bucket of 64; chosen here, 136,832 steps in six
// buckets (14, 20, 26, 31, 40, 50).
// Hand-written: a dynamic programme over at most maxLength (64) lengths, a few lines.

/** How many sessions a run may build; six covered the fixed scheme's lengths. */
export const MAX_BUCKETS = 6;

/**
 * Bucket lengths (ascending; the last is the longest entry) for entries of the given lengths
 * (≥ 1), each bucket holding at least `batch` entries unless the corpus has fewer.
 */
export function trainingBuckets(lengths: readonly number[], batch: number, maxBuckets = MAX_BUCKETS): number[] {
  const longest = Math.max(0, ...lengths);
  if (!longest) return [];
  const upTo = new Array<number>(longest + 1).fill(0); // entries of length ≤ L
  for (const n of lengths) upTo[n]++;
  for (let L = 1; L <= longest; L++) upTo[L] += upTo[L - 1];
  if (upTo[longest] < batch) return [longest];
  // cost[k][L]: fewest padded steps for the entries of length ≤ L in k buckets, the last of length L
  const cost = Array.from({ length: maxBuckets + 1 }, () => new Array<number>(longest + 1).fill(Infinity));
  const prev = Array.from({ length: maxBuckets + 1 }, () => new Array<number>(longest + 1).fill(0));
  cost[0][0] = 0;
  for (let k = 1; k <= maxBuckets; k++)
    for (let L = 1; L <= longest; L++)
      for (let P = 0; P < L; P++) {
        const n = upTo[L] - upTo[P];
        if (n < batch || cost[k - 1][P] === Infinity) continue;
        const c = cost[k - 1][P] + Math.ceil(n / batch) * batch * L;
        if (c < cost[k][L]) [cost[k][L], prev[k][L]] = [c, P];
      }
  let k = 1; // fewest buckets among the cheapest: ties build fewer sessions
  for (let j = 2; j <= maxBuckets; j++) if (cost[j][longest] < cost[k][longest]) k = j;
  const out: number[] = [];
  for (let L = longest; k > 0; k--) {
    out.unshift(L);
    L = prev[k][L];
  }
  return out;
}
