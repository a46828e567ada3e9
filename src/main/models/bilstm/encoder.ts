// The inference graph of the neural aligner: eq. 10 embeddings and the shared BiLSTM encoder
// (eq. 1–2) of both sides — the vectors eq. 17 aligns with — and nothing of the decoders
// or losses. A token's vector is [√(1−w)·û ; √w·r̂]: its L2-normalised encoder state û and,
// with weight w = STATIC_WEIGHT, its L2-normalised eq. 10 embedding r̂, so the cosine of two
// tokens is (1−w)·cos(u) + w·cos(r). The context-free half keeps a word near its own
// subwords where the encoder state drifts with the context: w = 0.3 lowers ro-en AER and
// raises Tatoeba P@1 against û alone (docs/experiments.md).
// The two directions run as whole-sequence LSTM nodes (nn/ops/lstm-sequence.ts) with the
// training graph's parameters (same names, so a trained model's parameters feed it as they
// are): a bucket of any length compiles in milliseconds, where the unrolled training
// encoder of a 270-token bucket took tens of seconds to build. The backward direction reads each row reversed within its own length
// (as in training), so padding never reaches a sentence's states.
import { Graph, Rng, Scope, type Value } from '../../nn/index.ts';
import { concat, l2Normalize, lstmSequence, mul, unsqueeze } from '../../nn/ops/all-ops.ts';
import { embed, type Embedded, type ModelDims, reversed, sideInputs } from './encoder-decoder.ts';
import { pool, type Pooling } from './contrastive.ts';

export interface EncoderGraph {
  graph: Graph;
  /** unit-length token vectors [B, T, D] or [B, T, 2D] (zero at padding) */
  us: Value;
  ut: Value;
}

function direction(s: Scope, x: Value, hidden: number): Value {
  const F = x.dim(-1) as number;
  return lstmSequence(x, s.weight('x.w', [F, 4 * hidden]), s.filled('x.b', [4 * hidden], 0), s.weight('h.w', [hidden, 4 * hidden]));
}

function encode(s: Scope, e: Embedded, d: ModelDims): Value {
  const h = d.dim / 2;
  const fwd = direction(s.sub('enc.fwd'), e.r, h);
  const bwd = reversed(direction(s.sub('enc.bwd'), reversed(e.r, e.inp.rev), h), e.inp.rev);
  return mul(concat([fwd, bwd], 2), unsqueeze(e.inp.mask, [-1]));
}

export const STATIC_WEIGHT = 0.3;

/** The width of a token's vector: the encoder state's D alone at `staticWeight` 0, else 2D. */
export const encoderWidth = (d: ModelDims, staticWeight: number): number => d.dim * (staticWeight ? 2 : 1);

/** `staticWeight` 0 gives the encoder states alone; above 0, with the eq. 10 half (encoderWidth). */
export function buildEncoder(T: number, d: ModelDims, seed = 1, staticWeight = STATIC_WEIGHT): EncoderGraph {
  const graph = new Graph();
  const s = new Scope(graph, new Rng(seed));
  const side = (x: 's' | 't') => {
    const inp = sideInputs(s, x, T, d.maxSubwords);
    const r = embed(s, x, inp, d);
    const u = l2Normalize(encode(s, { inp, r }, d));
    if (!staticWeight) return u;
    const rn = mul(l2Normalize(r), unsqueeze(inp.mask, [-1]));
    return concat([mul(u, Math.sqrt(1 - staticWeight)), mul(rn, Math.sqrt(staticWeight))], 2);
  };
  return { graph, us: side('s'), ut: side('t') };
}

/**
 * One side's sentence vectors [B, D]: its encoder states pooled as the contrastive loss pools
 * them (network.ts' encS/encT), the sentence embedding the model was trained to share.
 */
export function buildSentenceEncoder(T: number, d: ModelDims, side: 's' | 't', pooling: Pooling, seed = 1): { graph: Graph; v: Value } {
  const graph = new Graph();
  const s = new Scope(graph, new Rng(seed));
  const inp = sideInputs(s, side, T, d.maxSubwords);
  return { graph, v: pool(encode(s, { inp, r: embed(s, side, inp, d) }, d), inp.mask, pooling) };
}
