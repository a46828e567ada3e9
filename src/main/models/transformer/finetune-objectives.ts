// The fine-tuning objectives of seeds 000 (WACSE) and 001 (DAP), built in our graph builder
// over the encoder graph (encoder-graph.ts), so one ONNX session gives the loss and, through
// nn/autodiff, the gradient of every encoder parameter. One batch holds N pairs: rows 0…N−1
// are the source sentences, N…2N−1 the targets, then AWP's masked copies; hidden states
// h [R, T, D] are flattened to H [R·T, D] and each objective picks its rows by index inputs
// that finetune-batch.ts fills. φ(a, b) = cos(a, b)/τ (τ the temperature).
//   TR  (WACSE eq. 9–10, DAP eq. 5): s_i = CLS (or mean) of hidden state `layer` of X_i, Y_i;
//       L_TR = −1/N Σ_i log softmax_j φ(s_Xi, s_Yj) at j = i  (in-batch negatives, X→Y).
//   AWP (eq. 4–5): for a link (x_j, y_k), X_i with x_j's subwords replaced by [MASK] is encoded
//       and the MLM head predicts y_k's subwords from the masked positions, both clipped to
//       the shorter of the two words (§4.3); a link's term is the mean CE over those m
//       subwords; L_AWP = 1/2N Σ_i (l(X_i) + l(Y_i)).
//   WTR (eq. 6–8): word vectors = mean of their subwords at `layer`; for a link (x_j, y_k),
//       −log softmax_n φ(h_xj, h_yn) at n = k over the words of Y_i (both directions);
//       L_WTR = 1/2N Σ_i (l(X_i) + l(Y_i)). Rejected links (ours, not the seed's): each adds
//       −log(1 − p(y_n | x_j)) under the same softmax (unlikelihood), same 1/2N.
//   RTL (DAP eq. 4, 6): g⁰ = (h^L of x except CLS, then one [MASK] slot per subword of y,
//       each embedded as the encoder embeds a [MASK] at y's position); K post-LN layers
//       initialised from the encoder's last K (§4.2, K = 2), then the vocabulary head;
//       L_RTL = 1/N Σ_i 1/S_yi Σ_u CE(g_u, y_u).
//   SO  (awesome-align's self-training objective, BertGuideHead with train_so): at hidden state
//       `soLayer` (the layer the aligner reads), S_i = X_i·Y_iᵀ over the subwords of pair i (dot
//       products, no scaling), P^xy = softmax of S_i over the target's subwords, P^yx over the
//       source's ([CLS]/[SEP]/padding masked out of both); A_i the pair's links as a subword
//       matrix (every subword of x_j with every subword of y_k for a link (j, k)), n_i and m_i
//       the source's and target's subword counts;
//       L_SO = −1/N Σ_i (Σ_jk A_ijk P^xy_ijk / n_i + Σ_jk A_ijk P^yx_ijk / m_i).
//   L = α·L_TR + β·L_AWP + γ·L_WTR + δ·L_RTL + ε·L_SO  (WACSE eq. 11: 0.8/0.1/0.1; DAP eq. 7: α = δ = 1;
//       awesome-align sums its objectives, ε = 1).
// With `dropout`, the encoder and RTL's head drop as BertModel does in training
// (encoder-graph.ts EncoderDropout); without, the graph is deterministic.
// τ: the seeds write e^φ with φ the bare cosine; with cosines in [−1, 1] such a softmax keeps
// every negative within e² of the positive and barely trains, so φ is divided by τ (default
// 0.05 as nn/blocks/losses.ts infoNce and SimCSE/LaBSE-style training); τ = 1 is the literal
// equation. The vocabulary head is transformers' MLM head (BertForMaskedLM's cls.predictions:
// dense, activation, LayerNorm, decoder tied to the word embeddings, bias; XLM-R's lm_head is
// the same with GELU), taken from the checkpoint when it has one, else initialised as
// transformers initialises it (N(0, 0.02), LayerNorm 1/0, biases 0); AWP and RTL share it.
import type { Graph, Value } from '../../nn/graph.ts';
import { clsPool, meanPool } from '../../nn/blocks/pooling.ts';
import { infoNce } from '../../nn/blocks/losses.ts';
import {
  add,
  cast,
  concat,
  exp,
  gather,
  gatherElements,
  gelu,
  l2Normalize,
  layerNorm,
  log,
  logSoftmax,
  matmul,
  mul,
  neg,
  reduceSum,
  relu,
  reshape,
  softmax,
  squeeze,
  sub,
  transposeLast,
  unsqueeze,
} from '../../nn/ops/all-ops.ts';
import { type Tensor } from '../../nn/tensor.ts';
import { constantInit, normalInit, Rng } from '../../nn/init.ts';
import {
  buildEncoderGraph,
  type DropSite,
  dropSites,
  embeddingsOutput,
  type EncoderDropout,
  encoderLayer,
  type EncoderGraph,
} from './encoder-graph.ts';
import { defaultAlignLayer, type EncoderConfig } from './hf-config.ts';
import { LANGUAGE_EMBEDDINGS } from './hf-weights.ts';
import { ENCODER_FINETUNE_DEFAULTS } from '../../../shared/aligner-defaults.ts';
import { FINETUNE_OBJECTIVES } from '../../../shared/aligner-options.ts';

