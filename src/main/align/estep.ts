// The E-step of one sentence pair in both directions: gathers each direction's emission
// matrix from its lexicon, masks it with the pair's constraints, lets the direction's model
// compute link posteriors, keeps them (quantised, pair-posteriors.ts) for the agreement
// counts and decoding, and accumulates expected lexical counts.
// Independently trained directions count their own posteriors. Under agreement training
// (Liang et al. 2006) the counts instead come from the product of both directions'
// posteriors: c(g_a, o_b) += P_me(a,b)·P_other(a,b), and c(null, o_b) += P_me(null,b)², the
// direction's own null posterior sharpened like a product (null has no counterpart in the
// other direction), rather than the rest, 1 − Σ_a P_me·P_other (most of every word's mass,
// as the products are small): 0.1–0.5 AER points lower gdfa AER on the de-en, ro-en, zh-en
// and ja-en gold sets (en-fr +0.1), measured on those sets. Both directions of a pair run
// together so that their posteriors meet here, one pair at a time.
import { applyConstraints, type Constraints } from './constraints.ts';
import type { DirectionalModel } from './directional-model.ts';
import { Q, type PairPosteriors } from './pair-posteriors.ts';
import { SLOT, type LexCounts, type LexTables } from './translation-table.ts';
import { cellLayout, type Direction, type View } from './view.ts';

const QQ = 1 / (Q * Q);

/** What the E-step adds to the counts: nothing, each direction its own posteriors, or the agreement counts. */
export type Counting = 'none' | 'own' | 'agreement';

export interface EStepData {
  views: Record<Direction, View>;
  tables: LexTables;
  /** the counts of the slice of pairs this E-step runs on */
  counts: LexCounts;
  constraints: Constraints;
}

export class PairEStep {
  private readonly em: Record<Direction, Float64Array>;
  private readonly post: Float64Array;
  private readonly p: PairPosteriors;
  /** quantised uniform posteriors: fwd real, fwd null, rev real, rev null */
  private readonly uq = new Uint16Array(4);

  constructor(private readonly d: EStepData) {
    const { fwd } = d.views;
    // fwd's gen is rev's obs: both directions' local matrices fit (maxI + 1)·maxJ or its transpose
    const size = (Math.max(fwd.maxI, fwd.maxJ) + 1) * Math.max(fwd.maxI, fwd.maxJ);
    this.em = { fwd: new Float64Array(size), rev: new Float64Array(size) };
    this.post = new Float64Array(size);
    this.p = { I: 0, J: 0, fwd: new Uint16Array(size), rev: new Uint16Array(size) };
  }

  /** Posteriors of pair k, in the views' shown block (null when a side is empty: no links, no counts), counted as `counting` says. */
  run(k: number, models: Record<Direction, DirectionalModel>, learn: boolean, counting: Counting): PairPosteriors | null {
    const { fwd } = this.d.views;
    const x = k - fwd.first;
    const I = fwd.genOff[x + 1] - fwd.genOff[x],
      J = fwd.obsOff[x + 1] - fwd.obsOff[x];
    if (I === 0 || J === 0) return null;
    this.p.I = I;
    this.p.J = J;
    this.fillEmissions(k, I, J);
    this.direction('fwd', k, models.fwd, learn, counting === 'own');
    this.direction('rev', k, models.rev, learn, counting === 'own');
    if (counting === 'agreement') this.agreementCounts(k);
    return this.p;
  }

  /**
   * The counts of pair k while every table is still the uniform one newLexTables makes (the
   * first E-step of a plan that starts with IBM1, no saved model, no constraints on the pair):
   * all emissions of a direction are then one value and its null row another, so are the
   * posteriors, and the counts need neither emission matrices nor posterior passes. The
   * arithmetic is run's — IBM1's sum in its order, the same quantisation, the same additions —
   * so the counts are bit for bit the same (dup100k: ~0.35 s a thread instead of ~0.75 s).
   */
  countUniform(k: number, counting: 'own' | 'agreement'): void {
    const { views, counts } = this.d;
    const fwd = views.fwd,
      x0 = k - fwd.first;
    const I = fwd.genOff[x0 + 1] - fwd.genOff[x0],
      J = fwd.obsOff[x0 + 1] - fwd.obsOff[x0];
    if (I === 0 || J === 0) return;
    const [fReal, fNull] = this.uniformPosteriors('fwd', I);
    const [rReal, rNull] = this.uniformPosteriors('rev', J);
    const uq = this.uq;
    uq[0] = fReal * Q + 0.5;
    uq[1] = fNull * Q + 0.5;
    uq[2] = rReal * Q + 0.5;
    uq[3] = rNull * Q + 0.5;
    const agreement = counting === 'agreement';
    const { cellLo, cellHi } = fwd,
      base = fwd.cellOff[x0];
    // within a pair every addition to a direction's counts adds the same value, so their order does not matter
    const cf = counts.c.fwd,
      cr = counts.c.rev,
      vf = agreement ? uq[0] * uq[2] * QQ : fReal;
    for (let x = 0; x < I * J; x++) {
      const id = cellLo[base + x] | (cellHi[base + x] << 16);
      cf[id] += vf;
      if (!agreement) cr[id] += rReal;
    }
    this.uniformNullCounts(fwd, k, J, agreement ? uq[1] * uq[1] * QQ : fNull);
    this.uniformNullCounts(views.rev, k, I, agreement ? uq[3] * uq[3] * QQ : rNull);
  }

