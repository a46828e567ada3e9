// Word alignment with a pretrained encoder and no training: each sentence is encoded alone
// (its tokenizer's template around its words' subwords), hidden state `layer` is read, and
// each pair's links are extracted from the similarities of its words (similarity-extraction.ts):
//   simalign-argmax | simalign-itermax | simalign-match  word vectors = mean of their subwords
//     (WordPooling), similarity (cos + 1)/2 as SimAlign's word level;
//   awesome   dot products of the subwords (template tokens left out), both softmaxes above
//     the threshold (ENCODER_DEFAULTS), a word pair linked when any of its subword pairs is, as
//     awesome-align does; its probability is the largest of its subword pairs';
//   awesome-entmax  the same with entmax15 in place of softmax (links where both are non-zero);
//   pmi-align  PMI of the word vectors' dot products, then ArgMax.
// Each link's score is its probability (similarity-extraction.ts linkProbabilities) over the
// matrix the method read. The layer counts as transformers' hidden_states do (0 = embeddings'
// output, L = last layer); default 8 for 12-layer models (SimAlign's and awesome-align's
// choice), round(2/3·L) otherwise. Pairs are encoded a chunk at a time, so memory stays flat.
import { ENCODER_DEFAULTS } from '../../../shared/aligner-defaults.ts';
import type { Link } from '../../../shared/domain.ts';
import type { EncoderMethodName } from '../../../shared/methods.ts';
import { sentences, type Side } from '../../align/sentences.ts';
import { UserError } from '../../errors.ts';
import { checkCancelled, type JobContext, type JobProgress, silentContext } from '../../jobs/job-context.ts';
// csls.ts's cosines() is the rows' dot products (cosines when the rows have unit length)
import { cosines } from '../../eval/csls.ts';
import { defaultAlignLayer } from './hf-config.ts';
import type { HfEncoder } from './hf-encoder.ts';
import {
  argmaxLinks,
  entmaxLinks,
  iterMaxLinks,
  linkProbabilities,
  matchLinks,
  type Matrix,
  pmiMatrix,
  softmaxLinks,
} from './similarity-extraction.ts';
import { poolWords, type WordPooling, wordSubwords } from './word-pooling.ts';

export interface EncoderAlignOptions {
  /** hidden state to read (default: defaultAlignLayer) */
  layer?: number;
  /** how a word's vector comes from its subwords (SimAlign and PMI methods; default ENCODER_DEFAULTS.pooling) */
  pooling?: WordPooling;
  /** awesome: the softmax threshold (default ENCODER_DEFAULTS.threshold) */
  threshold?: number;
  /** progress (pairs done of all) after each batch of sentences encoded, and cancel; default silent */
  ctx?: JobContext;
}

/** Pairs encoded per chunk. */
const CHUNK = 256;

function normalised(v: Float32Array, dim: number): Float32Array {
  const out = new Float32Array(v.length);
  for (let r = 0; r < v.length / dim; r++) {
    let n = 0;
    for (let d = 0; d < dim; d++) n += v[r * dim + d] ** 2;
    const s = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let d = 0; d < dim; d++) out[r * dim + d] = v[r * dim + d] * s;
  }
  return out;
}

/** The rows of `v` ([n × dim]) at `keep`. */
function rowsAt(v: Float32Array, keep: readonly number[], dim: number): Float32Array {
  const out = new Float32Array(keep.length * dim);
  keep.forEach((k, i) => out.set(v.subarray(k * dim, (k + 1) * dim), i * dim));
  return out;
}

const EXTRACT: Readonly<
  Record<Exclude<EncoderMethodName, 'awesome' | 'awesome-entmax'>, (sim: Matrix, I: number, J: number) => Uint8Array>
> = {
  'simalign-argmax': argmaxLinks,
  'simalign-itermax': (s, I, J) => iterMaxLinks(s, I, J),
  'simalign-match': matchLinks,
  'pmi-align': (s, I, J) => argmaxLinks(pmiMatrix(s, I, J), I, J),
};