/** The objectives, as the app's Train form offers them (shared/models-api.ts). */
export const OBJECTIVES = FINETUNE_OBJECTIVES;
export type Objective = (typeof OBJECTIVES)[number];

export interface ObjectiveConfig {
  objectives: readonly Objective[];
  /** loss weights of TR, AWP, WTR, RTL, SO */
  alpha: number;
  beta: number;
  gamma: number;
  delta: number;
  epsilon: number;
  /** hidden state TR and WTR read (0 = embeddings, L = last) */
  layer: number;
  /** hidden state SO reads (default defaultAlignLayer: the aligner's, whose links it learns from, as awesome-align's align_layer) */
  soLayer?: number;
  /** TR's sentence vector: the first token's state (cls_before_pooler, the seeds') or the mean of the tokens */
  sentence: 'cls' | 'mean';
  temperature: number;
  /** RTL head layers (K) */
  rtlLayers: number;
  /** training dropout (absent: none) */
  dropout?: EncoderDropout;
}

export const OBJECTIVE_DEFAULTS: Omit<ObjectiveConfig, 'layer'> = {
  objectives: ENCODER_FINETUNE_DEFAULTS.objectives,
  alpha: ENCODER_FINETUNE_DEFAULTS.alpha,
  beta: ENCODER_FINETUNE_DEFAULTS.beta,
  gamma: ENCODER_FINETUNE_DEFAULTS.gamma,
  delta: ENCODER_FINETUNE_DEFAULTS.delta,
  epsilon: ENCODER_FINETUNE_DEFAULTS.epsilon,
  sentence: ENCODER_FINETUNE_DEFAULTS.sentence,
  temperature: ENCODER_FINETUNE_DEFAULTS.temperature,
  rtlLayers: ENCODER_FINETUNE_DEFAULTS.rtlLayers,
};

/** The MLM head's parameters under our names, from transformers' (BERT's cls.predictions.*, XLM-R's lm_head.*). */
export const MLM_HEAD_NAMES: Readonly<Record<string, readonly string[]>> = {
  'mlm.dense.weight': ['cls.predictions.transform.dense.weight', 'lm_head.dense.weight'],
  'mlm.dense.bias': ['cls.predictions.transform.dense.bias', 'lm_head.dense.bias'],
  'mlm.norm.weight': ['cls.predictions.transform.LayerNorm.weight', 'lm_head.layer_norm.weight'],
  'mlm.norm.bias': ['cls.predictions.transform.LayerNorm.bias', 'lm_head.layer_norm.bias'],
  'mlm.bias': ['cls.predictions.bias', 'lm_head.bias'],
};

