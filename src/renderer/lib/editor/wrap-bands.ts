// Where the line view wraps a long pair: both sentences are cut into bands, each band a
// run of source tokens above a run of target tokens that fit the view's width, with the
// links between them drawn inside the band. The cuts are chosen band by band so that as
// few links as possible join a source token of one band to a target token of another,
// the rows stay full, and — where there are no links to go by — both sides advance at
// the same relative pace. Hand-written: this is a layout rule of ours (Yawat and
// ClearAligner wrap the two sides independently and lose the links between rows).
import type { LinkRef } from '../../../shared/link-set.ts';

export interface Band {
  /** Source tokens [src[0], src[1]). */
  src: [number, number];
  /** Target tokens [tgt[0], tgt[1]). */
  tgt: [number, number];
}

/** What a cut costs, in links crossing bands: a link cut apart costs 1. */
const CROSSING = 1;
/** A row left empty for its whole width costs as much as 4 crossing links, so a row is
 *  cut up to about a fifth of its width short (≈ 4 tokens of 20) to keep a link whole. */
const EMPTY_ROW = 4;
/** One token of difference between the two sides' relative progress costs a quarter
 *  of a crossing link: without links the sides advance together. */
const PACE = 0.25;

/** The last end `e` (exclusive) such that tokens [start, e) fit in `width`; at least one token. */
function fill(widths: readonly number[], start: number, width: number): number {
  let used = 0;
  let end = start;
  while (end < widths.length && (end === start || used + widths[end] <= width)) used += widths[end++];
  return end;
}

/** cumulative[i] = width of tokens [0, i). */
function cumulative(widths: readonly number[]): Float64Array {
  const sum = new Float64Array(widths.length + 1);
  for (let i = 0; i < widths.length; i++) sum[i + 1] = sum[i] + widths[i];
  return sum;
}

/**
 * Cuts a pair into bands that fit `width`. `srcWidths`/`tgtWidths` are each token's width
 * with the gap after it; `links` are every link drawn (gold and suggestions). Every token
 * is in exactly one band, in order; a band may hold tokens of one side only.
 */
export function wrapBands(srcWidths: readonly number[], tgtWidths: readonly number[], links: readonly LinkRef[], width: number): Band[] {
  const n = srcWidths.length;
  const m = tgtWidths.length;
  const srcAt = cumulative(srcWidths);
  const tgtAt = cumulative(tgtWidths);
  const bands: Band[] = [];
  let a = 0;
  let c = 0;
  while (a < n || c < m) {
    const maxB = a < n ? fill(srcWidths, a, width) : n;
    const maxD = c < m ? fill(tgtWidths, c, width) : m;
    if (maxB === n && maxD === m) {
      bands.push({ src: [a, n], tgt: [c, m] });
      break;
    }
    // Links still to place, counted on a grid of candidate cuts: an index past the last
    // candidate is clamped to it (it lies after every cut this band can make).
    const rows = maxB - a + 1;
    const cols = maxD - c + 1;
    const grid = new Int32Array(rows * cols);
    for (const l of links) {
      if (l.s < a || l.t < c) continue;
      grid[Math.min(l.s - a, rows - 1) * cols + Math.min(l.t - c, cols - 1)]++;
    }
    // prefix[i][j] = links with s' < i and t' < j.
    const prefix = new Int32Array((rows + 1) * (cols + 1));
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++)
        prefix[(i + 1) * (cols + 1) + j + 1] =
          grid[i * cols + j] + prefix[i * (cols + 1) + j + 1] + prefix[(i + 1) * (cols + 1) + j] - prefix[i * (cols + 1) + j];
    const below = (i: number, j: number) => prefix[i * (cols + 1) + j];
    const pace = (n + m) / 2;
    let best = { b: maxB, d: maxD, cost: Infinity };
    for (let b = a < n ? a + 1 : n; b <= maxB; b++) {
      const srcFill = a < n ? 1 - (srcAt[b] - srcAt[a]) / width : 0;
      for (let d = c < m ? c : m; d <= maxD; d++) {
        if (b === a && d === c) continue;
        const i = b - a;
        const j = d - c;
        // Links with s < b and t ≥ d, plus links with s ≥ b and t < d.
        const crossing = below(i, cols) - below(i, j) + (below(rows, j) - below(i, j));
        const tgtFill = c < m && d > c ? 1 - (tgtAt[d] - tgtAt[c]) / width : c < m ? 1 : 0;
        const drift = n && m ? Math.abs(b / n - d / m) * pace : 0;
        const cost = crossing * CROSSING + (Math.max(0, srcFill) + Math.max(0, tgtFill)) * EMPTY_ROW + drift * PACE;
        if (cost < best.cost) best = { b, d, cost };
      }
    }
    bands.push({ src: [a, best.b], tgt: [c, best.d] });
    a = best.b;
    c = best.d;
  }
  return bands;
}
