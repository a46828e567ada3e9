// The multi-view contrastive objective of seed 003 §III.B (eq. 11–16).
// Index conventions: q [B, D] queries and k [B, D] keys, row i of each from pair i; θ(a, b)
// is the cosine of the projected vectors (eq. 11: s(g_q(a), g_k(b)); each head Linear–ReLU–Linear):
// `heads` 'shared' uses one head g for queries and keys (the default), 'separate' the paper's
// two, g_q for queries and g_k for keys (intra-view negatives are queries, so they go through
// g_q); τ the temperature (default 0.5).
//   eq. 12  L(q_i) = −log e^{θ(q_i,k_i)/τ} / (e^{θ(q_i,k_i)/τ} + Σ_{j≠i} e^{θ(q_i,k_j)/τ}
//                                               + μ·Σ_{j≠i} e^{θ(q_i,q_j)/τ})
//           μ = 0 inter-view only, 1 inter- + intra-view negatives.
//   eq. 14  L_translation = ½·mean_i (L(q^s_i; keys k^t) + L(q^t_i; keys k^s))
//   eq. 15  L_reconstruct = ½·mean_i (L(q^s_i; keys k^s) + L(q^t_i; keys k^t)), μ = 0
// Queries are pooled encoder states M_E(X_i); keys are pooled left-to-right decoder states
// M_D(Y_i) (the decoder reads only its own sentence, so M_D is a second view of it).
// Pooling f is masked mean or max over positions.
import { linear, maxPool, meanPool, type Scope, type Value } from '../../nn/index.ts';
import {
  add,
  concat,
  eyeLike,
  l2Normalize,
  logSumExp,
  matmul,
  mul,
  reduceMean,
  reduceSum,
  relu,
  sub,
  transposeLast,
} from '../../nn/ops/all-ops.ts';

export type Negatives = 'inter' | 'inter+intra';
export type Pooling = 'mean' | 'max';
export type ProjectionHeads = 'shared' | 'separate';
export const PROJECTION_HEADS: readonly ProjectionHeads[] = ['shared', 'separate'];

export interface CtlOptions {
  temperature: number;
  negatives: Negatives;
  pooling: Pooling;
  /** one projection head for queries and keys, or g_q and g_k (absent in models saved before the option: shared) */
  heads?: ProjectionHeads;
}

export function pool(x: Value, mask: Value, p: Pooling): Value {
  return p === 'max' ? maxPool(x, mask) : meanPool(x, mask);
}

/** A head g(·) (parameters under `name`) followed by L2 normalisation, so dot products are cosines. */
export function project(s: Scope, x: Value, name = 'ctl'): Value {
  const d = x.dim(-1) as number;
  return l2Normalize(linear(s.sub(`${name}.g2`), relu(linear(s.sub(`${name}.g1`), x, d)), d));
}

/** Eq. 12 averaged over the batch, for normalised q, k [B, D]: mean_i (logΣ_j e^{z_ij} − z_ii). */
export function viewLoss(q: Value, k: Value, intra: boolean, tau: number): Value {
  const inter = mul(matmul(q, transposeLast(k)), 1 / tau);
  const eye = eyeLike(inter);
  const positive = reduceSum(mul(inter, eye), [1]);
  const self = add(mul(matmul(q, transposeLast(q)), 1 / tau), mul(eye, -1e9));
  const all = intra ? concat([inter, self], 1) : inter;
  return reduceMean(sub(logSumExp(all, [1]), positive));
}

export interface Views {
  /** pooled encoder states of each side [B, D] */
  encS: Value;
  encT: Value;
  /** pooled decoder states of each side [B, D] */
  decS: Value;
  decT: Value;
}

/** Eq. 16: L_translation + L_reconstruct. */
export function contrastiveLoss(s: Scope, v: Views, o: CtlOptions): Value {
  // the shared head keeps the parameter names of models saved before g_q / g_k existed
  const [gq, gk] = o.heads === 'separate' ? ['ctl.q', 'ctl.k'] : ['ctl', 'ctl'];
  const [qs, qt] = [v.encS, v.encT].map((x) => project(s, x, gq));
  const [ks, kt] = [v.decS, v.decT].map((x) => project(s, x, gk));
  const intra = o.negatives === 'inter+intra';
  const translation = mul(add(viewLoss(qs, kt, intra, o.temperature), viewLoss(qt, ks, intra, o.temperature)), 0.5);
  const reconstruct = mul(add(viewLoss(qs, ks, false, o.temperature), viewLoss(qt, kt, false, o.temperature)), 0.5);
  return add(translation, reconstruct);
}
