// Symmetrisation heuristics: combine the two directional alignments of a pair into one.
// All work on I×J 0/1 matrices in source-major layout (x = i*J + j, i source, j target).
//   intersect, union; grow-diag (Koehn et al. 2003: from the intersection, repeatedly add
//   union points 8-adjacent to a current point whose source or target word is still
//   unaligned); grow-diag-final (then add union points where either word is unaligned);
//   grow-diag-final-and (then add directional points where both words are unaligned);
//   fwd / rev (one direction as is); post: the mean of the two directional posteriors at
//   or above a threshold (default STATISTICAL_DEFAULTS.threshold).
// The grow-diag family keeps which words its points cover as it adds them, and the final steps
// go on from that (one coverage pass a pair instead of three, no union matrix): they run for
// every pair of every statistical alignment, in its last E-step.
import { STATISTICAL_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { SYMMETRISATION_CHOICES } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';

export interface SymInput {
  I: number;
  J: number;
  fwd: Uint8Array;
  rev: Uint8Array;
  /** mean of the two directional link posteriors per cell */
  mean: Float32Array;
  threshold?: number;
}

type Heuristic = (m: SymInput) => Uint8Array;

/** The 8 neighbours (source offset DI[n], target offset DJ[n]): sides first, then diagonals. */
const DI = Int8Array.from([-1, 0, 1, 0, -1, -1, 1, 1]);
const DJ = Int8Array.from([0, -1, 0, 1, -1, 1, -1, 1]);

function intersect(m: SymInput): Uint8Array {
  const out = new Uint8Array(m.I * m.J);
  for (let x = 0; x < out.length; x++) out[x] = m.fwd[x] & m.rev[x];
  return out;
}

function union(m: SymInput): Uint8Array {
  const out = new Uint8Array(m.I * m.J);
  for (let x = 0; x < out.length; x++) out[x] = m.fwd[x] | m.rev[x];
  return out;
}

/** Which source and target words `a` aligns. */
interface Coverage {
  src: Uint8Array;
  tgt: Uint8Array;
}

function coverage(m: SymInput, a: Uint8Array): Coverage {
  const src = new Uint8Array(m.I),
    tgt = new Uint8Array(m.J);
  for (let i = 0, x = 0; i < m.I; i++) for (let j = 0; j < m.J; j++, x++) if (a[x]) src[i] = tgt[j] = 1;
  return { src, tgt };
}

/** Grows `a` (covering `cov`, kept up to date) with union points next to its points whose source or target word is free. */
function growDiagOn(m: SymInput, a: Uint8Array, { src, tgt }: Coverage): void {
  const { I, J, fwd, rev } = m;
  for (let added = true; added;) {
    added = false;
    for (let i = 0; i < I; i++) {
      for (let j = 0; j < J; j++) {
        if (!a[i * J + j]) continue;
        for (let n = 0; n < 8; n++) {
          const ni = i + DI[n],
            nj = j + DJ[n];
          if (ni < 0 || nj < 0 || ni >= I || nj >= J) continue;
          const x = ni * J + nj;
          if (a[x] || !(fwd[x] | rev[x]) || (src[ni] && tgt[nj])) continue;
          a[x] = 1;
          src[ni] = tgt[nj] = 1;
          added = true;
        }
      }
    }
  }
}

/** Adds the points of `from` whose words are free (both, or either), keeping `cov` up to date. */
function finalOn(m: SymInput, a: Uint8Array, from: Uint8Array, both: boolean, { src, tgt }: Coverage): void {
  for (let i = 0; i < m.I; i++) {
    for (let j = 0; j < m.J; j++) {
      const x = i * m.J + j;
      if (!from[x] || a[x]) continue;
      const free = both ? !src[i] && !tgt[j] : !src[i] || !tgt[j];
      if (!free) continue;
      a[x] = 1;
      src[i] = tgt[j] = 1;
    }
  }
}

/** grow-diag from the intersection; `cov` is left covering the result. */
function grownDiag(m: SymInput): { a: Uint8Array; cov: Coverage } {
  const a = intersect(m);
  const cov = coverage(m, a);
  growDiagOn(m, a, cov);
  return { a, cov };
}

function growDiag(m: SymInput): Uint8Array {
  return grownDiag(m).a;
}

function growDiagFinal(m: SymInput): Uint8Array {
  const { a, cov } = grownDiag(m);
  finalOn(m, a, m.fwd, false, cov);
  finalOn(m, a, m.rev, false, cov);
  return a;
}

function growDiagFinalAnd(m: SymInput): Uint8Array {
  const { a, cov } = grownDiag(m);
  finalOn(m, a, m.fwd, true, cov);
  finalOn(m, a, m.rev, true, cov);
  return a;
}

function posterior(m: SymInput): Uint8Array {
  const th = m.threshold ?? STATISTICAL_DEFAULTS.threshold;
  const out = new Uint8Array(m.I * m.J);
  for (let x = 0; x < out.length; x++) out[x] = m.mean[x] >= th ? 1 : 0;
  return out;
}

const BY_NAME: Record<string, Heuristic> = {
  intersect,
  union,
  'grow-diag': growDiag,
  'grow-diag-final': growDiagFinal,
  'grow-diag-final-and': growDiagFinalAnd,
  fwd: (m) => m.fwd.slice(),
  rev: (m) => m.rev.slice(),
  post: posterior,
};

/** Every symmetrisation by its name and by its short name (gdfa, gdf: SYMMETRISATION_CHOICES). */
export const SYMMETRISATIONS: Record<string, Heuristic> = {
  ...BY_NAME,
  ...Object.fromEntries(SYMMETRISATION_CHOICES.flatMap((s) => (s.short ? [[s.short, BY_NAME[s.name]]] : []))),
};

export function symmetriser(name: string): Heuristic {
  // Own keys only: `__proto__` or `constructor` must not reach the prototype.
  const h = Object.hasOwn(SYMMETRISATIONS, name) ? SYMMETRISATIONS[name] : undefined;
  if (!h) throw new UserError(`unknown symmetrisation "${name}" (one of: ${Object.keys(SYMMETRISATIONS).join(', ')})`);
  return h;
}