/** Links of one pair from its hidden states (rows of the encoded sentences). */
function pairLinks(
  method: EncoderMethodName,
  hs: Float32Array,
  ht: Float32Array,
  es: Parameters<typeof poolWords>[1],
  et: Parameters<typeof poolWords>[1],
  dim: number,
  o: EncoderAlignOptions,
): Link[] {
  const links = new Map<number, Link>();
  if (method === 'awesome' || method === 'awesome-entmax') {
    const a = wordSubwords(hs, es, dim),
      b = wordSubwords(ht, et, dim);
    const I = a.wordOf.length,
      J = b.wordOf.length;
    if (!I || !J) return [];
    const scores = cosines(a.rows, b.rows, dim);
    const on = method === 'awesome' ? softmaxLinks(scores, I, J, o.threshold ?? ENCODER_DEFAULTS.threshold) : entmaxLinks(scores, I, J);
    const prob = linkProbabilities(scores, I, J);
    const Jw = et.start.length;
    on.forEach((x, c) => {
      if (!x) return;
      const s = a.wordOf[Math.floor(c / J)],
        t = b.wordOf[c % J];
      const old = links.get(s * Jw + t);
      if (!old || old.score! < prob[c]) links.set(s * Jw + t, { s, t, kind: 'sure', score: prob[c] });
    });
  } else {
    const pooling = o.pooling ?? ENCODER_DEFAULTS.pooling;
    const ws = poolWords(hs, es, dim, pooling),
      wt = poolWords(ht, et, dim, pooling);
    const ks = [...ws.has.keys()].filter((k) => ws.has[k]),
      kt = [...wt.has.keys()].filter((k) => wt.has[k]);
    const I = ks.length,
      J = kt.length;
    if (!I || !J) return [];
    const xs = rowsAt(ws.vectors, ks, dim),
      xt = rowsAt(wt.vectors, kt, dim);
    const dots = cosines(xs, xt, dim);
    const sim = method === 'pmi-align' ? dots : cosines(normalised(xs, dim), normalised(xt, dim), dim).map((c) => (c + 1) / 2);
    const on = EXTRACT[method](sim, I, J);
    const prob = linkProbabilities(dots, I, J);
    on.forEach((x, c) => {
      if (x) links.set(c, { s: ks[Math.floor(c / J)], t: kt[c % J], kind: 'sure', score: prob[c] });
    });
  }
  return [...links.values()].sort((p, q) => p.s - q.s || p.t - q.t);
}

/** Links of every pair under `method`, reading hidden state `layer` of `encoder`. */
export async function alignWithEncoder(
  encoder: HfEncoder,
  method: EncoderMethodName,
  srcSide: Side,
  tgtSide: Side,
  o: EncoderAlignOptions = {},
): Promise<Link[][]> {
  const src = sentences(srcSide),
    tgt = sentences(tgtSide);
  if (src.length !== tgt.length) throw new UserError(`${src.length} source sentences but ${tgt.length} target sentences`);
  const layer = o.layer ?? defaultAlignLayer(encoder.config);
  const dim = encoder.config.hidden;
  const out: Link[][] = [];
  const ctx = o.ctx ?? silentContext();
  const progress = (done: number) => {
    checkCancelled(ctx.signal);
    ctx.progress({ done, total: src.length });
  };
  progress(0);
  for (let at = 0; at < src.length; at += CHUNK) {
    const ks = Array.from({ length: Math.min(CHUNK, src.length - at) }, (_, i) => at + i);
    const s = encoder.encode(ks.map((k) => src.tokens(k)));
    const t = encoder.encode(ks.map((k) => tgt.tokens(k)));
    // progress after each batch: a chunk's 2·n sentences count as its n pairs
    const sides = [...s.map(() => 0), ...t.map(() => 1)];
    const batches = { progress: (p: JobProgress) => progress(at + Math.floor(p.done / 2)), signal: ctx.signal };
    const [h] = await encoder.hiddenStates([...s, ...t], [layer], batches, sides);
    s.forEach((es, k) => out.push(pairLinks(method, h[k], h[s.length + k], es, t[k], dim, o)));
    progress(out.length);
  }
  return out;
}
