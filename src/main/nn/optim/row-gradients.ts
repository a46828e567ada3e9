// A table's gradient as the rows its Gathers read, not as a dense tensor. The VJP of a Gather
// (ops/select.ts) scatter-adds the cotangent rows into a zero-filled copy of the table, and a
// session returning that [V, D] tensor zero-fills, scatters and copies out all of it (for
// ~2,300 rows of a 21k-word table on 5k en–de pairs; its cost: docs/experiments.md). The Trainer asks the session for the indices and rows instead and adds
// them into the optimiser's gradient buffer (duplicate indices add, as ScatterND's reduction
// 'add' does): here for the typed-array optimiser, in WebAssembly for the float32 kernel
// (adamw-kernel.ts).
import type { Floats } from './adamw.ts';

/** Rows of a gradient: row `idx[k]` of the table receives `rows[k·w … (k+1)·w)`, w its row width. */
export interface GradientRows {
  idx: BigInt64Array;
  rows: Floats;
}

/** A dense gradient, or the rows of one in parts (each Gather of the table gives one; autodiff.ts gradientRows). */
export type Gradient = Floats | GradientRows[];

function addRows(into: Floats, { idx, rows }: GradientRows): void {
  if (!idx.length) return;
  const w = rows.length / idx.length;
  const tableRows = into.length / w;
  for (let k = 0; k < idx.length; k++) {
    let r = Number(idx[k]);
    if (r < 0) r += tableRows;
    if (r < 0 || r >= tableRows) throw outsideTable(idx[k], tableRows);
    const to = r * w;
    const from = k * w;
    for (let j = 0; j < w; j++) into[to + j] += rows[from + j];
  }
}

/** The error of a row index outside its table (a bug in the graph, not in the user's data). */
export function outsideTable(index: bigint, tableRows: number): Error {
  return new Error(`gradient rows: index ${index} outside a table of ${tableRows} rows`);
}

/** `g` as a dense gradient like `param` (rows added into zeros). */
export function denseGradient(g: Gradient, param: Floats): Floats {
  if (!Array.isArray(g)) return g;
  const out = param instanceof Float64Array ? new Float64Array(param.length) : new Float32Array(param.length);
  for (const part of g) addRows(out, part);
  return out;
}
