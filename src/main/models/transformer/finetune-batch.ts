// One fine-tuning batch as the objective graph's feeds (finetune-objectives.ts): the encoder
// rows (the N sources, the N targets, then AWP's masked copies), and for each objective the
// indices and weights that pick its terms out of the flattened hidden states [R·T, D].
// Words map to subwords through word-pooling.ts (a word's subword positions in its row);
// SO's link matrix spans a word's subwords as its start/end give them.
// AWP encodes one masked copy per aligned word (eq. 4 sums over them all); to bound a batch,
// at most `awpMasks` aligned words per sentence are drawn (afresh each batch) and their terms
// are weighted by (aligned words)/(drawn), so the expected loss is eq. 4's sum.
// Empty terms (a batch without links) get one zero-weight dummy entry rather than
// zero-length tensors.
import type { LinkRef } from '../../../shared/link-set.ts';
import { floats, int64s, type Tensor } from '../../nn/tensor.ts';
import type { Rng } from '../../nn/init.ts';
import { firstPosition, type EncoderConfig } from './hf-config.ts';
import { encoderFeeds } from './hf-encoder.ts';
import { INPUT, type Objective } from './finetune-objectives.ts';
import type { EncodedSentence } from './subword-tokenizer.ts';
import { wordPoolingWeights } from './word-pooling.ts';

/** One pair as the batch builder reads it. */
export interface FinetuneExample {
  src: EncodedSentence;
  tgt: EncodedSentence;
  links: readonly LinkRef[];
  rejected: readonly LinkRef[];
}

export interface BatchOptions {
  config: EncoderConfig;
  objectives: readonly Objective[];
  maskId: number | null;
  awpMasks: number;
  /** RTL reconstructs the target from the source (DAP's direction: the other language into the pivot), or the reverse */
  rtlDirection: 'src-to-tgt' | 'tgt-to-src';
  rng: Rng;
}

const NEG_INF = -1e9;

/** Leading template tokens (CLS, <s>) of a sentence. */
const prefixLength = (s: EncodedSentence): number => {
  let n = 0;
  while (n < s.wordOf.length && s.wordOf[n] === -1) n++;
  return n;
};

interface MaskedCopy {
  ids: number[];
  /** (position in the copy, target id, weight) */
  predict: [number, number, number][];
}

/** AWP's masked copies of `x` (aligned words of x masked one at a time) predicting the linked words of `y`. */
function maskedCopies(
  x: EncodedSentence,
  y: EncodedSentence,
  links: readonly [number, number][],
  maskId: number,
  cap: number,
  scale: number,
  rng: Rng,
): MaskedCopy[] {
  const byWord = new Map<number, number[]>();
  for (const [a, b] of links) {
    if (x.end[a] <= x.start[a] || y.end[b] <= y.start[b]) continue;
    byWord.set(a, [...(byWord.get(a) ?? []), b]);
  }
  const words = [...byWord.keys()];
  const drawn = words.length > cap ? rng.shuffle(words).slice(0, cap) : words;
  const share = drawn.length ? words.length / drawn.length : 0;
  return drawn.map((a) => {
    const ids = [...x.ids];
    for (let t = x.start[a]; t < x.end[a]; t++) ids[t] = maskId;
    const predict: [number, number, number][] = [];
    for (const b of byWord.get(a)!) {
      // §4.3: the longer of the two words is clipped to the shorter's subword count
      const m = Math.min(x.end[a] - x.start[a], y.end[b] - y.start[b]);
      for (let u = 0; u < m; u++) predict.push([x.start[a] + u, y.ids[y.start[b] + u], (share * scale) / m]);
    }
    return { ids, predict };
  });
}

