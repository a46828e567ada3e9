// Sentence retrieval accuracy (seed 002's and seed 004's P@N, Tatoeba's accuracy, as in seed
// 000's Tatoeba evaluation): for pairs (x_i, y_i) with unit-length rows, the share of x_i whose
// N most similar y (cosine) include y_i, and the same from y's side. Ties are broken towards
// the candidate met first (the lower index). Progress (rows of x done) and cancel through ctx.
import type { JobContext } from '../jobs/job-context.ts';
import { neighbourhoods } from './csls.ts';

export interface Retrieval {
  /** P@N from x to y and from y to x, for each N asked */
  forward: Record<number, number>;
  backward: Record<number, number>;
}

export async function retrievalAccuracy(
  x: Float32Array,
  y: Float32Array,
  d: number,
  ns: readonly number[] = [1, 5],
  ctx?: JobContext,
): Promise<Retrieval> {
  const n = x.length / d;
  const k = Math.max(...ns);
  const nb = await neighbourhoods(x, y, d, k, ctx);
  const share = (near: Int32Array, N: number) => {
    let hits = 0;
    for (let i = 0; i < n; i++) for (let r = 0; r < N; r++) if (near[i * k + r] === i) hits++;
    return hits / n;
  };
  return {
    forward: Object.fromEntries(ns.map((N) => [N, share(nb.xNear, N)])),
    backward: Object.fromEntries(ns.map((N) => [N, share(nb.yNear, N)])),
  };
}
