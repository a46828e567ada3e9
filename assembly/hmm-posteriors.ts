// AssemblyScript source of the HMM aligner's posterior kernel (WebAssembly, 128-bit SIMD):
// pruning, scaled forward–backward, posteriors and the fertility projection of one sentence
// pair, as src/main/align/models/hmm.ts describes them (the math is in its header). `npm run
// build:wasm` compiles it into src/main/align/models/hmm-kernel-bytes.ts; hmm-kernel.ts owns
// the memory layout and calls it.
// Why WebAssembly: these loops are ~2/3 of `mekong align`'s CPU time, and V8 runs them one
// multiply-add at a time; here the inner loops run two at a time (f64x2) without bounds
// checks. dup100k (agree, gdfa, 2 threads): 18.2 s → 13.0 s wall, 33.1 → 22.8 s CPU, links
// identical on 20k pairs and on all but 2 of 100k (docs/experiments.md).
//
// Memory: the caller lays out the buffers from heapBase() on (below it lies this module's
// own data, the table of Math.exp) and hands their addresses to setLayout(); every index
// below is in elements of the buffer named. Layout of a pair with gen length I and obs
// length J (as DirectionalModel's): em[a*J + b] emissions, em[I*J + b] the null row; post the
// same; scaled the projected emissions; alpha 2I per obs position (real states, then null
// states by memory); beta I per obs position; scale J; mem I; act I per obs position (i32);
// nAct J (i32); trans: (I+1)·I rows (1−p0)·A_q(a) for q = −1..I−1, then the same transposed
// (a-major) for q ≥ 0, then I end weights c(I − q).

/** Relative emission below which a gen position is left out of forward–backward. */
const PRUNE: f64 = 1e-4;

let pEm: usize = 0;
let pPost: usize = 0;
let pScaled: usize = 0;
let pAlpha: usize = 0;
let pBeta: usize = 0;
let pScale: usize = 0;
let pMem: usize = 0;
let pAct: usize = 0;
let pNAct: usize = 0;
let pTrans: usize = 0;

/** First free byte after this module's static data. */
export function heapBase(): usize {
  return __heap_base;
}

export function setLayout(
  em: usize,
  post: usize,
  scaled: usize,
  alpha: usize,
  beta: usize,
  scale: usize,
  mem: usize,
  act: usize,
  nAct: usize,
  trans: usize,
): void {
  pEm = em;
  pPost = post;
  pScaled = scaled;
  pAlpha = alpha;
  pBeta = beta;
  pScale = scale;
  pMem = mem;
  pAct = act;
  pNAct = nAct;
  pTrans = trans;
}

function ld(p: usize, i: i32): f64 {
  return load<f64>(p + ((<usize>i) << 3));
}
function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + ((<usize>i) << 3), v);
}
function ldi(p: usize, i: i32): i32 {
  return load<i32>(p + ((<usize>i) << 2));
}
function sti(p: usize, i: i32, v: i32): void {
  store<i32>(p + ((<usize>i) << 2), v);
}
function at(p: usize, i: i32): usize {
  return p + ((<usize>i) << 3);
}

/** Σ_{i<n} x[i]·y[i], two lanes and two accumulators. */
function dot(x: usize, y: usize, n: i32): f64 {
  let s0 = f64x2.splat(0);
  let s1 = f64x2.splat(0);
  let i = 0;
  for (; i + 3 < n; i += 4) {
    const o = (<usize>i) << 3;
    s0 = f64x2.add(s0, f64x2.mul(v128.load(x + o), v128.load(y + o)));
    s1 = f64x2.add(s1, f64x2.mul(v128.load(x + o, 16), v128.load(y + o, 16)));
  }
  s0 = f64x2.add(s0, s1);
  let s: f64 = f64x2.extract_lane(s0, 0) + f64x2.extract_lane(s0, 1);
  for (; i < n; i++) s += ld(x, i) * ld(y, i);
  return s;
}

/** y[i] += w·x[i] for i < n. */
function axpy(y: usize, x: usize, w: f64, n: i32): void {
  const wv = f64x2.splat(w);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const o = (<usize>i) << 3;
    v128.store(y + o, f64x2.add(v128.load(y + o), f64x2.mul(wv, v128.load(x + o))));
  }
  for (; i < n; i++) st(y, i, ld(y, i) + w * ld(x, i));
}

/**
 * Active gen positions per obs position b: act[b*I .. b*I + nAct[b]) lists the a with
 * em(a,b) ≥ PRUNE·max_a' em(a',b). The others get α̂ = 0 and are skipped in both passes,
 * which turns the O(I²) step into O(I·#active); their posteriors are below ~PRUNE anyway.
 */
function prune(em: usize, I: i32, J: i32): void {
  for (let b = 0; b < J; b++) {
    let max: f64 = 0;
    for (let a = 0; a < I; a++) {
      const v = ld(em, a * J + b);
      if (v > max) max = v;
    }
    const th = max * PRUNE;
    let n = 0;
    for (let a = 0; a < I; a++) {
      if (ld(em, a * J + b) >= th) {
        sti(pAct, b * I + n, a);
        n++;
      }
    }
    sti(pNAct, b, n);
  }
}

