// The word links fine-tuning learns from, per pair: the gold links where a pair has some
// (an empty gold line counts as no gold, as partly annotated gold files leave lines empty),
// else the links our own similarity aligner (encoder-aligner.ts) proposes with probability
// ≥ 0.9 — WACSE keeps its aligner's links above 0.9 (§3, footnote 2); ours are scored by
// linkProbabilities, the number `mekong align --scores` writes. Links a reviewer rejected
// are never positives, and are kept as negatives (WTR's unlikelihood terms).
import { keySet, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import type { EncoderMethodName } from '../../../shared/methods.ts';
import type { Side } from '../../align/sentences.ts';
import { sentences } from '../../align/sentences.ts';
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
      const found = await alignWithEncoder(
        encoder,
        o.method,
        need.map((k) => S.tokens(k)),
        need.map((k) => T.tokens(k)),
        { layer: o.layer, ctx: o.ctx },
      );
      need.forEach((k, i) => model.set(k, found[i]));
    } finally {
      await encoder.release();
    }
  }
  return Array.from({ length: n }, (_, k) => {
    const no = keySet(rejected?.[k] ?? []);
    const fromGold = hasGold(k);
    const proposed = fromGold ? gold![k]! : model.get(k)!.filter((l) => (l.score ?? 0) >= o.threshold);
    const links = proposed.filter((l) => !no.has(linkKey(l.s, l.t))).map((l) => ({ s: l.s, t: l.t }));
    return { links, rejected: (rejected?.[k] ?? []).map((l) => ({ s: l.s, t: l.t })), from: fromGold ? 'gold' : 'model' };
  });
}
