// From the two directions' posteriors to links: each direction's MAP alignment (every obs
// word takes its most probable gen position unless null is more probable), symmetrised by
// a heuristic; every link carries the mean of the two directional posteriors of its cell.
// When the directions were trained in agreement (o.agreed), MAP links whose mean posterior
// is below AGREE are dropped before a heuristic combines the two directions: a direction's
// best guess that the other direction gives little mass is mostly wrong (agree gdfa AER
// 0.1–1.8 points lower on the gold sets, ro-en unchanged). Not for independently trained
// directions, whose posteriors are too flat for it (IBM1 gdfa lost up to 21 points); fwd
// and rev keep their direction's MAP links as they are.
// A pair's gold and rejected links shaped its posteriors (constraints.ts) but are not put
// into or taken out of its links here: a caller that stores or shows them applies the
// linguist's corrections the one way (corrections.ts withCorrections).
// Pairs decode one at a time, in the E-step that produced their posteriors, into flat
// arrays (cheap to send from a worker thread); linksOf turns them into the domain's Link
// objects.
import type { Link } from '../../shared/domain.ts';
import { Q, type PairPosteriors } from './pair-posteriors.ts';
import { symmetriser } from './symmetrise.ts';

/** Mean posterior a MAP link needs to enter a two-direction heuristic. */
const AGREE = 0.5;

export interface DecodeOptions {
  /** symmetrisation heuristic name (symmetrise.ts) */
  sym: string;
  threshold?: number;
  /** the directions were trained in agreement: filter their MAP links by AGREE */
  agreed?: boolean;
}

/** Links of pairs k0..k1-1 (all sure): pair k0+x owns entries off[x] .. off[x+1] of s, t, score. */
export interface FlatLinks {
  k0: number;
  off: Int32Array;
  s: Int32Array;
  t: Int32Array;
  score: Float32Array;
}

/** MAP links of one direction into `out` (I×J source-major); fwd: obs = target. */
function mapLinks(post: Uint16Array, fwd: boolean, I: number, J: number, out: Uint8Array): void {
  const nObs = fwd ? J : I,
    nGen = fwd ? I : J;
  const sg = fwd ? J : 1,
    so = fwd ? 1 : J;
  for (let b = 0; b < nObs; b++) {
    let best = -1,
      bp = post[I * J + b];
    for (let a = 0; a < nGen; a++) {
      const q = post[a * sg + b * so];
      if (q > bp) {
        bp = q;
        best = a;
      }
    }
    if (best >= 0) out[best * sg + b * so] = 1;
  }
}

/** Link cells of one pair (a[x] = 1: a link) and their scores. */
export function decodePair(p: PairPosteriors, o: DecodeOptions): { a: Uint8Array; mean: Float32Array } {
  const { I, J } = p;
  const mf = new Uint8Array(I * J),
    mr = new Uint8Array(I * J);
  mapLinks(p.fwd, true, I, J, mf);
  mapLinks(p.rev, false, I, J, mr);
  const mean = new Float32Array(I * J);
  for (let x = 0; x < I * J; x++) mean[x] = (p.fwd[x] + p.rev[x]) * (0.5 / Q);
  if (o.agreed && o.sym !== 'fwd' && o.sym !== 'rev') for (let x = 0; x < I * J; x++) if (mean[x] < AGREE) mf[x] = mr[x] = 0;
  const a = symmetriser(o.sym)({ I, J, fwd: mf, rev: mr, mean, threshold: o.threshold });
  return { a, mean };
}

/** Collects the decoded links of pairs k0..k1-1, given in order (pairs without links may be left out). */
export class LinkWriter {
  private f: FlatLinks;
  private n = 0;
  /** pairs k0 .. k0+done-1 have their offsets */
  private done = 0;

  constructor(
    private readonly k0: number,
    private readonly k1: number,
  ) {
    // about 12.5 links per pair at dup100k; the arrays grow when a slice needs more
    this.f = { k0, off: new Int32Array(k1 - k0 + 1), ...linkArrays(16 * (k1 - k0) + 16) };
  }

  private closeBefore(k: number): void {
    while (this.done < k - this.k0) this.f.off[++this.done] = this.n;
  }

  private grow(need: number): void {
    const f = this.f;
    if (need <= f.s.length) return;
    const more = linkArrays(Math.max(need, Math.ceil(1.5 * f.s.length)));
    more.s.set(f.s);
    more.t.set(f.t);
    more.score.set(f.score);
    this.f = { ...f, ...more };
  }

  /** The links of pair k (J target words), sorted by source, then target position. */
  add(k: number, J: number, { a, mean }: { a: Uint8Array; mean: Float32Array }): void {
    this.closeBefore(k);
    this.grow(this.n + a.length);
    const f = this.f;
    let n = this.n;
    for (let x = 0; x < a.length; x++) {
      if (!a[x]) continue;
      f.s[n] = Math.floor(x / J);
      f.t[n] = x % J;
      f.score[n++] = mean[x];
    }
    this.n = n;
    this.f.off[++this.done] = n;
  }

  finish(): FlatLinks {
    this.closeBefore(this.k1);
    const { f, n } = this;
    return { ...f, s: f.s.slice(0, n), t: f.t.slice(0, n), score: f.score.slice(0, n) };
  }
}

function linkArrays(n: number): Pick<FlatLinks, 's' | 't' | 'score'> {
  return { s: new Int32Array(n), t: new Int32Array(n), score: new Float32Array(n) };
}

/** The buffers of `f`, to transfer rather than copy to another thread. */
export function linkBuffers(f: FlatLinks): ArrayBuffer[] {
  return [f.off, f.s, f.t, f.score].map((a) => a.buffer as ArrayBuffer);
}

/** The Link list of pair k0 + x of `f`; scores rounded to 4 decimals. */
function pairLinks(f: FlatLinks, x: number): Link[] {
  const links: Link[] = [];
  for (let y = f.off[x]; y < f.off[x + 1]; y++) {
    links.push({ s: f.s[y], t: f.t[y], kind: 'sure', score: Math.round(f.score[y] * 1e4) / 1e4 });
  }
  return links;
}

/** The Link lists of `flat`'s pairs (slices in pair order), each made as it is read. */
export function* linksOf(flat: readonly FlatLinks[]): Generator<Link[]> {
  for (const f of flat) for (let x = 0; x + 1 < f.off.length; x++) yield pairLinks(f, x);
}
