// Lexical translation tables of both directions, t(o | g), and the expected counts the
// E-step gathers for them. Tables and counts live on SharedArrayBuffers: every training
// thread reads the tables and adds to the counts of its own slice of pairs (em-slice.ts);
// the M-step of a direction sums the counts of all slices.
//
// Math: with expected counts c(g,o) from the E-step and prior pseudo-counts π(g,o)
// (dictionary, identical words), the maximum-likelihood (MAP, for π) update over the
// words o' seen with g is
//   t(o|g) = (c(g,o) + π(g,o)) / Σ_o' (c(g,o') + π(g,o'))
// The null word has its own table tNull(o) = (c(null,o) + α0) / (Σ c(null,·) + α0·V_obs).
// Layout: t[2p] = t_fwd and t[2p + 1] = t_rev for lexical pair id p (see corpus.ts), so the
// E-step reads both directions' emissions of a cell from one cache line; tNull[dir][o] by
// obs word id. t is Float32 (the E-step computes in Float64 from it): dup100k's 3.0M pairs
// take 24 MB instead of 48, and AER is the same to three decimals for every method on every
// gold set (docs/experiments.md).
// Under agreement training the lexical count of a cell is the product of both directions'
// posteriors, the same number for both, so c.fwd and c.rev are one array. The lexical counts
// are Float32 too (the M-step sums the slices in Float64): 12 MB per slice at dup100k's 3.0M
// lexical pairs instead of 24; 3 of dup100k's 100k link lines change against Float64 counts,
// and AER is the same to three decimals for every method on every gold set.
import type { Prior } from './prior.ts';
import { sharedFloat32, sharedFloat64 } from './shared-arrays.ts';
import type { Direction, View } from './view.ts';

/** The saved form of one direction's table. */
export interface Lexicon {
  t: Float32Array;
  tNull: Float32Array;
}

export interface LexTables {
  t: Float32Array;
  tNull: Record<Direction, Float64Array>;
}

/** Offset of a direction's entry in LexTables.t (t[2p + slot]). */
export const SLOT: Readonly<Record<Direction, number>> = { fwd: 0, rev: 1 };

/** Expected counts of one slice of pairs: c by lexical pair id, cNull by obs word id. */
export interface LexCounts {
  c: Record<Direction, Float32Array>;
  cNull: Record<Direction, Float64Array>;
}

/** Smallest probability kept in the table (avoids underflow and denormals). */
export const T_FLOOR = 1e-12;
const NULL_ALPHA = 1e-3;

/** Tables of both directions: uniform over the obs words, or a saved model's. */
export function newLexTables(fwd: View, rev: View, init?: Record<Direction, Lexicon>): LexTables {
  const n = fwd.pairGen.length;
  const t = sharedFloat32(2 * n);
  const tNull = { fwd: sharedFloat64(fwd.obsTypes), rev: sharedFloat64(rev.obsTypes) };
  for (const v of [fwd, rev]) {
    const u = 1 / Math.max(1, v.obsTypes),
      from = init?.[v.dir],
      d = SLOT[v.dir];
    for (let p = 0; p < n; p++) t[2 * p + d] = from ? from.t[p] : u;
    if (from) tNull[v.dir].set(from.tNull);
    else tNull[v.dir].fill(u);
  }
  return { t, tNull };
}

/** Zeroed counts of one slice; `agreement`: one lexical count array for both directions. */
export function newLexCounts(fwd: View, rev: View, agreement: boolean): LexCounts {
  const c = sharedFloat32(fwd.pairGen.length);
  return {
    c: { fwd: c, rev: agreement ? c : sharedFloat32(rev.pairGen.length) },
    cNull: { fwd: sharedFloat64(fwd.obsTypes), rev: sharedFloat64(rev.obsTypes) },
  };
}

export function resetCounts(c: LexCounts): void {
  c.c.fwd.fill(0);
  c.c.rev.fill(0);
  c.cNull.fwd.fill(0);
  c.cNull.rev.fill(0);
}

/** Count of entry x summed over the slices, in their order (one slice: its own number, unchanged). */
function summed(cs: readonly (Float32Array | Float64Array)[], x: number): number {
  let c = cs[0][x];
  for (let s = 1; s < cs.length; s++) c += cs[s][x];
  return c;
}

/** The prior's pseudo-counts read along ascending pair ids: take(p) is pair p's, or 0. */
class PriorWalk {
  private j = 0;
  private next: number;

  constructor(
    private readonly ids: Int32Array,
    private readonly w: Float32Array,
  ) {
    this.next = ids.length > 0 ? ids[0] : -1;
  }

  take(p: number): number {
    if (p !== this.next) return 0;
    const x = this.w[this.j++];
    this.next = this.j < this.ids.length ? this.ids[this.j] : -1;
    return x;
  }
}

/**
 * Re-estimates direction v.dir's t and tNull from the counts of all slices. The prior's next
 * pair id waits in PriorWalk, where a lookup per pair read past the end of the ids and sent
 * V8 to its slow path (dup100k's 3.0M pairs, random counts: 54 ms a direction, 66 ms so).
 */
export function mStep(v: View, tables: LexTables, slices: readonly LexCounts[], prior: Prior | null): void {
  const t = tables.t,
    d0 = SLOT[v.dir],
    cs = slices.map((s) => s.c[v.dir]);
  const n = v.pairGen.length,
    pairGen = v.pairGen;
  const tot = new Float64Array(v.genTypes);
  const walk = () => new PriorWalk(prior?.ids ?? new Int32Array(0), prior?.w ?? new Float32Array(0));
  const totals = walk();
  for (let p = 0; p < n; p++) tot[pairGen[p]] += summed(cs, p) + totals.take(p);
  const counts = walk();
  for (let p = 0; p < n; p++) {
    const d = tot[pairGen[p]];
    t[2 * p + d0] = d > 0 ? Math.max(T_FLOOR, (summed(cs, p) + counts.take(p)) / d) : T_FLOOR;
  }
  const nulls = slices.map((s) => s.cNull[v.dir]);
  const cNull = Float64Array.from(nulls[0], (_, x) => summed(nulls, x));
  let sum = 0;
  for (let x = 0; x < cNull.length; x++) sum += cNull[x];
  const d = sum + NULL_ALPHA * cNull.length;
  const tNull = tables.tNull[v.dir];
  for (let x = 0; x < cNull.length; x++) tNull[x] = Math.max(T_FLOOR, (cNull[x] + NULL_ALPHA) / d);
}

export function toLexicon(tables: LexTables, dir: Direction): Lexicon {
  const d = SLOT[dir],
    n = tables.t.length >> 1;
  const t = new Float32Array(n);
  for (let p = 0; p < n; p++) t[p] = tables.t[2 * p + d];
  return { t, tNull: Float32Array.from(tables.tNull[dir]) };
}
