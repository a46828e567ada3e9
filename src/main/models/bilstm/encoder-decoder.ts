// The encoder–decoder of Wada et al. as in seed 003 §III.A, built per bucket length T.
// Index conventions: b batch row, i/j word positions (0-based, right-padded to T), D the
// model width; language ℓ ∈ {s, t}, each with its own word table E^ℓ [V_ℓ, D] and both
// sharing a subword table Z [S, D].
//   eq. 10  r_i = E^ℓ[w_i] + Σ_k ω_ik Z[q_ik]     (ω_ik = 1/|Q(w_i)|: average of subwords)
//   eq. 1–2 u = f(r) — one BiLSTM (D/2 per direction) shared by both languages
//   eq. 5/7 decoders g̃^ℓ (left-to-right, input [BOS, w₁…w_M]) and ḡ^ℓ (right-to-left,
//           input [EOS, w_M…w₁]), one pair per language, read only the words of ℓ
//   eq. 9   α_ij = softmax_j(h_i·u_j),  h'_i = W(Σ_j α_ij u_j + Σ_j α_ij r_j + h_i)  (W shared)
//   eq. 8   p(y_i) = softmax(E^ℓ h'_i)  (output tied to ℓ's word table; the token loss is
//           nn's tableCrossEntropy)
//           (over the output vocabulary x.out of vocab-batches.ts: all words unless the vocabulary is large)
// Every decoder of ℓ is scored against both encodings: of the sentence itself
// (reconstruction) and of its translation (translation); the decoder states do not depend
// on the source, so each decoder runs once and only attention and output run twice.
// L_ED = mean over the 8 (language, direction, source) terms of the token cross-entropy.
import { linear, type Scope, type Value } from '../../nn/index.ts';
import {
  add,
  concat,
  expandAs,
  gather,
  gatherElements,
  matmul,
  mul,
  reduceSum,
  slice,
  softmax,
  sub,
  transposeLast,
  unsqueeze,
} from '../../nn/ops/all-ops.ts';
import { groupedLstm } from '../../nn/blocks/grouped-lstm.ts';

export interface ModelDims {
  dim: number;
  srcVocab: number;
  tgtVocab: number;
  subwords: number;
  maxSubwords: number;
}

/** The graph inputs of one side of a pair (see vocab-batches.ts for their meaning). */
export interface SideInputs {
  ids: Value;
  sub: Value;
  subw: Value;
  mask: Value;
  rev: Value;
  next: Value;
  prev: Value;
  /** the output vocabulary's word ids; next and prev index into it */
  out: Value;
  dmask: Value;
  /** flat positions (b·(T+1) + i) of the decoder targets that are words or EOS/BOS, not padding */
  rows: Value;
}

/** One side's inputs; `B` is the batch: static in training graphs (bilstm-train.ts), the symbol 'B' for inference over batches of any size. */
export function sideInputs(s: Scope, x: 's' | 't', T: number, K: number, B: number | 'B' = 'B'): SideInputs {
  const g = s.graph;
  const i64 = (n: string, shape: (number | string)[]) => g.input(`${x}.${n}`, 'int64', shape);
  const f32 = (n: string, shape: (number | string)[]) => g.input(`${x}.${n}`, 'float32', shape);
  return {
    ids: i64('ids', [B, T]),
    sub: i64('sub', [B, T, K]),
    subw: f32('subw', [B, T, K]),
    mask: f32('mask', [B, T]),
    rev: i64('rev', [B, T]),
    next: i64('next', [B, T + 1]),
    prev: i64('prev', [B, T + 1]),
    dmask: f32('dmask', [B, T + 1]),
    rows: i64('rows', [`N${x}`]),
    out: i64('out', [`V${x}`]),
  };
}

export function wordTable(s: Scope, x: 's' | 't', d: ModelDims): Value {
  return s.sub(`emb.${x}`).normal('table', [x === 's' ? d.srcVocab : d.tgtVocab, d.dim], 1 / Math.sqrt(d.dim));
}

/** Eq. 10: subword-aware word embeddings [B, T, D]. */
export function embed(s: Scope, x: 's' | 't', inp: SideInputs, d: ModelDims): Value {
  const z = s.sub('emb.sub').normal('table', [d.subwords, d.dim], 1 / Math.sqrt(d.dim));
  const subAvg = reduceSum(mul(gather(z, inp.sub), unsqueeze(inp.subw, [-1])), [2]);
  return add(gather(wordTable(s, x, d), inp.ids), subAvg);
}

/** Each row's words in reverse order: y_b,i = x_b,rev_b,i (padding maps to position 0). */
export function reversed(x: Value, rev: Value): Value {
  return gatherElements(x, expandAs(unsqueeze(rev, [-1]), x), 1);
}

export interface Embedded {
  inp: SideInputs;
  /** eq. 10 embeddings [B, T, D] */
  r: Value;
}

/** Eq. 1–2 for both sides: u = [→h ; ←h] of the shared BiLSTM (D/2 per direction), masked. */
export function encodePair(s: Scope, a: Embedded, b: Embedded, d: ModelDims): [Value, Value] {
  const fwd = s.sub('enc.fwd'),
    bwd = s.sub('enc.bwd');
  const [af, ab, bf, bb] = groupedLstm([fwd, bwd, fwd, bwd], [a.r, reversed(a.r, a.inp.rev), b.r, reversed(b.r, b.inp.rev)], d.dim / 2);
  const join = (f: Value, back: Value, e: Embedded) => mul(concat([f, reversed(back, e.inp.rev)], 2), unsqueeze(e.inp.mask, [-1]));
  return [join(af, ab, a), join(bf, bb, b)];
}

/** A learned start vector placed before a sequence: [B, T, D] → [B, T+1, D]. */
function withStart(s: Scope, name: string, seq: Value, d: ModelDims): Value {
  const zero = mul(slice(seq, [0], [1], [1]), 0);
  return concat([add(zero, s.filled(name, [d.dim], 0)), seq], 1);
}

export interface DecoderStates {
  fwd: Value;
  bwd: Value;
}

/** Eq. 5, 7: both decoders of both languages, states [B, T+1, D] (unmasked). */
export function decodePair(s: Scope, a: Embedded, b: Embedded, d: ModelDims): { s: DecoderStates; t: DecoderStates } {
  const scopes = ['s.fwd', 's.bwd', 't.fwd', 't.bwd'].map((n) => s.sub(`dec.${n}`));
  const inputs = [
    withStart(s, 'dec.s.bos', a.r, d),
    withStart(s, 'dec.s.eos', reversed(a.r, a.inp.rev), d),
    withStart(s, 'dec.t.bos', b.r, d),
    withStart(s, 'dec.t.eos', reversed(b.r, b.inp.rev), d),
  ];
  const [sf, sb, tf, tb] = groupedLstm(scopes, inputs, d.dim);
  return { s: { fwd: sf, bwd: sb }, t: { fwd: tf, bwd: tb } };
}

/** Eq. 9: h' = W(ū + r̄ + h) for decoder states h [B, T1, D] over an encoded sentence. */
export function attend(s: Scope, h: Value, u: Value, r: Value, mask: Value): Value {
  const bias = mul(sub(unsqueeze(mask, [1]), 1), 1e9);
  const alpha = softmax(add(matmul(h, transposeLast(u)), bias), -1);
  return linear(s.sub('out'), add(add(matmul(alpha, u), matmul(alpha, r)), h), h.dim(-1) as number, { bias: false });
}
