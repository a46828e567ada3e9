// Word-level supervision from the linguists' links (seed 000 §3.1–3.2, with gold links in
// place of an external aligner's). Index conventions: u^s [B, T, D], u^t [B, T, D]
// contextual embeddings; G [B, T, T] gold links (G_bij = 1: source word i ↔ target word j);
// R [B, T, T] links a linguist rejected; m^s, m^t [B, T] masks; c_ij = cos(u^s_i, u^t_j)/τ_w.
//   WTR (eq. 6–8)  ℓ_ij = −log softmax_j'(c_ij')_j   (over the target words, and the mirror
//                  over source words with cᵀ);  L_WTR = ½(Σ G⊙ℓ + Σ Gᵀ⊙ℓᵀ) / max(ΣG, 1)
//   AWP (eq. 4–5)  predict the aligned word from the other side's contextual embedding
//                  through the tied output layer: ℓ_ij = −log softmax(E^t W u^s_i)[y_j];
//                  mirrored for target words; normalised as WTR.
//   Rejected links are hard negatives: L_REJ = Σ R⊙(−log(1 − p_ij)) / max(ΣR, 1) with
//                  p_ij = softmax_j'(c_ij')_j.
// (Masking x_j before predicting, as seed 000 does for a Transformer, is not needed here:
// AWP only asks the BiLSTM state to carry its translation.)
import { linear, type Value, type Scope } from '../../nn/index.ts';
import {
  add,
  div,
  exp,
  expandAs,
  gatherElements,
  l2Normalize,
  log,
  logSoftmax,
  matmul,
  max,
  mul,
  neg,
  reduceSum,
  sub,
  transposeLast,
  unsqueeze,
} from '../../nn/ops/all-ops.ts';

export interface SupervisionInputs {
  us: Value;
  ut: Value;
  maskS: Value;
  maskT: Value;
  gold: Value;
  rejected: Value;
}

/** log softmax over the last axis of x + (mask − 1)·1e9, mask [B, T] broadcast over rows. */
function maskedLogSoftmax(x: Value, mask: Value): Value {
  return logSoftmax(add(x, mul(sub(unsqueeze(mask, [1]), 1), 1e9)), -1);
}

function normalised(total: Value, links: Value): Value {
  return div(total, max(reduceSum(links), 1));
}

function similarities(i: SupervisionInputs, tau: number): { st: Value; ts: Value } {
  const c = mul(matmul(l2Normalize(i.us), transposeLast(l2Normalize(i.ut))), 1 / tau);
  return { st: maskedLogSoftmax(c, i.maskT), ts: maskedLogSoftmax(transposeLast(c), i.maskS) };
}

export function wtrLoss(i: SupervisionInputs, tau: number): Value {
  const { st, ts } = similarities(i, tau);
  const both = add(reduceSum(mul(i.gold, st)), reduceSum(mul(transposeLast(i.gold), ts)));
  return mul(normalised(neg(both), i.gold), 0.5);
}

export function rejectedLoss(i: SupervisionInputs, tau: number): Value {
  const { st } = similarities(i, tau);
  const keep = log(max(sub(1, exp(st)), 1e-6));
  return normalised(neg(reduceSum(mul(i.rejected, keep))), i.rejected);
}

/** −Σ_ij G_ij log p(y_j | u_i): logits of u [B, T, D] against table [V, D], targets ids [B, T]. */
function predictAligned(s: Scope, u: Value, table: Value, ids: Value, gold: Value): Value {
  const logp = logSoftmax(matmul(linear(s.sub('out'), u, u.dim(-1) as number, { bias: false }), transposeLast(table)), -1);
  const picked = gatherElements(logp, expandAs(unsqueeze(ids, [1]), gold), 2);
  return neg(reduceSum(mul(gold, picked)));
}

export interface AwpTables {
  tableS: Value;
  tableT: Value;
  idsS: Value;
  idsT: Value;
}

export function awpLoss(s: Scope, i: SupervisionInputs, t: AwpTables): Value {
  const st = predictAligned(s, i.us, t.tableT, t.idsT, i.gold);
  const ts = predictAligned(s, i.ut, t.tableS, t.idsS, transposeLast(i.gold));
  return mul(normalised(add(st, ts), i.gold), 0.5);
}
