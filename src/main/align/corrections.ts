// A linguist's corrections applied to a model's output, the one way every aligner's links
// are stored or printed (the Align job of every family, re-alignment with a trained model,
// the CLI's BiLSTM): links a linguist rejected are dropped, every gold link is kept (its
// kind, score 1) whether the model found it or not, and the result is sorted by (s, t).
// Gold also serves some aligners as evidence while they align (the EM's constraints, the
// BiLSTM's supervision); this is what is done to their output.
import { type AlignedPair, compareLinks, type Link, type LinkRef, LinkSet } from '../../shared/link-set.ts';

/** A pair's gold in the AER view, as links of its kinds (no score: human links). */
export function goldAsLinks(g: AlignedPair | undefined): Link[] {
  if (!g) return [];
  const link =
    (kind: Link['kind']) =>
    ([s, t]: [number, number]): Link => ({ s, t, kind, score: null });
  return [...g.sure.map(link('sure')), ...g.possible.map(link('possible'))];
}

/** Whether `links` is an array in strictly increasing (s, t) order: one link a cell, sorted. */
function strictlySorted(links: Iterable<Link>): links is Link[] {
  if (!Array.isArray(links)) return false;
  const a = links as Link[];
  for (let i = 1; i < a.length; i++) if (compareLinks(a[i - 1], a[i]) >= 0) return false;
  return true;
}

/**
 * `links` without the `rejected` cells, with every `gold` link in place (score 1), sorted by
 * (s, t). A pair without corrections whose links are already one a cell and sorted (the
 * statistical engine's are) is given back as it is, the caller's own array: at 1M pairs a set
 * and a sorted copy of every pair's links (12M in all) were made for nothing.
 */
export function withCorrections(
  links: Iterable<Link>,
  gold: readonly Link[] | undefined,
  rejected: readonly LinkRef[] | undefined,
): Link[] {
  if (!gold?.length && !rejected?.length && strictlySorted(links)) return links;
  const set = new LinkSet(links);
  if (rejected?.length) set.minusRejected(rejected);
  if (gold?.length) set.plusGold(gold);
  return set.sorted();
}