/** The feeds of one batch of pairs. */
export function batchFeeds(batch: readonly FinetuneExample[], o: BatchOptions): Record<string, Tensor> {
  const N = batch.length;
  const on = new Set(o.objectives);
  const half = 1 / (2 * N);
  // rows 0…N−1 the sources (side 0), N…2N−1 the targets (side 1), then AWP's masked copies of either
  const rows: { ids: readonly number[]; lang: number }[] = [
    ...batch.map((e) => ({ ids: e.src.ids, lang: 0 })),
    ...batch.map((e) => ({ ids: e.tgt.ids, lang: 1 })),
  ];
  const copies: MaskedCopy[] = [];
  if (on.has('awp')) {
    if (o.maskId === null) throw new Error('AWP needs a mask token');
    batch.forEach((e) => {
      const fwd = e.links.map((l) => [l.s, l.t] as [number, number]);
      const bwd = e.links.map((l) => [l.t, l.s] as [number, number]);
      const ofSrc = maskedCopies(e.src, e.tgt, fwd, o.maskId!, o.awpMasks, half, o.rng);
      const ofTgt = maskedCopies(e.tgt, e.src, bwd, o.maskId!, o.awpMasks, half, o.rng);
      copies.push(...ofSrc, ...ofTgt);
      rows.push(...ofSrc.map((c) => ({ ids: c.ids, lang: 0 })), ...ofTgt.map((c) => ({ ids: c.ids, lang: 1 })));
    });
  }
  const { feeds, T } = encoderFeeds(o.config, rows);
  const out: Record<string, Tensor> = { ...feeds };
  const idx = Array.from({ length: N }, (_, i) => i);
  if (on.has('tr')) {
    out[INPUT.trSrc] = int64s(idx);
    out[INPUT.trTgt] = int64s(idx.map((i) => N + i));
  }
  if (on.has('awp')) {
    const at: number[] = [],
      target: number[] = [],
      weight: number[] = [];
    copies.forEach((c, k) =>
      c.predict.forEach(([t, id, w]) => {
        at.push((2 * N + k) * T + t);
        target.push(id);
        weight.push(w);
      }),
    );
    if (!at.length) (at.push(0), target.push(0), weight.push(0));
    out[INPUT.awpAt] = int64s(at);
    out[INPUT.awpTarget] = int64s(target);
    out[INPUT.awpWeight] = floats(weight, [weight.length]);
  }
  if (on.has('wtr')) Object.assign(out, wtrFeeds(batch, T));
  if (on.has('rtl')) Object.assign(out, rtlFeeds(batch, T, rows.length, o));
  if (on.has('so')) Object.assign(out, soFeeds(batch, T));
  return out;
}

/** SO: each pair's rows, the masks of its non-subword positions, and its links over the subwords divided by N·n_i and N·m_i. */
function soFeeds(batch: readonly FinetuneExample[], T: number): Record<string, Tensor> {
  const N = batch.length;
  const tgtBias = new Float32Array(N * T).fill(NEG_INF),
    srcBias = new Float32Array(N * T).fill(NEG_INF);
  const srcWeight = new Float32Array(N * T * T),
    tgtWeight = new Float32Array(N * T * T);
  // 0 at the sentence's subwords (template tokens and padding stay masked); returns their count
  const unmask = (s: EncodedSentence, bias: Float32Array, at: number) => {
    let count = 0;
    for (let t = 0; t < s.wordOf.length; t++) if (s.wordOf[t] >= 0) ((bias[at + t] = 0), count++);
    return count;
  };
  batch.forEach((e, i) => {
    const n = unmask(e.src, srcBias, i * T),
      m = unmask(e.tgt, tgtBias, i * T);
    // a subword pair counts once however many links cover it (awesome-align's guide is 0/1)
    const cells = new Set<number>();
    for (const l of e.links)
      for (let a = e.src.start[l.s]; a < e.src.end[l.s]; a++) for (let b = e.tgt.start[l.t]; b < e.tgt.end[l.t]; b++) cells.add(a * T + b);
    for (const c of cells) {
      srcWeight[i * T * T + c] = 1 / (N * n);
      tgtWeight[i * T * T + c] = 1 / (N * m);
    }
  });
  const idx = Array.from({ length: N }, (_, i) => i);
  return {
    [INPUT.soSrc]: int64s(idx),
    [INPUT.soTgt]: int64s(idx.map((i) => N + i)),
    [INPUT.soTgtBias]: floats(tgtBias, [N, 1, T]),
    [INPUT.soSrcBias]: floats(srcBias, [N, T, 1]),
    [INPUT.soSrcWeight]: floats(srcWeight, [N, T, T]),
    [INPUT.soTgtWeight]: floats(tgtWeight, [N, T, T]),
  };
}