/** The batch inputs each objective reads (finetune-batch.ts fills them). */
export const INPUT = {
  trSrc: 'ft.tr_src',
  trTgt: 'ft.tr_tgt',
  wtrRows: 'ft.wtr_rows',
  wtrPool: 'ft.wtr_pool',
  wtrAnchor: 'ft.wtr_anchor',
  wtrBias: 'ft.wtr_bias',
  wtrTarget: 'ft.wtr_target',
  wtrPos: 'ft.wtr_pos',
  wtrNeg: 'ft.wtr_neg',
  awpAt: 'ft.awp_at',
  awpTarget: 'ft.awp_target',
  awpWeight: 'ft.awp_weight',
  rtlSlotIds: 'ft.rtl_slot_ids',
  rtlSlotPos: 'ft.rtl_slot_pos',
  rtlSlotLang: 'ft.rtl_slot_lang',
  rtlIndex: 'ft.rtl_index',
  rtlMask: 'ft.rtl_mask',
  rtlAt: 'ft.rtl_at',
  rtlTarget: 'ft.rtl_target',
  rtlWeight: 'ft.rtl_weight',
  soSrc: 'ft.so_src',
  soTgt: 'ft.so_tgt',
  soTgtBias: 'ft.so_tgt_bias',
  soSrcBias: 'ft.so_src_bias',
  soSrcWeight: 'ft.so_src_weight',
  soTgtWeight: 'ft.so_tgt_weight',
} as const;

export interface ObjectiveGraph extends EncoderGraph {
  loss: Value;
  /** each objective's unweighted loss */
  terms: Partial<Record<Objective, Value>>;
}

/** H [R·T, D] from h [R, T, D]. */
export const flatRows = (h: Value, D: number): Value => reshape(h, [-1, D]);

/** TR: in-batch InfoNCE of the sentence vectors of rows `src` against rows `tgt`. */
export function trLoss(h: Value, mask: Value, src: Value, tgt: Value, sentence: 'cls' | 'mean', temperature: number): Value {
  const s = sentence === 'cls' ? clsPool(h) : meanPool(h, mask);
  return infoNce(gather(s, src), gather(s, tgt), { temperature, symmetric: false });
}

export interface WtrInputs {
  /** [W, 2N·T] pooling weights of each word over the flattened subword rows of the 2N sentences */
  pool: Value;
  /** per query: its anchor word, additive bias over the words (0 for the other sentence's, −1e9 elsewhere), its target word, and the weights of its CE (positive) or unlikelihood (rejected) term */
  anchor: Value;
  bias: Value;
  target: Value;
  pos: Value;
  neg: Value;
}

/** WTR over the flattened hidden states H [2N·T, D] of the sentences. */
export function wtrLoss(H: Value, x: WtrInputs, temperature: number): Value {
  const words = l2Normalize(matmul(x.pool, H));
  const cos = gather(matmul(words, transposeLast(words)), x.anchor);
  const lp = logSoftmax(add(mul(cos, 1 / temperature), x.bias), -1);
  const picked = squeeze(gatherElements(lp, unsqueeze(x.target, [-1]), -1), [-1]);
  const unlikely = log(add(sub(1, exp(picked)), 1e-6));
  return neg(reduceSum(add(mul(picked, x.pos), mul(unlikely, x.neg))));
}

export interface SoInputs {
  /** [N] the rows of the pairs' sources and of their targets */
  src: Value;
  tgt: Value;
  /** additive masks: [N, 1, T] over the target's positions, [N, T, 1] over the source's (0 at a subword, −1e9 elsewhere) */
  tgtBias: Value;
  srcBias: Value;
  /** [N, T, T] A_i/(N·n_i) and A_i/(N·m_i) */
  srcWeight: Value;
  tgtWeight: Value;
}

