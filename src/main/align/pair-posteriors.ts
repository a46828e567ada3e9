// Link posteriors of one sentence pair in both directions, as the E-step leaves them for
// the agreement counts and for decoding: 16-bit fixed point (value·Q, Q = 65535), ample
// precision (1.5e-5) for both. Only one pair's are kept at a time (em-slice.ts), never the
// corpus's: at dup100k's 29.3M cells those were 117 MB.
//
// Layout: source length I, target length J, cells source-major. fwd[s*J + t] = p(t → s) and
// fwd[I*J + t] = p(t → null); rev[s*J + t] = p(s → t) and rev[I*J + s] = p(s → null).

export const Q = 65535;

export interface PairPosteriors {
  I: number;
  J: number;
  fwd: Uint16Array;
  rev: Uint16Array;
}