/** WTR: word pooling rows, and one query per link and direction (and per rejected link). */
function wtrFeeds(batch: readonly FinetuneExample[], T: number): Record<string, Tensor> {
  const N = batch.length;
  const R = 2 * N;
  const half = 1 / (2 * N);
  // word index of (row, word k), −1 when the word has no subwords
  const wordIndex: Int32Array[] = [];
  const pools: { at: number[]; weight: number[] }[] = [];
  const rowWords: number[][] = [];
  [...batch.map((e) => e.src), ...batch.map((e) => e.tgt)].forEach((s, r) => {
    const ix = new Int32Array(s.start.length).fill(-1);
    const mine: number[] = [];
    for (let k = 0; k < s.start.length; k++) {
      const p = wordPoolingWeights(s, k);
      if (!p.at.length) continue;
      ix[k] = pools.length;
      mine.push(pools.length);
      pools.push({ at: p.at.map((t) => r * T + t), weight: p.weight });
    }
    wordIndex.push(ix);
    rowWords.push(mine);
  });
  const W = Math.max(1, pools.length);
  const pool = new Float32Array(W * R * T);
  pools.forEach((p, w) => p.at.forEach((x, i) => (pool[w * R * T + x] = p.weight[i])));
  const anchor: number[] = [],
    target: number[] = [],
    pos: number[] = [],
    negw: number[] = [],
    bias: number[] = [];
  const query = (ra: number, a: number, rb: number, b: number, positive: boolean) => {
    const wa = wordIndex[ra][a],
      wb = wordIndex[rb][b];
    if (wa < 0 || wb < 0) return;
    anchor.push(wa);
    target.push(wb);
    pos.push(positive ? half : 0);
    negw.push(positive ? 0 : half);
    const row = new Array<number>(W).fill(NEG_INF);
    for (const w of rowWords[rb]) row[w] = 0;
    bias.push(...row);
  };
  batch.forEach((e, i) => {
    for (const l of e.links) (query(i, l.s, N + i, l.t, true), query(N + i, l.t, i, l.s, true));
    for (const l of e.rejected) (query(i, l.s, N + i, l.t, false), query(N + i, l.t, i, l.s, false));
  });
  if (!anchor.length) (anchor.push(0), target.push(0), pos.push(0), negw.push(0), bias.push(...new Array<number>(W).fill(0)));
  const Q = anchor.length;
  return {
    [INPUT.wtrRows]: int64s(Array.from({ length: R }, (_, r) => r)),
    [INPUT.wtrPool]: floats(pool, [W, R * T]),
    [INPUT.wtrAnchor]: int64s(anchor),
    [INPUT.wtrBias]: floats(bias, [Q, W]),
    [INPUT.wtrTarget]: int64s(target),
    [INPUT.wtrPos]: floats(pos, [Q]),
    [INPUT.wtrNeg]: floats(negw, [Q]),
  };
}

/** RTL: per pair, x's rows except the leading template token(s), then one [MASK] slot per subword of y's words. */
function rtlFeeds(batch: readonly FinetuneExample[], T: number, R: number, o: BatchOptions): Record<string, Tensor> {
  if (o.maskId === null) throw new Error('RTL needs a mask token');
  const N = batch.length;
  const first = firstPosition(o.config);
  const seqs: number[][] = [];
  const slotIds: number[] = [],
    slotPos: number[] = [],
    slotLang: number[] = [];
  const goals: { at: number; id: number; w: number }[][] = [];
  batch.forEach((e, i) => {
    const back = o.rtlDirection === 'tgt-to-src';
    const x = back ? e.tgt : e.src,
      y = back ? e.src : e.tgt;
    const row = back ? N + i : i;
    const seq: number[] = [];
    for (let t = prefixLength(x); t < x.ids.length; t++) seq.push(row * T + t);
    const mine: { at: number; id: number; w: number }[] = [];
    const ys = [...y.wordOf.keys()].filter((t) => y.wordOf[t] >= 0);
    for (const t of ys) {
      mine.push({ at: seq.length, id: y.ids[t], w: 1 / (ys.length * N) });
      seq.push(R * T + slotIds.length);
      slotIds.push(o.maskId!);
      slotPos.push(first + t);
      slotLang.push(back ? 0 : 1);
    }
    seqs.push(seq);
    goals.push(mine);
  });
  if (!slotIds.length) (slotIds.push(o.maskId), slotPos.push(first), slotLang.push(0));
  const Tr = Math.max(1, ...seqs.map((s) => s.length));
  const index = new Array<number>(N * Tr).fill(0),
    mask = new Array<number>(N * Tr).fill(0);
  seqs.forEach((s, i) => s.forEach((x, t) => ((index[i * Tr + t] = x), (mask[i * Tr + t] = 1))));
  const at: number[] = [],
    target: number[] = [],
    weight: number[] = [];
  goals.forEach((g, i) => g.forEach((q) => (at.push(i * Tr + q.at), target.push(q.id), weight.push(q.w))));
  if (!at.length) (at.push(0), target.push(0), weight.push(0));
  return {
    [INPUT.rtlSlotIds]: int64s(slotIds),
    [INPUT.rtlSlotPos]: int64s(slotPos),
    [INPUT.rtlSlotLang]: int64s(slotLang),
    [INPUT.rtlIndex]: int64s(index, [N, Tr]),
    [INPUT.rtlMask]: int64s(mask, [N, Tr]),
    [INPUT.rtlAt]: int64s(at),
    [INPUT.rtlTarget]: int64s(target),
    [INPUT.rtlWeight]: floats(weight, [weight.length]),
  };
}