  /** IBM1's posteriors of a gen word and of null for a gen side of n words under uniform tables, summed as Ibm1 sums them. */
  private uniformPosteriors(dir: Direction, n: number): [number, number] {
    const real = this.d.tables.t[SLOT[dir]],
      nul = this.d.tables.tNull[dir][0];
    let z = 0;
    for (let a = 0; a < n; a++) z += real;
    z += nul;
    const inv = z > 0 ? 1 / z : 0;
    return [real * inv, nul * inv];
  }

  /** cNull(o_b) += w for the n obs words of pair k in direction v.dir. */
  private uniformNullCounts(v: View, k: number, n: number, w: number): void {
    const cNull = this.d.counts.cNull[v.dir],
      o0 = v.obsOff[k - v.first];
    for (let b = 0; b < n; b++) cNull[v.obsIds[o0 + b]] += w;
  }

  private direction(dir: Direction, k: number, model: DirectionalModel, learn: boolean, count: boolean): void {
    const v = this.d.views[dir];
    const x = k - v.first;
    const I = v.genOff[x + 1] - v.genOff[x],
      J = v.obsOff[x + 1] - v.obsOff[x];
    const con = this.d.constraints.get(k);
    if (con) applyConstraints(con, dir, this.em[dir], I, J);
    model.posteriors(this.em[dir], I, J, this.post, learn);
    this.store(v, k, I, J, count);
  }

  /**
   * Both directions' emission matrices of pair k (I source, J target words) in one pass over
   * its cells: fwd em[s*J + t] = t_fwd(t | s), rev em[t*I + s] = t_rev(s | t), then the null
   * rows (an IBM1 E-step over 50k dup100k pairs: 0.74–0.91 s CPU instead of 0.82–1.2 s with a
   * strided pass per direction over separate tables).
   */
  private fillEmissions(k: number, I: number, J: number): void {
    const { fwd, rev } = this.em;
    const t = this.d.tables.t,
      views = this.d.views,
      { cellLo, cellHi } = views.fwd,
      base = views.fwd.cellOff[k - views.fwd.first];
    for (let s = 0; s < I; s++) {
      for (let j = 0, x = s * J; j < J; j++, x++) {
        const p = 2 * (cellLo[base + x] | (cellHi[base + x] << 16));
        fwd[x] = t[p];
        rev[j * I + s] = t[p + 1];
      }
    }
    this.nullRow(views.fwd, k, fwd, I, J);
    this.nullRow(views.rev, k, rev, J, I);
  }

  /** em[I*J + b] = tNull(o_b) for the J obs words of pair k in direction v.dir. */
  private nullRow(v: View, k: number, em: Float64Array, I: number, J: number): void {
    const tNull = this.d.tables.tNull[v.dir],
      o0 = v.obsOff[k - v.first];
    for (let b = 0; b < J; b++) em[I * J + b] = tNull[v.obsIds[o0 + b]];
  }

  /** Quantises the posteriors into the pair's source-major layout; `count`: adds them to the direction's counts. */
  private store(v: View, k: number, I: number, J: number, count: boolean): void {
    const { post } = this;
    const P = this.p[v.dir];
    const { base, sg, so } = cellLayout(v, k, I, J);
    const c = this.d.counts.c[v.dir],
      { cellLo, cellHi } = v;
    for (let g = 0; g < I; g++) {
      const row = g * J,
        lg = g * sg;
      if (count) {
        for (let b = 0; b < J; b++) {
          const x = lg + b * so;
          P[x] = post[row + b] * Q + 0.5;
          c[cellLo[base + x] | (cellHi[base + x] << 16)] += post[row + b];
        }
      } else for (let b = 0; b < J; b++) P[lg + b * so] = post[row + b] * Q + 0.5;
    }
    const o0 = v.obsOff[k - v.first],
      nullRow = I * J,
      cNull = this.d.counts.cNull[v.dir];
    for (let b = 0; b < J; b++) {
      P[nullRow + b] = post[nullRow + b] * Q + 0.5;
      if (count) cNull[v.obsIds[o0 + b]] += post[nullRow + b];
    }
  }

  /** c(s, t) += P_fwd·P_rev per cell (one array serves both directions); c(null, o) += P_me(null, o)². */
  private agreementCounts(k: number): void {
    const { I, J, fwd: pf, rev: pr } = this.p;
    const { views, counts } = this.d;
    const c = counts.c.fwd,
      { cellLo, cellHi } = views.fwd,
      base = views.fwd.cellOff[k - views.fwd.first];
    for (let x = 0; x < I * J; x++) c[cellLo[base + x] | (cellHi[base + x] << 16)] += pf[x] * pr[x] * QQ;
    this.nullCounts(views.fwd, k, pf, J);
    this.nullCounts(views.rev, k, pr, I);
  }

  /** c(null, o_b) += P(null, b)² for the n obs words of pair k in direction v.dir. */
  private nullCounts(v: View, k: number, P: Uint16Array, n: number): void {
    const cNull = this.d.counts.cNull[v.dir],
      o0 = v.obsOff[k - v.first],
      cells = this.p.I * this.p.J;
    for (let b = 0; b < n; b++) cNull[v.obsIds[o0 + b]] += P[cells + b] * P[cells + b] * QQ;
  }
}
