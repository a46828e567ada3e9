// One bucket's graph of the neural aligner: inputs (vocab-batches.ts), the encoder–decoder loss
// (encoder-decoder.ts), the contrastive loss (contrastive.ts) and the word-level supervision
// (supervision.ts), combined as
//   L = w_base·(L_ED + λ·L_CTL) + w_awp·L_AWP + w_wtr·(L_WTR + L_REJ)
// and the normalised contextual embeddings used for extraction. Parameter names do not
// depend on T, so every bucket's graph shares one set of parameters.
import { Graph, Rng, Scope, tableCrossEntropy, type Value } from '../../nn/index.ts';
import { add, gather, l2Normalize, mul, reshape, sum } from '../../nn/ops/all-ops.ts';
import { contrastiveLoss, pool, type CtlOptions } from './contrastive.ts';
import { attend, decodePair, embed, type Embedded, encodePair, type ModelDims, sideInputs, wordTable } from './encoder-decoder.ts';
import { awpLoss, rejectedLoss, type SupervisionInputs, wtrLoss } from './supervision.ts';

export interface ObjectiveWeights {
  base: number;
  awp: number;
  wtr: number;
}

export interface NetworkOptions extends CtlOptions {
  /** λ, the weight of the contrastive loss inside the base objective (0 = Wada et al. alone) */
  ctlWeight: number;
  weights: ObjectiveWeights;
  /** temperature of the word-level cosines in WTR and the rejected-link loss */
  wordTemperature: number;
  seed: number;
}

export interface Network {
  graph: Graph;
  loss: Value;
  /** named parts of the loss, for logging */
  parts: Record<string, Value>;
  /** L2-normalised contextual embeddings [B, T, D] */
  us: Value;
  ut: Value;
}

interface Side extends Embedded {
  u: Value;
}

function embedded(s: Scope, x: 's' | 't', T: number, B: number, d: ModelDims): Embedded {
  const inp = sideInputs(s, x, T, d.maxSubwords, B);
  return { inp, r: embed(s, x, inp, d) };
}

/** L_ED: both decoders of each language against both encodings; and the pooled decoder views. */
function encoderDecoder(s: Scope, a: Side, b: Side, d: ModelDims, o: NetworkOptions): { loss: Value; views: Value[] } {
  const terms: Value[] = [];
  const views: Value[] = [];
  const decoders = decodePair(s, a, b, d);
  for (const [x, own] of [
    ['s', a],
    ['t', b],
  ] as const) {
    const dec = decoders[x];
    const table = gather(wordTable(s, x, d), own.inp.out);
    // only the positions with a target: padding is a seventh to a fifth of a bucket's rows
    const rows = (v: Value) => gather(reshape(v, v.rank === 3 ? [-1, d.dim] : [-1]), own.inp.rows);
    for (const src of [a, b]) {
      terms.push(tableCrossEntropy(rows(attend(s, dec.fwd, src.u, src.r, src.inp.mask)), table, rows(own.inp.next)));
      terms.push(tableCrossEntropy(rows(attend(s, dec.bwd, src.u, src.r, src.inp.mask)), table, rows(own.inp.prev)));
    }
    views.push(pool(dec.fwd, own.inp.dmask, o.pooling));
  }
  return { loss: mul(sum(terms), 1 / terms.length), views };
}

/** The training graph of bucket length T for batches of exactly B pairs (bilstm-train.ts makeBatches fills every batch). */
export function buildNetwork(T: number, B: number, d: ModelDims, o: NetworkOptions): Network {
  const graph = new Graph();
  const s = new Scope(graph, new Rng(o.seed));
  const ea = embedded(s, 's', T, B, d);
  const eb = embedded(s, 't', T, B, d);
  const [ua, ub] = encodePair(s, ea, eb, d);
  const a: Side = { ...ea, u: ua };
  const b: Side = { ...eb, u: ub };
  const ed = encoderDecoder(s, a, b, d, o);
  const ctl = contrastiveLoss(
    s,
    { encS: pool(a.u, a.inp.mask, o.pooling), encT: pool(b.u, b.inp.mask, o.pooling), decS: ed.views[0], decT: ed.views[1] },
    o,
  );
  const sup: SupervisionInputs = {
    us: a.u,
    ut: b.u,
    maskS: a.inp.mask,
    maskT: b.inp.mask,
    gold: graph.input('gold', 'float32', [B, T, T]),
    rejected: graph.input('rejected', 'float32', [B, T, T]),
  };
  const parts: Record<string, Value> = { ed: ed.loss, ctl };
  let loss = mul(add(ed.loss, mul(ctl, o.ctlWeight)), o.weights.base);
  if (o.weights.wtr > 0) {
    parts.wtr = add(wtrLoss(sup, o.wordTemperature), rejectedLoss(sup, o.wordTemperature));
    loss = add(loss, mul(parts.wtr, o.weights.wtr));
  }
  if (o.weights.awp > 0) {
    parts.awp = awpLoss(s, sup, { tableS: wordTable(s, 's', d), tableT: wordTable(s, 't', d), idsS: a.inp.ids, idsT: b.inp.ids });
    loss = add(loss, mul(parts.awp, o.weights.awp));
  }
  return { graph, loss, parts, us: l2Normalize(a.u), ut: l2Normalize(b.u) };
}
