// From the two directions' posteriors to links: each direction's MAP alignment (every obs
// word takes its most probable gen position unless null is more probable), symmetrised by
// a heuristic; every link carries the mean of the two directional posteriors of its cell.
// Gold links of the pair are always in the result (score 1); rejected links never are.
import type { Link } from '../../shared/domain.ts';
import { GOLD_POSSIBLE, REJECTED, type Constraints } from './constraints.ts';
import type { BitextArrays } from './corpus.ts';
import type { Posteriors } from './estep.ts';
import type { SymInput } from './symmetrise.ts';

export interface DecodeOptions {
  sym: (m: SymInput) => Uint8Array;
  threshold?: number;
}

/** MAP links of one direction into `out` (I×J source-major); fwd: obs = target. */
function mapLinks(p: Posteriors, fwd: boolean, base: number, o0: number, I: number, J: number, out: Uint8Array): void {
  const nObs = fwd ? J : I, nGen = fwd ? I : J;
  const sg = fwd ? J : 1, so = fwd ? 1 : J;
  for (let b = 0; b < nObs; b++) {
    let best = -1, bp = p.nullPost[o0 + b];
    for (let a = 0; a < nGen; a++) {
      const q = p.post[base + a * sg + b * so];
      if (q > bp) {
        bp = q;
        best = a;
      }
    }
    if (best >= 0) out[best * sg + b * so] = 1;
  }
}

/** Marks gold links (2 sure, 3 possible, score 1) and removes rejected ones in `a`. */
function applyFixed(con: Int32Array | undefined, I: number, J: number, a: Uint8Array, mean: Float32Array): void {
  if (!con) return;
  for (let p = 0; p < con.length; p += 3) {
    const s = con[p], t = con[p + 1], code = con[p + 2];
    if (s >= I || t >= J) continue;
    const x = s * J + t;
    if (code === REJECTED) a[x] = 0;
    else {
      a[x] = code === GOLD_POSSIBLE ? 3 : 2;
      mean[x] = 1;
    }
  }
}

/** Links of pair k, sorted by source then target position. */
export function decodePair(
  b: BitextArrays,
  k: number,
  fwd: Posteriors,
  rev: Posteriors,
  con: Int32Array | undefined,
  o: DecodeOptions,
): Link[] {
  const I = b.srcOff[k + 1] - b.srcOff[k], J = b.tgtOff[k + 1] - b.tgtOff[k];
  if (I === 0 || J === 0) return [];
  const base = b.cellOff[k];
  const mf = new Uint8Array(I * J), mr = new Uint8Array(I * J);
  mapLinks(fwd, true, base, b.tgtOff[k], I, J, mf);
  mapLinks(rev, false, base, b.srcOff[k], I, J, mr);
  const mean = new Float32Array(I * J);
  for (let x = 0; x < I * J; x++) mean[x] = 0.5 * (fwd.post[base + x] + rev.post[base + x]);
  const a = o.sym({ I, J, fwd: mf, rev: mr, mean, threshold: o.threshold });
  applyFixed(con, I, J, a, mean);
  const links: Link[] = [];
  for (let x = 0; x < I * J; x++) {
    if (!a[x]) continue;
    const kind = a[x] === 3 ? 'possible' : 'sure';
    links.push({ s: Math.floor(x / J), t: x % J, kind, score: Math.round(mean[x] * 1e4) / 1e4 });
  }
  return links;
}
