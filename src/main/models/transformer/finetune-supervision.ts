// The word links fine-tuning learns from, per pair: the gold links where a pair has some
// (an empty gold line counts as no gold, as partly annotated gold files leave lines empty),
// else the links our own similarity aligner (encoder-aligner.ts) proposes with probability
// ≥ 0.9 — WACSE keeps its aligner's links above 0.9 (§3, footnote 2); ours are scored by
// linkProbabilities, the number `mekong align --scores` writes. Links a reviewer rejected
// are never positives, and are kept as negatives (WTR's unlikelihood terms).
// The aligner's links are found once before training ('fixed'), or found again before each
// step by the encoder being trained, for that step's pairs ('recomputed': awesome-align's
// self-training, whose guide labels are re-extracted from the current model for every batch,
// run_train.py's collate), with the same method, layer, threshold and rejections.
import { keySet, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import type { EncoderMethodName } from '../../../shared/methods.ts';
import { type Sentences, sentences, type Side } from '../../align/sentences.ts';
import type { JobContext } from '../../jobs/job-context.ts';
import { alignWithEncoder } from './encoder-aligner.ts';
import type { HfEncoder } from './hf-encoder.ts';

/** One pair's supervision: the links it learns from, the rejected ones, and where the links came from. */
export interface PairSupervision {
  links: LinkRef[];
  rejected: LinkRef[];
  from: 'gold' | 'model';
}

export interface SupervisionOptions {
  method: EncoderMethodName;
  threshold: number;
  /** hidden state the aligner reads (default: its own default) */
  layer?: number;
  /** progress (pairs aligned of those without gold) and cancel */
  ctx?: JobContext;
}

/** The aligner's links of pairs `ks` (one list per pair of `ks`, in its order). */
async function aligned(encoder: HfEncoder, S: Sentences, T: Sentences, ks: readonly number[], o: SupervisionOptions): Promise<Link[][]> {
  return alignWithEncoder(
    encoder,
    o.method,
    ks.map((k) => S.tokens(k)),
    ks.map((k) => T.tokens(k)),
    { layer: o.layer, ctx: o.ctx },
  );
}

/** The positives among the aligner's links of a pair: probability ≥ threshold and not rejected. */
function positives(found: readonly Link[], rejected: readonly LinkRef[] | null | undefined, threshold: number): LinkRef[] {
  const no = keySet(rejected ?? []);
  return found.filter((l) => (l.score ?? 0) >= threshold && !no.has(linkKey(l.s, l.t))).map((l) => ({ s: l.s, t: l.t }));
}

/** Each pair's positive and rejected links; `open` gives the aligner's encoder, opened (and released) only when a pair has no gold. */
export async function fineTuningLinks(
  open: () => HfEncoder,
  src: Side,
  tgt: Side,
  gold: readonly (readonly Link[] | null)[] | undefined,
  rejected: readonly (readonly LinkRef[] | null)[] | undefined,
  o: SupervisionOptions,
): Promise<PairSupervision[]> {
  const S = sentences(src),
    T = sentences(tgt);
  const n = S.length;
  const hasGold = (k: number) => (gold?.[k]?.length ?? 0) > 0;
  const need = Array.from({ length: n }, (_, k) => k).filter((k) => !hasGold(k));
  const model = new Map<number, Link[]>();
  if (need.length) {
    const encoder = open();
    try {
      const found = await aligned(encoder, S, T, need, o);
      need.forEach((k, i) => model.set(k, found[i]));
    } finally {
      await encoder.release();
    }
  }
  return Array.from({ length: n }, (_, k) => {
    const no = keySet(rejected?.[k] ?? []);
    const fromGold = hasGold(k);
    const links = fromGold
      ? gold![k]!.filter((l) => !no.has(linkKey(l.s, l.t))).map((l) => ({ s: l.s, t: l.t }))
      : positives(model.get(k)!, rejected?.[k], o.threshold);
    return { links, rejected: (rejected?.[k] ?? []).map((l) => ({ s: l.s, t: l.t })), from: fromGold ? 'gold' : 'model' };
  });
}

/**
 * The links of pairs `ks` found again by `encoder` as it is now (the model being trained),
 * for those of them that learn from the aligner; pairs with gold keep theirs. Returns the
 * new links of each such pair.
 */
export async function recomputedLinks(
  encoder: HfEncoder,
  src: Side,
  tgt: Side,
  pairs: readonly PairSupervision[],
  ks: readonly number[],
  o: SupervisionOptions,
): Promise<Map<number, LinkRef[]>> {
  const model = ks.filter((k) => pairs[k].from === 'model');
  const out = new Map<number, LinkRef[]>();
  if (!model.length) return out;
  const found = await aligned(encoder, sentences(src), sentences(tgt), model, o);
  model.forEach((k, i) => out.set(k, positives(found[i], pairs[k].rejected, o.threshold)));
  return out;
}
