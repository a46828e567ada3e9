// The inference graph of the neural aligner: eq. 10 embeddings and the shared BiLSTM encoder
// (eq. 1–2) of both sides, L2-normalised — the contextual embeddings eq. 17 aligns with —
// and nothing of the decoders or losses. The two directions run as whole-sequence LSTM
// nodes (nn/ops/lstm-sequence.ts) with the training graph's parameters (same names, so a
// trained model's parameters feed it as they are): a bucket of any length compiles in
// milliseconds, where the unrolled training encoder of a 270-token bucket took tens of
// seconds to build. The backward direction reads each row reversed within its own length
// (as in training), so padding never reaches a sentence's states.
import { Graph, Rng, Scope, type Value } from '../../nn/index.ts';
import { concat, l2Normalize, lstmSequence, mul, unsqueeze } from '../../nn/ops/index.ts';
import { embed, type Embedded, type ModelDims, reversed, sideInputs } from './model.ts';

export interface EncoderGraph {
  graph: Graph;
  /** L2-normalised contextual embeddings [B, T, D] (zero at padding) */
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

export function buildEncoder(T: number, d: ModelDims, seed = 1): EncoderGraph {
  const graph = new Graph();
  const s = new Scope(graph, new Rng(seed));
  const side = (x: 's' | 't') => {
    const inp = sideInputs(s, x, T, d.maxSubwords);
    return l2Normalize(encode(s, { inp, r: embed(s, x, inp, d) }, d));
  };
  return { graph, us: side('s'), ut: side('t') };
}
