// Word alignment with a pretrained encoder and no training: each sentence is encoded alone
// (its tokenizer's template around its words' subwords), hidden state `layer` is read, and
// each pair's links are extracted from a similarity matrix (similarity-extraction.ts) over
// units that are either the words (their vectors pooled from their subwords, WordPooling) or
// the subwords themselves (template tokens left out), a word pair then linked when any of its
// subword pairs is:
//   simalign-argmax | simalign-itermax | simalign-match  similarity (cos + 1)/2 as SimAlign's,
//     over words (tokenType word) or subwords (bpe, SimAlign's own default); SimAlign's
//     distortion reshapes the matrix first and its null-align removes, after extraction, the
//     links of the flattest rows and columns over the whole corpus (so links are final only
//     once every pair is encoded);
//   awesome   dot products of the subwords, both softmaxes above the threshold
//     (ENCODER_DEFAULTS), as awesome-align does;
//   awesome-entmax  the same with entmax15 in place of softmax (links where both are non-zero);
//   pmi-align  PMI of the word vectors' dot products, then ArgMax.
// Each link's score is its probability (similarity-extraction.ts linkProbabilities) over the
// units' dot products; a word pair linked through several subword pairs takes the largest.
// The layer counts as transformers' hidden_states do (0 = embeddings' output, L = last layer);
// default 8 for 12-layer models (SimAlign's and awesome-align's choice), round(2/3·L)
// otherwise. Pairs are encoded a chunk at a time, so memory stays flat.
import { ENCODER_DEFAULTS } from '../../../shared/aligner-defaults.ts';
import type { EncoderOptions } from '../../../shared/aligner-options.ts';
import type { Link } from '../../../shared/domain.ts';
import { linkKey } from '../../../shared/link-set.ts';
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
  nullAlignScores,
  nullAlignThreshold,
  pmiMatrix,
  softmaxLinks,
  withDistortion,
} from './similarity-extraction.ts';
import type { EncodedSentence } from './subword-tokenizer.ts';
import { poolWords, type WordPooling, wordSubwords } from './word-pooling.ts';

export interface EncoderAlignOptions {
  /** hidden state to read (default: defaultAlignLayer) */
  layer?: number;
  /** how a word's vector comes from its subwords (SimAlign over words and PMI-Align; default ENCODER_DEFAULTS.pooling) */
  pooling?: WordPooling;
  /** awesome: the softmax threshold (default ENCODER_DEFAULTS.threshold) */
  threshold?: number;
  /** SimAlign: similarities between subwords or between words (default ENCODER_DEFAULTS.tokenType) */
  tokenType?: EncoderOptions['tokenType'];
  /** SimAlign: the null-align share p in [0, 1] (default 1: no link removed) */
  nullAlign?: number;
  /** SimAlign: the distortion k in [0, 1] (default 0: none) */
  distortion?: number;
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

type SimAlignMethod = 'simalign-argmax' | 'simalign-itermax' | 'simalign-match';

const SIMALIGN: Readonly<Record<SimAlignMethod, (sim: Matrix, I: number, J: number) => Uint8Array>> = {
  'simalign-argmax': argmaxLinks,
  'simalign-itermax': (s, I, J) => iterMaxLinks(s, I, J),
  'simalign-match': matchLinks,
};

const isSimAlign = (m: EncoderMethodName): m is SimAlignMethod => Object.hasOwn(SIMALIGN, m);

/** The rows a method compares in one sentence (each [dim]) and the word each row stands for. */
function units(
  h: Float32Array,
  e: EncodedSentence,
  dim: number,
  bySubword: boolean,
  pooling: WordPooling,
): { rows: Float32Array; wordOf: ArrayLike<number> } {
  if (bySubword) return wordSubwords(h, e, dim);
  const w = poolWords(h, e, dim, pooling);
  const keep = [...w.has.keys()].filter((k) => w.has[k]);
  const rows = new Float32Array(keep.length * dim);
  keep.forEach((k, i) => rows.set(w.vectors.subarray(k * dim, (k + 1) * dim), i * dim));
  return { rows, wordOf: keep };
}

/** One linked cell of a pair's matrix: its words, its probability, its null-align score (NaN: none). */
interface CellLink {
  s: number;
  t: number;
  score: number;
  nul: number;
}

/** The linked cells of one pair from its hidden states (rows of the encoded sentences). */
function pairCells(
  method: EncoderMethodName,
  hs: Float32Array,
  ht: Float32Array,
  es: EncodedSentence,
  et: EncodedSentence,
  dim: number,
  o: EncoderAlignOptions,
): CellLink[] {
  const simAlign = isSimAlign(method);
  const bySubword =
    method === 'awesome' || method === 'awesome-entmax' || (simAlign && (o.tokenType ?? ENCODER_DEFAULTS.tokenType) === 'bpe');
  const pooling = o.pooling ?? ENCODER_DEFAULTS.pooling;
  const a = units(hs, es, dim, bySubword, pooling),
    b = units(ht, et, dim, bySubword, pooling);
  const I = a.wordOf.length,
    J = b.wordOf.length;
  if (!I || !J) return [];
  const dots = cosines(a.rows, b.rows, dim);
  let on: Uint8Array;
  let nul: Float64Array | null = null;
  if (simAlign) {
    const cos01 = cosines(normalised(a.rows, dim), normalised(b.rows, dim), dim).map((c) => (c + 1) / 2);
    const sim = withDistortion(cos01, I, J, o.distortion ?? ENCODER_DEFAULTS.distortion);
    on = SIMALIGN[method](sim, I, J);
    if ((o.nullAlign ?? ENCODER_DEFAULTS.nullAlign) < 1) nul = nullAlignScores(sim, I, J);
  } else if (method === 'pmi-align') on = argmaxLinks(pmiMatrix(dots, I, J), I, J);
  else if (method === 'awesome') on = softmaxLinks(dots, I, J, o.threshold ?? ENCODER_DEFAULTS.threshold);
  else on = entmaxLinks(dots, I, J);
  const prob = linkProbabilities(dots, I, J);
  const out: CellLink[] = [];
  on.forEach((x, c) => {
    if (x) out.push({ s: a.wordOf[Math.floor(c / J)], t: b.wordOf[c % J], score: prob[c], nul: nul ? nul[c] : NaN });
  });
  return out;
}

/** A pair's word links from its linked cells, those whose null-align score is above `threshold` left out; each word pair scored by its best cell. */
function wordLinks(cells: readonly CellLink[], threshold: number): Link[] {
  const links = new Map<number, Link>();
  for (const c of cells) {
    if (c.nul > threshold) continue;
    const key = linkKey(c.s, c.t);
    const old = links.get(key);
    if (!old || old.score! < c.score) links.set(key, { s: c.s, t: c.t, kind: 'sure', score: c.score });
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
  // with null-align, each pair's linked cells wait for the threshold of the whole corpus
  const nullAlign = isSimAlign(method) && (o.nullAlign ?? ENCODER_DEFAULTS.nullAlign) < 1;
  const held: CellLink[][] = [];
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
    s.forEach((es, k) => {
      const cells = pairCells(method, h[k], h[s.length + k], es, t[k], dim, o);
      if (nullAlign) held.push(cells);
      else out.push(wordLinks(cells, Infinity));
    });
    progress(at + ks.length);
  }
  if (!nullAlign) return out;
  const threshold = nullAlignThreshold(
    held.flatMap((cells) => cells.map((c) => c.nul)),
    o.nullAlign!,
  );
  return held.map((cells) => wordLinks(cells, threshold));
}
