// Vocabularies and batch tensors of the neural aligner. Each language has its own word
// vocabulary (ids 0 pad, 1 unknown, 2 BOS, 3 EOS, then words by frequency); subwords come
// from one BPE model trained on both sides and share one table (ids 0 pad, then subwords).
// A word keeps at most `maxSubwords` subwords (its first ones). The BPE model is kept with
// the vocabulary (subwordModel), so a word it lacks (new text for a saved model) is the
// unknown word plus its subwords that have an id — what word dropout (word-dropout.ts)
// trains the model to read — and a continued training can add words (vocab-growth.ts).
// A batch of B pairs in a bucket of length T (both sides right-padded to T) becomes, per
// side x ∈ {s, t}: x.ids [B,T] int64, x.sub [B,T,K] int64 and x.subw [B,T,K] (1/|Q(w)| on
// a word's subwords, 0 elsewhere: eq. 10's average as a weighted sum), x.mask [B,T],
// x.rev [B,T] int64 (position of the i-th word counted from the end; padding maps to 0),
// x.next [B,T+1] (decoder targets w₁…w_M EOS), x.prev [B,T+1] (right-to-left targets
// w_M…w₁ BOS), x.dmask [B,T+1], x.rows [N] (the flat positions b·(T+1) + i where dmask is 1);
// and gold / rejected [B,T,T] (links i-j as 1s).
// Output vocabulary (the decoders' softmax, eq. 8): with more than OUTPUT_WORDS word types a
// side's softmax runs over x.out [V'] only — the reserved ids, the OUTPUT_WORDS most frequent
// words and every word of the batch (Jean et al. 2015's target-vocabulary selection) — and
// x.next / x.prev are positions in x.out; a corpus with fewer types has every id in x.out.
// The softmax is most of a training step's work, so OUTPUT_WORDS is 1,024: on 5k en–de pairs
// (15k and 21k types) x.out averages 1,220 ids a batch, and P@1 and AER are those of a
// 4,096-word softmax within noise (docs/experiments.md).
import type { CorpusLinks } from '../../../shared/link-set.ts';
import { floats, int64s, type Tensor } from '../../nn/tensor.ts';
import { type Bpe, segmentWord, trainBpe } from './subword.ts';

export const PAD = 0,
  UNK = 1,
  BOS = 2,
  EOS = 3;
export const RESERVED = 4;
/** frequent words always in the output softmax of a large vocabulary */
export const OUTPUT_WORDS = 1024;

export interface SideVocab {
  ids: Map<string, number>;
  /** subword ids of each word id (empty for the reserved ids) */
  subwords: number[][];
}

/** The BPE model behind the subword table, so words the vocabulary lacks still get subwords. */
export interface SubwordModel {
  /** merge rules ("a b") in the order learned */
  merges: string[];
  /** each subword id's piece: pieces[id − 1] */
  pieces: string[];
}

export interface NeuralVocab {
  src: SideVocab;
  tgt: SideVocab;
  subwordCount: number;
  maxSubwords: number;
  /** absent in models saved before it was kept: unknown words then have no subwords */
  subwordModel?: SubwordModel;
}

export function countWords(side: readonly string[][], counts: Map<string, number>): Map<string, number> {
  for (const sent of side) for (const w of sent) counts.set(w, (counts.get(w) ?? 0) + 1);
  return counts;
}

/** Appends the counted words `side` lacks, most frequent first, with their subwords (new pieces get new ids in `subIds`). */
export function addWords(side: SideVocab, counts: Map<string, number>, bpe: Bpe, subIds: Map<string, number>, maxSub: number): SideVocab {
  const ids = new Map(side.ids);
  const subwords = [...side.subwords];
  const words = [...counts.keys()].filter((w) => !ids.has(w)).sort((a, b) => counts.get(b)! - counts.get(a)! || (a < b ? -1 : 1));
  for (const w of words) {
    ids.set(w, ids.size + RESERVED);
    const pieces = segmentWord(bpe, w).slice(0, maxSub);
    subwords.push(pieces.map((p) => subIds.get(p) ?? subIds.set(p, subIds.size + 1).get(p)!));
  }
  return { ids, subwords };
}

