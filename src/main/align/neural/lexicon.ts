// A word-translation lexicon from the neural aligner: the model's own alignments over the
// corpus, counted like a translation table, plus the nearest-word-in-the-vocabulary score of
// seed 003 §IV.C. For source type s and target type t:
//   A(s, t)  = Σ over the tokens of s and t in the same pair of the cell confidence of eq. 17
//              (per pair CSLS K=3, confidence ½(row softmax + column softmax), csls.ts)
//   V(s, t)  = CSLS with K = 10 between type vectors (the mean of a type's contextual
//              embeddings over the corpus, L2-normalised), neighbours over the whole vocabulary
//   score(s, t) = A(s, t) / n(s) + λ·V(s, t),  λ = 1, n(s) the count of s;
// candidates t are the target types co-occurring with s; each source type keeps its `top`.
// On Tatoeba vi→en (1,000 pairs, 20 epochs) P@1 was 0.497 with V alone, 0.516 with A alone
// and 0.554 with both (λ 0.5: 0.536, λ 2: 0.549). `npm run bench -- neural` (20 epochs), vi/id/
// zh/th: 0.551/0.616/0.555/0.555 on encoder states, 0.544/0.638/0.564/0.560 on the vectors of
// encoder.ts (with the eq. 10 part), where type vectors alone gave 0.41/0.49/0.43/0.43 (agree:
// 0.604/0.677/0.662/0.642). Also tried: static eq. 10 vectors (0.380), type vectors of [u; r]
// (0.495), counts of gdfa links (0.468) or of competitive linking (0.509), attention weights
// of the translation decoders as counts (zh 0.569 with A and V, 0.522 alone); a model trained
// on agree's links ≥ 0.9 as seed-000 pseudo-labels (vi/id/zh 0.604/0.660/0.631, agree
// 0.604/0.677/0.662); adding μ·t(t|s) of agree to the score (pseudo-labelled model, μ = 2:
// 0.609/0.671/0.653; unsupervised model, μ = 4: 0.597/0.676/0.657): never clearly above agree.
// V's neighbourhoods are computed row by row (no I×J matrix is kept).
import type { PairEmbeddings } from './aligner.ts';
import { bestPartners, cosines, csls } from './csls.ts';

export interface LexiconEntry {
  src: string;
  tgt: string;
  score: number;
}

export const VOCAB_CSLS_K = 10;
export const PAIR_CSLS_K = 3;
export const VOCAB_WEIGHT = 1;

interface Types {
  index: Map<string, number>;
  words: string[];
  count: number[];
  /** L2-normalised mean contextual embedding per type [n·D] */
  flat: Float32Array;
}

function typeVectors(sents: readonly string[][], vecs: Float32Array[], d: number): Types {
  const index = new Map<string, number>();
  const words: string[] = [];
  const count: number[] = [];
  const sums: Float32Array[] = [];
  sents.forEach((s, k) =>
    s.forEach((w, i) => {
      let n = index.get(w);
      if (n === undefined) {
        index.set(w, (n = words.length));
        words.push(w);
        count.push(0);
        sums.push(new Float32Array(d));
      }
      count[n]++;
      const acc = sums[n];
      for (let c = 0; c < d; c++) acc[c] += vecs[k][i * d + c];
    }),
  );
  const flat = new Float32Array(words.length * d);
  sums.forEach((v, n) => {
    let norm = 0;
    for (let c = 0; c < d; c++) norm += v[c] * v[c];
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < d; c++) flat[n * d + c] = v[c] / norm;
  });
  return { index, words, count, flat };
}

function dot(a: Float32Array, i: number, b: Float32Array, j: number, d: number): number {
  let s = 0;
  for (let c = 0; c < d; c++) s += a[i * d + c] * b[j * d + c];
  return s;
}

/** Inserts v into the descending list `best` of at most k values. */
function keepTop(best: number[], v: number, k: number): void {
  if (best.length === k && v <= best[k - 1]) return;
  let at = best.length;
  while (at > 0 && best[at - 1] < v) at--;
  best.splice(at, 0, v);
  if (best.length > k) best.pop();
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** r_T(i) and r_S(j) of CSLS over the two vocabularies, one row of cosines at a time. */
function neighbourhoods(s: Types, t: Types, d: number, K: number): { rT: Float64Array; rS: Float64Array } {
  const I = s.words.length, J = t.words.length;
  const rT = new Float64Array(I);
  const cols = Array.from({ length: J }, () => [] as number[]);
  for (let i = 0; i < I; i++) {
    const row: number[] = [];
    for (let j = 0; j < J; j++) {
      const c = dot(s.flat, i, t.flat, j, d);
      keepTop(row, c, K);
      keepTop(cols[j], c, K);
    }
    rT[i] = mean(row);
  }
  return { rT, rS: Float64Array.from(cols, mean) };
}

/** A(s, t): summed eq. 17 cell confidences of co-occurring tokens, keyed by type indices. */
function alignmentCounts(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, s: Types, t: Types): Map<number, Map<number, number>> {
  const out = new Map<number, Map<number, number>>();
  e.src.forEach((x, k) => {
    const I = x.length / e.dim, J = e.tgt[k].length / e.dim;
    if (!I || !J) return;
    const conf = bestPartners(csls(cosines(x, e.tgt[k], e.dim), I, J, PAIR_CSLS_K), I, J).mean;
    for (let i = 0; i < I; i++) {
      const si = s.index.get(src[k][i])!;
      const row = out.get(si) ?? out.set(si, new Map()).get(si)!;
      for (let j = 0; j < J; j++) {
        const tj = t.index.get(tgt[k][j])!;
        row.set(tj, (row.get(tj) ?? 0) + conf[i * J + j]);
      }
    }
  });
  return out;
}

export function neuralLexicon(src: readonly string[][], tgt: readonly string[][], e: PairEmbeddings, top = 5): LexiconEntry[] {
  const d = e.dim;
  const s = typeVectors(src, e.src, d);
  const t = typeVectors(tgt, e.tgt, d);
  const { rT, rS } = neighbourhoods(s, t, d, VOCAB_CSLS_K);
  const out: LexiconEntry[] = [];
  for (const [i, row] of alignmentCounts(src, tgt, e, s, t)) {
    const scored = [...row].map(([j, a]) => ({
      tgt: t.words[j],
      score: a / s.count[i] + VOCAB_WEIGHT * (2 * dot(s.flat, i, t.flat, j, d) - rT[i] - rS[j]),
    }));
    scored.sort((a, b) => b.score - a.score);
    for (const x of scored.slice(0, top)) out.push({ src: s.words[i], ...x });
  }
  return out;
}
