// AssemblyScript source of the host AdamW step (WebAssembly, 128-bit SIMD): the global
// gradient norm and the update of src/main/nn/optim/adamw.ts (the math is in its header),
// over float32 buffers in this module's memory. `npm run build:wasm` compiles it into
// src/main/nn/optim/adamw-kernel-bytes.ts; adamw-kernel.ts owns the memory layout.
// Why WebAssembly: V8 runs the update one element at a time with a double-precision square
// root and division; four lanes at a time it takes 15 ms instead of 30–58 ms for the 5.3M
// parameters of bilstm-ctl on 5k en–de pairs (a sixth of a 300 ms training step before).
// A table whose gradient comes as rows (src/main/nn/optim/row-gradients.ts) is never made
// dense: a byte per table row marks the rows this step's gradient wrote, the norm sums only
// those, and the update gives the others a zero gradient without reading one. The tables
// are 4.85M of those 5.3M parameters, and a step's ~15k gradient rows land on at most 6.5k
// of their 38k rows.

/** The lanes of Σ g² over n floats at g, added to acc (squares summed in f64 as the host loop does). */
function squares(acc: v128, g: usize, n: i32): v128 {
  for (let i = 0; i + 4 <= n; i += 4) {
    const x = v128.load(g + ((<usize>i) << 2));
    const lo = f64x2.promote_low_f32x4(x);
    const hi = f64x2.promote_low_f32x4(i32x4.shuffle(x, x, 2, 3, 0, 1));
    acc = f64x2.add(acc, f64x2.add(f64x2.mul(lo, lo), f64x2.mul(hi, hi)));
  }
  return acc;
}

/** Σ g² of the last n % 4 floats of n at g. */
function squaresTail(g: usize, n: i32): f64 {
  let s: f64 = 0;
  for (let i = n & ~3; i < n; i++) {
    const x = <f64>load<f32>(g + ((<usize>i) << 2));
    s += x * x;
  }
  return s;
}

/** Σ g² over n floats at g. */
export function sumSquares(g: usize, n: i32): f64 {
  const acc = squares(f64x2.splat(0), g, n);
  return f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1) + squaresTail(g, n);
}

/** Σ g² over the rows of a table's gradient at g (row width w) marked in `touched`. */
export function sumSquaresRows(g: usize, touched: usize, tableRows: i32, w: i32): f64 {
  let acc = f64x2.splat(0);
  let tail: f64 = 0;
  for (let r = 0; r < tableRows; r++) {
    if (!load<u8>(touched + <usize>r)) continue;
    const row = g + ((<usize>r * <usize>w) << 2);
    acc = squares(acc, row, w);
    tail += squaresTail(row, w);
  }
  return f64x2.extract_lane(acc, 0) + f64x2.extract_lane(acc, 1) + tail;
}

// The step's constants (adamw.ts hostStepConstants), set once a step by setStep.
let beta1: f32 = 0;
let beta2: f32 = 0;
let a1: f32 = 0;
let a2: f32 = 0;
let keep: f32 = 0;
let step: f32 = 0;
let rootC2: f32 = 0;
let eps: f32 = 0;

/** Sets the constants of this step's updates. */
export function setStep(b1: f32, b2: f32, c1: f32, c2: f32, k: f32, st: f32, r: f32, e: f32): void {
  beta1 = b1;
  beta2 = b2;
  a1 = c1;
  a2 = c2;
  keep = k;
  step = st;
  rootC2 = r;
  eps = e;
}

/**
 * m ← β₁m + a1·g;  v ← β₂v + a2·g²;  p ← keep·p − step·m / (√v·rootC2 + ε), over n floats;
 * with `hasG` false, g is zero and not read (the same results: a1·0 and a2·0 add nothing).
 */