/** SO over hidden states h [R, T, D]: both softmaxes of each pair's subword dot products, weighted by its links. */
export function soLoss(h: Value, x: SoInputs): Value {
  const s = matmul(gather(h, x.src), transposeLast(gather(h, x.tgt)));
  const toTarget = softmax(add(s, x.tgtBias), -1);
  const toSource = softmax(add(s, x.srcBias), 1);
  return neg(add(reduceSum(mul(toTarget, x.srcWeight)), reduceSum(mul(toSource, x.tgtWeight))));
}

/** Σ weight · (−log softmax(logits)[target]). */
function weightedCrossEntropy(logits: Value, target: Value, weight: Value): Value {
  const picked = squeeze(gatherElements(logSoftmax(logits, -1), unsqueeze(target, [-1]), -1), [-1]);
  return neg(reduceSum(mul(picked, weight)));
}

/** The MLM head on rows x [n, D]: logits [n, V] over the tied word embeddings. */
export function mlmLogits(c: EncoderConfig, p: (name: string) => Value, x: Value): Value {
  const act = c.family === 'bert' && c.activation === 'relu' ? relu : gelu;
  const t = act(add(matmul(x, transposeLast(p('mlm.dense.weight'))), p('mlm.dense.bias')));
  const n = layerNorm(t, p('mlm.norm.weight'), p('mlm.norm.bias'), c.layerNormEps);
  return add(matmul(n, transposeLast(p('embeddings.word_embeddings.weight'))), p('mlm.bias'));
}

/** Initial MLM head: the checkpoint's where given, else transformers' initialisation. */
function mlmInit(c: EncoderConfig, name: string, given: ReadonlyMap<string, Tensor>, rng: Rng): Tensor {
  const t = given.get(name);
  if (t) return t;
  const D = c.hidden;
  if (name === 'mlm.dense.weight') return normalInit(rng, [D, D], 0.02);
  if (name === 'mlm.norm.weight') return constantInit([D], 1);
  return constantInit([name === 'mlm.bias' ? c.vocabSize : D], 0);
}

const mlmShape = (c: EncoderConfig, name: string): number[] =>
  name === 'mlm.dense.weight' ? [c.hidden, c.hidden] : [name === 'mlm.bias' ? c.vocabSize : c.hidden];

/**
 * The training graph: the encoder over `weights` and the chosen objectives' weighted sum.
 * `head` holds MLM head tensors under MLM_HEAD_NAMES' keys (those missing are initialised).
 */