/** α̂ per obs position b: 2I values, real states then null states, scaled to sum 1. */
function forward(em: usize, I: i32, J: i32, p0: f64): void {
  const A = pTrans;
  const AT = at(A, (I + 1) * I);
  const nullRow = I * J;
  for (let b = 0; b < J; b++) {
    const row = b * 2 * I;
    if (b == 0) {
      for (let a = 0; a < I; a++) {
        st(pAlpha, a, ld(A, a) * ld(em, a * J));
        st(pAlpha, I + a, ((p0 * ld(A, a)) / (1 - p0)) * ld(em, nullRow));
      }
    } else {
      const prev = row - 2 * I;
      for (let q = 0; q < I; q++) st(pMem, q, ld(pAlpha, prev + q) + ld(pAlpha, prev + I + q));
      for (let a = 0; a < I; a++) st(pAlpha, row + a, 0);
      const na = ldi(pNAct, b);
      for (let n = 0; n < na; n++) {
        const a = ldi(pAct, b * I + n);
        st(pAlpha, row + a, dot(pMem, at(AT, a * I), I) * ld(em, a * J + b));
      }
      const en = p0 * ld(em, nullRow + b);
      for (let q = 0; q < I; q++) st(pAlpha, row + I + q, ld(pMem, q) * en);
    }
    let z: f64 = 0;
    for (let s = 0; s < 2 * I; s++) z += ld(pAlpha, row + s);
    const inv: f64 = z > 0 ? 1 / z : 0;
    st(pScale, b, z > 0 ? z : 1);
    for (let s = 0; s < 2 * I; s++) st(pAlpha, row + s, ld(pAlpha, row + s) * inv);
  }
}

/**
 * β̂ per obs position b: I values, one per memory q. Each active a of position b adds its
 * em(a,b)·β̂_b(a) times the column A_·(a) — a row of the transposed block — to every q.
 */
function backward(em: usize, I: i32, J: i32, p0: f64): void {
  const AT = at(pTrans, (I + 1) * I);
  const end = at(AT, I * I);
  const nullRow = I * J;
  for (let q = 0; q < I; q++) st(pBeta, (J - 1) * I + q, ld(end, q));
  for (let b = J - 1; b > 0; b--) {
    const cur = b * I;
    const prev = at(pBeta, cur - I);
    const en = p0 * ld(em, nullRow + b);
    for (let q = 0; q < I; q++) st(prev, q, en * ld(pBeta, cur + q));
    const na = ldi(pNAct, b);
    for (let n = 0; n < na; n++) {
      const a = ldi(pAct, b * I + n);
      axpy(prev, at(AT, a * I), ld(em, a * J + b) * ld(pBeta, cur + a), I);
    }
    const inv = 1 / ld(pScale, b);
    for (let q = 0; q < I; q++) st(prev, q, ld(prev, q) * inv);
  }
}

/** γ_b(a) = α̂_b(a)β̂_b(a), γ_b(null) = Σ_q α̂_b(I+q)β̂_b(q), normalised per b. */
function gamma(I: i32, J: i32): void {
  const nullRow = I * J;
  for (let b = 0; b < J; b++) {
    const row = b * 2 * I;
    const br = b * I;
    let z: f64 = 0;
    let nul: f64 = 0;
    for (let a = 0; a < I; a++) {
      const g = ld(pAlpha, row + a) * ld(pBeta, br + a);
      st(pPost, a * J + b, g);
      z += g;
      nul += ld(pAlpha, row + I + a) * ld(pBeta, br + a);
    }
    z += nul;
    const inv: f64 = z > 0 ? 1 / z : 0;
    for (let a = 0; a < I; a++) st(pPost, a * J + b, ld(pPost, a * J + b) * inv);
    st(pPost, nullRow + b, nul * inv);
  }
}

function forwardBackward(em: usize, I: i32, J: i32, p0: f64): void {
  prune(em, I, J);
  forward(em, I, J, p0);
  backward(em, I, J, p0);
  gamma(I, J);
}

/** One dual step of the fertility constraint: false when no gen word exceeds 1, else `scaled` holds the new emissions. */
function projectFertility(I: i32, J: i32, step: f64): bool {
  let over = false;
  for (let a = 0; a < I; a++) {
    let f: f64 = 0;
    for (let b = 0; b < J; b++) f += ld(pPost, a * J + b);
    const w: f64 = f > 1 ? Math.exp(-step * (f - 1)) : 1;
    over = over || f > 1;
    for (let b = 0; b < J; b++) st(pScaled, a * J + b, ld(pEm, a * J + b) * w);
  }
  for (let b = 0; b < J; b++) st(pScaled, I * J + b, ld(pEm, I * J + b));
  return over;
}

/** post ← the posteriors of em under trans and p0, after one fertility dual step of size `step`. */
export function posteriors(I: i32, J: i32, p0: f64, step: f64): void {
  forwardBackward(pEm, I, J, p0);
  if (projectFertility(I, J, step)) forwardBackward(pScaled, I, J, p0);
}
