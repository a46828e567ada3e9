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
// Pairs decode one at a time, in the E-step that produced their posteriors, into a
// temporary file per slice of pairs (LinkWriter); linksOf reads them back as the domain's
// Link objects, pair by pair. As it writes, LinkWriter also counts every cell by its mean
// posterior (shared/link-count-curve.ts): the links the posterior decoding would give at any
// threshold, whichever decoding this run used (the Align… dialog's estimate).
import { closeSync, openSync } from 'node:fs';
import type { Link } from '../../shared/domain.ts';
import { countScore, CURVE_FLOOR, emptyCounts, storedScore } from '../../shared/link-count-curve.ts';
import { Q, type PairPosteriors } from './pair-posteriors.ts';
import { symmetriser } from './symmetrise.ts';
import { readAll, writeAll } from './typed-io.ts';
import { grownFor } from '../grown-array.ts';

/** Mean posterior a MAP link needs to enter a two-direction heuristic. */
const AGREE = 0.5;

export interface DecodeOptions {
  /** symmetrisation heuristic name (symmetrise.ts) */
  sym: string;
  threshold?: number;
  /** the directions were trained in agreement: filter their MAP links by AGREE */
  agreed?: boolean;
}

/** The links of pairs k0..k1-1 (all sure), in a temporary file (LinkWriter's format). */
export interface LinkFile {
  k0: number;
  k1: number;
  file: string;
  /** the pairs' cells of mean posterior ≥ CURVE_FLOOR, counted by stored score (link-count-curve.ts) */
  meanCounts: number[];
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

/**
 * The directions' MAP links and the mean posteriors of the last pair decoded, reused (grown as
 * pairs need) rather than allocated per pair: with the symmetrisers' single coverage pass,
 * decoding and writing 20k dup100k pairs' posteriors took 225 ms instead of 400.
 */
let mf = new Uint8Array(1 << 10),
  mr = new Uint8Array(1 << 10),
  mean = new Float32Array(1 << 10);

/**
 * Link cells of one pair (a[x] = 1: a link) and their scores. `mean` is this module's buffer,
 * valid until the next call (LinkWriter.add takes it at once); `a` is the pair's own.
 */
export function decodePair(p: PairPosteriors, o: DecodeOptions): { a: Uint8Array; mean: Float32Array } {
  const { I, J } = p,
    n = I * J;
  if (n > mean.length) {
    mf = new Uint8Array(2 * n);
    mr = new Uint8Array(2 * n);
    mean = new Float32Array(2 * n);
  }
  const f = mf.subarray(0, n),
    r = mr.subarray(0, n),
    m = mean.subarray(0, n);
  f.fill(0);
  r.fill(0);
  mapLinks(p.fwd, true, I, J, f);
  mapLinks(p.rev, false, I, J, r);
  const filter = o.agreed && o.sym !== 'fwd' && o.sym !== 'rev';
  for (let x = 0; x < n; x++) {
    m[x] = (p.fwd[x] + p.rev[x]) * (0.5 / Q);
    if (filter && m[x] < AGREE) f[x] = r[x] = 0;
  }
  const a = symmetriser(o.sym)({ I, J, fwd: f, rev: r, mean: m, threshold: o.threshold });
  return { a, mean: m };
}

/** Pairs whose links a LinkWriter buffers before writing them out. */
const CHUNK_PAIRS = 4096;

/**
 * Writes the decoded links of pairs k0..k1-1, given in order (pairs without links may be left
 * out), to a file in chunks of CHUNK_PAIRS pairs: [pairs m, links n] (Int32), the links of
 * each pair (Int32 × m), then the n links' source positions, target positions (Int32) and
 * scores (Float32). Nothing per pair stays in memory: dup100k's 1.25M links would take 15 MB.
 * The file is open only while a chunk is written (a thread terminated by a cancel leaves no
 * descriptor open on it).
 */
export class LinkWriter {
  /** the next pair without its count */
  private next: number;
  private m = 0;
  private n = 0;
  private readonly count = new Int32Array(CHUNK_PAIRS);
  private s = new Int32Array(1 << 10);
  private t = new Int32Array(1 << 10);
  private score = new Float32Array(1 << 10);
  private readonly meanCounts = emptyCounts();

  constructor(
    private readonly k0: number,
    private readonly k1: number,
    private readonly file: string,
  ) {
    closeSync(openSync(file, 'w'));
    this.next = k0;
  }

  private close1(links: number): void {
    this.count[this.m++] = links;
    this.next++;
    if (this.m === CHUNK_PAIRS) this.flush();
  }

  private flush(): void {
    if (this.m === 0) return;
    const { m, n } = this;
    const fd = openSync(this.file, 'a');
    try {
      writeAll(fd, Int32Array.of(m, n), 2);
      writeAll(fd, this.count, m);
      writeAll(fd, this.s, n);
      writeAll(fd, this.t, n);
      writeAll(fd, this.score, n);
    } finally {
      closeSync(fd);
    }
    this.m = this.n = 0;
  }

  private grow(need: number): void {
    if (need <= this.s.length) return;
    this.s = grownFor(this.s, need);
    this.t = grownFor(this.t, need);
    this.score = grownFor(this.score, need);
  }

  /** The links of pair k (J target words), sorted by source, then target position. */
  add(k: number, J: number, { a, mean }: { a: Uint8Array; mean: Float32Array }): void {
    while (this.next < k) this.close1(0);
    this.grow(this.n + a.length);
    let n = this.n;
    for (let x = 0; x < a.length; x++) {
      if (!a[x]) continue;
      this.s[n] = Math.floor(x / J);
      this.t[n] = x % J;
      this.score[n++] = mean[x];
    }
    const links = n - this.n;
    this.n = n;
    this.close1(links);
    for (let x = 0; x < mean.length; x++) if (mean[x] >= CURVE_FLOOR) countScore(this.meanCounts, storedScore(mean[x]));
  }

  /** Writes out what is left. */
  finish(): LinkFile {
    while (this.next < this.k1) this.close1(0);
    this.flush();
    return { k0: this.k0, k1: this.k1, file: this.file, meanCounts: this.meanCounts };
  }
}

/** The Link lists of the pairs of `files` (slices in pair order), each made as it is read, chunk by chunk; scores rounded to 4 decimals. */
export function* linksOf(files: readonly LinkFile[]): Generator<Link[]> {
  for (const f of files) {
    const fd = openSync(f.file, 'r');
    try {
      const head = new Int32Array(2);
      for (let at = 0, k = f.k0; k < f.k1;) {
        at = readAll(fd, head, 2, at);
        const [m, n] = head;
        const count = new Int32Array(m),
          s = new Int32Array(n),
          t = new Int32Array(n),
          score = new Float32Array(n);
        for (const a of [count, s, t, score]) at = readAll(fd, a, a.length, at);
        for (let x = 0, y = 0; x < m; x++, k++) {
          const links: Link[] = [];
          for (const end = y + count[x]; y < end; y++) {
            links.push({ s: s[y], t: t[y], kind: 'sure', score: storedScore(score[y]) });
          }
          yield links;
        }
      }
    } finally {
      closeSync(fd);
    }
  }
}
