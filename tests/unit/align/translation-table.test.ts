// The lexicon M-step (translation-table.ts mStep) against its formula written plainly:
// t(o|g) = (Σ_slices c(g,o) + π(g,o)) / Σ_o' (…), floored, with prior pseudo-counts on the
// first pair, the last pair and pairs between, over one and two slices of counts.
import { expect, test } from 'vitest';
import { mStep, newLexCounts, newLexTables, T_FLOOR } from '../../../src/main/align/translation-table.ts';
import type { View } from '../../../src/main/align/view.ts';

/** A direction's view with only what the M-step reads. */
function view(dir: 'fwd' | 'rev', pairGen: Int32Array, genTypes: number, obsTypes: number): View {
  return { dir, pairGen, genTypes, obsTypes } as unknown as View;
}

test.each([1, 2])('t is the summed counts plus prior over each gen word’s total (%i slices)', (slices) => {
  const n = 5000,
    genTypes = 300,
    obsTypes = 200;
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const pairGen = Int32Array.from({ length: n }, () => Math.floor(rnd() ** 2 * genTypes));
  const fwd = view('fwd', pairGen, genTypes, obsTypes),
    rev = view('rev', pairGen, obsTypes, genTypes);
  const tables = newLexTables(fwd, rev);
  const counts = Array.from({ length: slices }, () => newLexCounts(fwd, rev, true));
  for (const c of counts) for (let p = 0; p < n; p++) c.c.fwd[p] = rnd() < 0.3 ? 0 : rnd() * 5;
  for (const c of counts) for (let o = 0; o < obsTypes; o++) c.cNull.fwd[o] = rnd();
  const ids = Int32Array.from([0, 17, 18, 2500, n - 1]);
  const prior = { ids, w: Float32Array.from([2, 0.5, 1, 3, 4]) };
  mStep(fwd, tables, counts, prior);

  const count = (p: number) => {
    let c = counts[0].c.fwd[p];
    for (let s = 1; s < slices; s++) c += counts[s].c.fwd[p];
    const j = ids.indexOf(p);
    return j >= 0 ? c + prior.w[j] : c;
  };
  const tot = new Float64Array(genTypes);
  for (let p = 0; p < n; p++) tot[pairGen[p]] += count(p);
  for (let p = 0; p < n; p++) {
    const d = tot[pairGen[p]];
    expect(tables.t[2 * p]).toBe(Math.fround(d > 0 ? Math.max(T_FLOOR, count(p) / d) : T_FLOOR));
    expect(tables.t[2 * p + 1]).toBe(Math.fround(1 / genTypes)); // the other direction's entries untouched
  }
});
