// Token arithmetic of a re-segmentation (`mekong resegment`): the same text cut anew, each
// old token mapped to the new tokens that take its place, and links re-indexed through that
// map. An old token maps to whole new tokens when their character spans nest:
//  - one new token holds it (a merge: ປະ|ຈຳ → ປະຈຳ), or
//  - it holds every new token it overlaps (a split: 我是 → 我|是);
// otherwise a new token cuts across it (old ab|cd, new a|bcd: "ab" is neither) and it has
// no image (null). Spans are flat UTF-16 offsets [start0, end0, ...] (offsets.ts), in order
// and not overlapping, as segmentation makes them.
import { LinkSet, type Link } from '../../shared/link-set.ts';

/** For each old token, the indices of the new tokens taking its place, or null when one cuts across it. */
export function remapTokens(oldSpans: ArrayLike<number>, newSpans: ArrayLike<number>): (number[] | null)[] {
  const out: (number[] | null)[] = [];
  const n = newSpans.length / 2;
  let j = 0;
  for (let i = 0; 2 * i < oldSpans.length; i++) {
    const [a, b] = [oldSpans[2 * i], oldSpans[2 * i + 1]];
    while (j < n && newSpans[2 * j + 1] <= a) j++;
    const hit: number[] = [];
    for (let k = j; k < n && newSpans[2 * k] < b; k++) hit.push(k);
    const holds = hit.length === 1 && newSpans[2 * hit[0]] <= a && newSpans[2 * hit[0] + 1] >= b;
    const held = hit.length > 0 && hit.every((k) => newSpans[2 * k] >= a && newSpans[2 * k + 1] <= b);
    out.push(holds || held ? hit : null);
  }
  return out;
}

/** The identity map of `count` tokens (a side left as it was). */
export function identityMap(count: number): number[][] {
  return Array.from({ length: count }, (_, i) => [i]);
}

/**
 * Links re-indexed through the two sides' maps: a link goes to every (new s, new t) its
 * tokens map to; links that then coincide are merged (link-set.ts's merge rule: sure beats possible,
 * the larger score). Every endpoint must have an image (check with remapTokens first). With
 * `split: 'drop'` (a model's links) a link of a token split in several is dropped, not copied
 * onto every piece: which piece the model meant is not known.
 */
export function remapLinks(
  links: readonly Link[],
  src: readonly (number[] | null)[],
  tgt: readonly (number[] | null)[],
  split: 'copy' | 'drop' = 'copy',
): Link[] {
  const out: Link[] = [];
  for (const l of links) {
    if (split === 'drop' && (src[l.s]!.length > 1 || tgt[l.t]!.length > 1)) continue;
    for (const s of src[l.s]!) for (const t of tgt[l.t]!) out.push({ ...l, s, t });
  }
  return new LinkSet(out).sorted();
}