const emptySide = (): SideVocab => ({ ids: new Map(), subwords: [[], [], [], []] });

export function buildVocab(src: readonly string[][], tgt: readonly string[][], merges: number, maxSubwords: number): NeuralVocab {
  const sc = countWords(src, new Map());
  const tc = countWords(tgt, new Map());
  const both = countWords(tgt, countWords(src, new Map()));
  const bpe = trainBpe(both, merges);
  const subIds = new Map<string, number>();
  const vocab = { src: addWords(emptySide(), sc, bpe, subIds, maxSubwords), tgt: addWords(emptySide(), tc, bpe, subIds, maxSubwords) };
  return {
    ...vocab,
    subwordCount: subIds.size + 1,
    maxSubwords,
    subwordModel: { merges: [...bpe.ranks.keys()], pieces: [...subIds.keys()] },
  };
}

/** The BPE model and piece ids of a subword model (cached per model). */
const expanded = new WeakMap<SubwordModel, { bpe: Bpe; subIds: Map<string, number> }>();
export function expandSubwordModel(m: SubwordModel): { bpe: Bpe; subIds: Map<string, number> } {
  let e = expanded.get(m);
  if (!e)
    expanded.set(m, (e = { bpe: { ranks: new Map(m.merges.map((r, k) => [r, k])) }, subIds: new Map(m.pieces.map((p, k) => [p, k + 1])) }));
  return e;
}

/** Subword ids of a word the vocabulary lacks: its first maxSubwords BPE pieces, those with an id. */
function unknownSubwords(v: NeuralVocab): (word: string) => number[] {
  if (!v.subwordModel) return () => [];
  const { bpe, subIds } = expandSubwordModel(v.subwordModel);
  const seen = new Map<string, number[]>();
  return (w) => {
    let ids = seen.get(w);
    if (!ids)
      seen.set(
        w,
        (ids = segmentWord(bpe, w)
          .slice(0, v.maxSubwords)
          .flatMap((p) => subIds.get(p) ?? [])),
      );
    return ids;
  };
}

export function sideSize(v: SideVocab): number {
  return v.ids.size + RESERVED;
}

/** The batch's output ids (ascending) and each id's position among them. */
function outputIds(v: SideVocab, sents: readonly string[][], T: number): { out: number[]; at: (id: number) => number } {
  const size = sideSize(v);
  if (size <= RESERVED + OUTPUT_WORDS) return { out: Array.from({ length: size }, (_, i) => i), at: (id) => id };
  const extra = new Set<number>();
  for (const sent of sents)
    for (const w of sent.slice(0, T)) {
      const id = v.ids.get(w) ?? UNK;
      if (id >= RESERVED + OUTPUT_WORDS) extra.add(id);
    }
  const out = [...Array.from({ length: RESERVED + OUTPUT_WORDS }, (_, i) => i), ...[...extra].sort((a, b) => a - b)];
  const pos = new Map(out.map((id, i) => [id, i]));
  return { out, at: (id) => pos.get(id)! };
}