function updateSpan(p: usize, g: usize, m: usize, v: usize, n: i32, hasG: bool): void {
  const b1 = f32x4.splat(beta1);
  const b2 = f32x4.splat(beta2);
  const c1 = f32x4.splat(a1);
  const c2 = f32x4.splat(a2);
  const k = f32x4.splat(keep);
  const st = f32x4.splat(step);
  const r = f32x4.splat(rootC2);
  const e = f32x4.splat(eps);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const o = (<usize>i) << 2;
    let mi = f32x4.mul(b1, v128.load(m + o));
    let vi = f32x4.mul(b2, v128.load(v + o));
    if (hasG) {
      const gi = v128.load(g + o);
      mi = f32x4.add(mi, f32x4.mul(c1, gi));
      vi = f32x4.add(vi, f32x4.mul(c2, f32x4.mul(gi, gi)));
    }
    v128.store(m + o, mi);
    v128.store(v + o, vi);
    const den = f32x4.add(f32x4.mul(f32x4.sqrt(vi), r), e);
    v128.store(p + o, f32x4.sub(f32x4.mul(v128.load(p + o), k), f32x4.div(f32x4.mul(st, mi), den)));
  }
  for (; i < n; i++) {
    const o = (<usize>i) << 2;
    const gi: f32 = hasG ? load<f32>(g + o) : 0;
    const mi = beta1 * load<f32>(m + o) + a1 * gi;
    const vi = beta2 * load<f32>(v + o) + a2 * gi * gi;
    store<f32>(m + o, mi);
    store<f32>(v + o, vi);
    store<f32>(p + o, load<f32>(p + o) * keep - (step * mi) / (Mathf.sqrt(vi) * rootC2 + eps));
  }
}

/** The update of a dense gradient at g over n floats. */
export function update(p: usize, g: usize, m: usize, v: usize, n: i32): void {
  updateSpan(p, g, m, v, n, true);
}

/** The update of a table (row width w) whose gradient at g holds only the rows marked in `touched`. */
export function updateRows(p: usize, g: usize, m: usize, v: usize, touched: usize, tableRows: i32, w: i32): void {
  for (let r = 0; r < tableRows; r++) {
    const o = (<usize>r * <usize>w) << 2;
    updateSpan(p + o, g + o, m + o, v + o, w, load<u8>(touched + <usize>r) != 0);
  }
}

/**
 * Adds rows into a table's gradient at g (row width w, tableRows rows): row idx[k] (an i64,
 * negative counting from the end as a Gather's index does) receives rows[k·w … (k+1)·w).
 * A row not yet marked in `touched` is copied rather than added, and marked, so the
 * gradient needs no zeroing. Returns -1, or the first k whose index is outside the table
 * (nothing from it on is added). V8 added rows at ~6 ns a float: 16 ms a step for the 11k
 * subword rows of 5k en–de pairs.
 */
export function addRows(g: usize, touched: usize, idx: usize, rows: usize, n: i32, w: i32, tableRows: i32): i32 {
  const bytes = (<usize>w) << 2;
  for (let k = 0; k < n; k++) {
    let r = load<i64>(idx + ((<usize>k) << 3));
    if (r < 0) r += tableRows;
    if (r < 0 || r >= tableRows) return k;
    const to = g + <usize>r * bytes;
    const from = rows + <usize>k * bytes;
    if (!load<u8>(touched + <usize>r)) {
      memory.copy(to, from, bytes);
      store<u8>(touched + <usize>r, 1);
      continue;
    }
    let j = 0;
    for (; j + 4 <= w; j += 4) {
      const o = (<usize>j) << 2;
      v128.store(to + o, f32x4.add(v128.load(to + o), v128.load(from + o)));
    }
    for (; j < w; j++) {
      const o = (<usize>j) << 2;
      store<f32>(to + o, load<f32>(to + o) + load<f32>(from + o));
    }
  }
  return -1;
}

/** Where the caller's buffers may start. */
export function heapBase(): usize {
  return __heap_base;
}