export function buildObjectiveGraph(
  c: EncoderConfig,
  weights: ReadonlyMap<string, Tensor>,
  o: ObjectiveConfig,
  head: ReadonlyMap<string, Tensor> = new Map(),
): ObjectiveGraph {
  const drop = dropSites(o.dropout);
  const enc = buildEncoderGraph(c, weights, drop);
  const g: Graph = enc.graph;
  const rng = new Rng(17);
  const D = c.hidden;
  const p = (name: string): Value =>
    name.startsWith('mlm.') ? g.param(name, mlmShape(c, name), () => mlmInit(c, name, head, rng)) : enc.param(name);
  const int = (name: string, shape: (string | number)[]) => g.input(name, 'int64', shape);
  const float = (name: string, shape: (string | number)[]) => g.input(name, 'float32', shape);
  const last = flatRows(enc.hidden[c.layers], D);
  const terms: Partial<Record<Objective, Value>> = {};
  const on = new Set(o.objectives);
  if (on.has('tr'))
    terms.tr = trLoss(enc.hidden[o.layer], enc.mask, int(INPUT.trSrc, ['n']), int(INPUT.trTgt, ['n']), o.sentence, o.temperature);
  if (on.has('wtr')) {
    // only the 2N unmasked rows: AWP's masked copies hold no word WTR reads
    const H = flatRows(gather(enc.hidden[o.layer], int(INPUT.wtrRows, ['sentences'])), D);
    terms.wtr = wtrLoss(
      H,
      {
        pool: float(INPUT.wtrPool, ['words', H.dim(0)]),
        anchor: int(INPUT.wtrAnchor, ['q']),
        bias: float(INPUT.wtrBias, ['q', 'words']),
        target: int(INPUT.wtrTarget, ['q']),
        pos: float(INPUT.wtrPos, ['q']),
        neg: float(INPUT.wtrNeg, ['q']),
      },
      o.temperature,
    );
  }
  if (on.has('awp')) {
    const at = gather(last, int(INPUT.awpAt, ['p']));
    terms.awp = weightedCrossEntropy(mlmLogits(c, p, at), int(INPUT.awpTarget, ['p']), float(INPUT.awpWeight, ['p']));
  }
  if (on.has('rtl')) terms.rtl = rtlLoss(c, weights, o.rtlLayers, enc, p, last, drop);
  if (on.has('so')) {
    const h = enc.hidden[o.soLayer ?? defaultAlignLayer(c)];
    const T = h.dim(1);
    terms.so = soLoss(h, {
      src: int(INPUT.soSrc, ['n']),
      tgt: int(INPUT.soTgt, ['n']),
      tgtBias: float(INPUT.soTgtBias, ['n', 1, T]),
      srcBias: float(INPUT.soSrcBias, ['n', T, 1]),
      srcWeight: float(INPUT.soSrcWeight, ['n', T, T]),
      tgtWeight: float(INPUT.soTgtWeight, ['n', T, T]),
    });
  }
  const weight: Record<Objective, number> = { tr: o.alpha, awp: o.beta, wtr: o.gamma, rtl: o.delta, so: o.epsilon };
  const parts = (Object.entries(terms) as [Objective, Value][]).map(([k, v]) => mul(v, weight[k]));
  if (!parts.length) throw new Error('fine-tuning: no objective');
  const loss = parts.reduce((a, b) => add(a, b));
  return { ...enc, param: p, loss, terms };
}

/** DAP's RTL over the last hidden state's rows `last` [R·T, D]. */
function rtlLoss(
  c: EncoderConfig,
  weights: ReadonlyMap<string, Tensor>,
  K: number,
  enc: EncoderGraph,
  p: (name: string) => Value,
  last: Value,
  drop: DropSite,
): Value {
  const g = enc.graph;
  const from = c.layers - K;
  // rtl.layer.k.* starts as encoder.layer.(L−K+k).* (DAP §4.2)
  const rp = (name: string): Value => {
    if (!name.startsWith('rtl.layer.')) return p(name);
    const [, , k, ...rest] = name.split('.');
    const src = `encoder.layer.${from + Number(k)}.${rest.join('.')}`;
    const t = weights.get(src)!;
    return g.param(name, [...t.dims], () => t);
  };
  const slotLanguages = weights.has(LANGUAGE_EMBEDDINGS) ? g.input(INPUT.rtlSlotLang, 'int64', ['slots']) : null;
  const slots = embeddingsOutput(
    c,
    p,
    g.input(INPUT.rtlSlotIds, 'int64', ['slots']),
    g.input(INPUT.rtlSlotPos, 'int64', ['slots']),
    slotLanguages,
    drop,
  );
  let x = gather(concat([last, slots], 0), g.input(INPUT.rtlIndex, 'int64', ['pairs', 'rtllen']));
  const mask = cast(g.input(INPUT.rtlMask, 'int64', ['pairs', 'rtllen']), 'float32');
  for (let k = 0; k < K; k++) x = encoderLayer(c, rp, `rtl.layer.${k}`, x, mask, drop);
  const at = gather(flatRows(x, c.hidden), g.input(INPUT.rtlAt, 'int64', ['pr']));
  return weightedCrossEntropy(mlmLogits(c, p, at), g.input(INPUT.rtlTarget, 'int64', ['pr']), g.input(INPUT.rtlWeight, 'float32', ['pr']));
}