function sideFeeds(
  x: 's' | 't',
  v: SideVocab,
  sents: readonly string[][],
  T: number,
  K: number,
  unknown: (word: string) => number[],
): Record<string, Tensor> {
  const B = sents.length;
  const { out, at } = outputIds(v, sents, T);
  const ids = new Array<number>(B * T).fill(PAD),
    mask = new Array<number>(B * T).fill(0),
    rev = new Array<number>(B * T).fill(0);
  const sub = new Array<number>(B * T * K).fill(0),
    subw = new Array<number>(B * T * K).fill(0);
  const next = new Array<number>(B * (T + 1)).fill(PAD),
    prev = new Array<number>(B * (T + 1)).fill(PAD);
  const dmask = new Array<number>(B * (T + 1)).fill(0);
  const rows: number[] = [];
  sents.forEach((sent, b) => {
    const n = Math.min(sent.length, T);
    for (let i = 0; i < n; i++) {
      const id = v.ids.get(sent[i]) ?? UNK;
      ids[b * T + i] = id;
      mask[b * T + i] = 1;
      rev[b * T + i] = n - 1 - i;
      const pieces = id === UNK ? unknown(sent[i]) : v.subwords[id];
      pieces.forEach((p, k) => ((sub[(b * T + i) * K + k] = p), (subw[(b * T + i) * K + k] = 1 / pieces.length)));
      next[b * (T + 1) + i] = at(id);
      prev[b * (T + 1) + n - 1 - i] = at(id);
    }
    next[b * (T + 1) + n] = at(EOS);
    prev[b * (T + 1) + n] = at(BOS);
    for (let i = 0; i <= n; i++) dmask[b * (T + 1) + i] = 1;
    for (let i = 0; i <= n; i++) rows.push(b * (T + 1) + i);
  });
  return {
    [`${x}.ids`]: int64s(ids, [B, T]),
    [`${x}.mask`]: floats(mask, [B, T]),
    [`${x}.rev`]: int64s(rev, [B, T]),
    [`${x}.sub`]: int64s(sub, [B, T, K]),
    [`${x}.subw`]: floats(subw, [B, T, K]),
    [`${x}.next`]: int64s(next, [B, T + 1]),
    [`${x}.prev`]: int64s(prev, [B, T + 1]),
    [`${x}.dmask`]: floats(dmask, [B, T + 1]),
    [`${x}.rows`]: int64s(rows, [rows.length]),
    [`${x}.out`]: int64s(out, [out.length]),
  };
}

function linkTensor(links: CorpusLinks, T: number): Tensor {
  const m = new Float32Array(links.length * T * T);
  links.forEach((ls, b) => ls?.forEach((l) => l.s < T && l.t < T && (m[b * T * T + l.s * T + l.t] = 1)));
  return floats(m, [links.length, T, T]);
}

export interface BatchInput {
  src: readonly string[][];
  tgt: readonly string[][];
  gold?: CorpusLinks;
  rejected?: CorpusLinks;
}

/** All feeds of one batch in a bucket of length T. */
export function batchFeeds(v: NeuralVocab, b: BatchInput, T: number): Record<string, Tensor> {
  const none = b.src.map(() => undefined);
  const unknown = unknownSubwords(v);
  return {
    ...sideFeeds('s', v.src, b.src, T, v.maxSubwords, unknown),
    ...sideFeeds('t', v.tgt, b.tgt, T, v.maxSubwords, unknown),
    gold: linkTensor(b.gold ?? none, T),
    rejected: linkTensor(b.rejected ?? none, T),
  };
}

/** Bucket length for a pair: multiples of 8 up to 32, then of 16. */
export function bucketOf(len: number): number {
  const n = Math.max(len, 1);
  return n <= 32 ? Math.ceil(n / 8) * 8 : Math.ceil(n / 16) * 16;
}

/**
 * Runs `each(T, idx)` over items of lengths `lengths` grouped by bucket (shortest bucket
 * first), in batches of at most `batch` item indices — how inference runs a model over
 * sentences or pairs one compiled bucket at a time.
 */
export async function forBucketBatches(
  lengths: readonly number[],
  batch: number,
  each: (T: number, idx: number[]) => Promise<void>,
): Promise<void> {
  const byBucket = new Map<number, number[]>();
  lengths.forEach((n, k) => {
    const T = bucketOf(n);
    (byBucket.get(T) ?? byBucket.set(T, []).get(T)!).push(k);
  });
  for (const [T, ks] of [...byBucket].sort((a, b) => a[0] - b[0]))
    for (let i = 0; i < ks.length; i += batch) await each(T, ks.slice(i, i + batch));
}
