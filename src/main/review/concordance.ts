// The project's lexicon and its concordance: every (source word, target word) pair linked
// somewhere, counted over the annotator's gold links and one model alignment's links (less
// the links the annotator rejected: everyone's in shared annotation); every pair where both
// words occur, with the links between them; and the bulk fix, which links (or unlinks) the
// two words in all those pairs as one edit group (one undo reverses it all), written in short
// transactions (store/bounded-writes.ts) so that other edits go on meanwhile. Words are
// compared case-folded (toLowerCase).
//
// "Link all" never writes a guess. In each pair, the occurrences of the two words not yet
// linked in the annotator's gold are paired one to one along the model's links between them
// (a rejected link supports nothing): the matching of greatest total posterior, so with two
// occurrences on a side the model decides which goes with which, never their positions.
// Those links are proposed (ticked). Occurrences the model leaves unpaired are listed as
// every pairing of them with the other side's unpaired occurrences, unticked and with the
// reason ("no model link between these occurrences"); an occurrence with nothing left on the
// other side is listed as unmatched. Applying takes the links the user kept, and, when none
// are named, only the supported ones.
import type { BulkChange, BulkLink, LexiconEntry, Occurrence } from '../../shared/editor-api.ts';
import { compareLinks, keySet, linkKey, linkName, pairLinkKey, sortedLinks, type Link, type LinkRef } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import {
  goldAlignmentOf,
  newestModelAlignment,
  pairLinksReader,
  rejectedLinksByPair,
  rejectedOfPair,
  scoredLinksByPair,
  type ScoredLink,
} from '../store/alignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { annotatorsShare } from '../store/annotation-mode.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { groupWriter, type PairEdit } from '../store/edits.ts';
import { goldIdOf } from '../store/gold-layer.ts';
import { iteratePairRows, iteratePairRowsHolding, offsetsOf, pairRowReader, tokensOf, type PairRow } from '../store/pairs.ts';
import { pairWords as words, wordCandidates } from '../store/word-index.ts';

type BulkAction = 'add' | 'remove' | 'reject';

/** The newest model alignment, when none is chosen. */
export const defaultModelId = newestModelAlignment;

function linkMap(store: ProjectStore, alignmentId: number | null): Map<number, ScoredLink[]> {
  return alignmentId === null ? new Map() : scoredLinksByPair(store, alignmentId);
}

function visitPairs(store: ProjectStore, visit: (row: PairRow, src: string[], tgt: string[]) => void): void {
  for (const rows of iteratePairRows(store, {}, 2000))
    for (const r of rows) visit(r, words(r.src_text, r.src_tokens), words(r.tgt_text, r.tgt_tokens));
}

/** The rejected links that count for `annotator`: their own, or everyone's when annotators share. */
function rejectedFor(store: ProjectStore, annotator: string): Map<number, LinkRef[]> {
  return rejectedLinksByPair(store, annotatorsShare(store) ? null : annotator);
}

export function lexiconEntries(
  store: ProjectStore,
  annotator: string,
  modelId: number | null,
  text: string,
  limit: number,
): LexiconEntry[] {
  const gold = linkMap(store, goldIdOf(store, annotator));
  const model = linkMap(store, modelId);
  const rejected = rejectedFor(store, annotator);
  const counts = new Map<string, LexiconEntry>();
  const count = (src: string[], tgt: string[], links: LinkRef[] | undefined, field: 'gold' | 'model') => {
    for (const l of links ?? []) {
      const key = `${src[l.s]}\t${tgt[l.t]}`;
      let e = counts.get(key);
      if (!e) counts.set(key, (e = { src: src[l.s], tgt: tgt[l.t], gold: 0, model: 0 }));
      e[field]++;
    }
  };
  visitPairs(store, (r, src, tgt) => {
    count(src, tgt, gold.get(r.id), 'gold');
    const no = keySet(rejected.get(r.id) ?? []);
    count(
      src,
      tgt,
      model.get(r.id)?.filter((l) => !no.has(linkKey(l.s, l.t))),
      'model',
    );
  });
  const q = text.toLowerCase();
  return [...counts.values()]
    .filter((e) => !q || e.src.includes(q) || e.tgt.includes(q))
    .sort((a, b) => b.gold + b.model - (a.gold + a.model) || b.gold - a.gold || a.src.localeCompare(b.src) || a.tgt.localeCompare(b.tgt))
    .slice(0, limit);
}

/**
 * Whether a token of `text` (offsets `blob`) is `word` case-folded: where the lowercased text
 * keeps the text's length (nearly always), the word's places in it are looked up among the
 * tokens' starts, without cutting every token out.
 */
function holds(text: string, blob: Buffer, word: string): boolean {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return words(text, blob).includes(word);
  const o = offsetsOf(blob);
  for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
    // the tokens' starts ascend: the one starting at `at`, if any, by binary search
    let [lo, hi] = [0, o.length / 2 - 1];
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (o[2 * mid] < at) lo = mid + 1;
      else hi = mid - 1;
    }
    if (lo < o.length / 2 && o[2 * lo] === at && o[2 * lo + 1] === at + word.length) return true;
  }
  return false;
}

function positions(list: string[], word: string): number[] {
  const out: number[] = [];
  list.forEach((w, i) => w === word && out.push(i));
  return out;
}

/**
 * The pairs where both words occur, in pair id order: the first `limit` in full (their
 * tokens, and the links between the two words read for those pairs alone) and how many
 * there are. The candidates are the word index's hits (store/word-index.ts), its stale
 * pairs, and the pairs above what it covers whose texts may hold both words (store/pairs.ts
 * iteratePairRowsHolding, one scan of those texts inside SQLite); each is checked here,
 * except an exact hit past the first `limit`, which is only counted: so the / die (161,542
 * of 1M pairs) reads 200 rows, not all of them.
 */
export function occurrences(
  store: ProjectStore,
  annotator: string,
  src: string,
  tgt: string,
  modelId: number | null,
  limit = Infinity,
): { occurrences: Occurrence[]; total: number } {
  const goldId = goldIdOf(store, annotator);
  const linksOf = pairLinksReader(store);
  const rejectedBy = annotatorsShare(store) ? null : annotator;
  const [ws, wt] = [src.toLowerCase(), tgt.toLowerCase()];
  const out: Occurrence[] = [];
  let total = 0;
  const visit = (r: PairRow, checked: boolean) => {
    if (!checked && (!holds(r.src_text, r.src_tokens, ws) || !holds(r.tgt_text, r.tgt_tokens, wt))) return;
    if (++total > limit) return;
    out.push(occurrenceOf(r));
  };
  const index = wordCandidates(store, ws, wt);
  if (index !== null) {
    // the hits and the stale pairs merged in id order (the hits leave the stale pairs out)
    const { hits, stale, exact } = index;
    const rowOf = pairRowReader(store);
    for (let h = 0, s = 0; h < hits.length || s < stale.length;) {
      const fromStale = s < stale.length && (h >= hits.length || stale[s] < hits[h]);
      const id = fromStale ? stale[s++] : hits[h++];
      const checked = exact && !fromStale;
      if (checked && total >= limit) {
        total++;
        continue;
      }
      const r = rowOf(id);
      if (r) visit(r, checked);
    }
  }
  for (const rows of iteratePairRowsHolding(store, ws, wt, 2000, index?.indexedTo ?? 0)) for (const r of rows) visit(r, false);
  return { occurrences: out, total };

  function occurrenceOf(r: PairRow): Occurrence {
    const srcAt = positions(words(r.src_text, r.src_tokens), ws);
    const tgtAt = positions(words(r.tgt_text, r.tgt_tokens), wt);
    const between = (l: LinkRef) => srcAt.includes(l.s) && tgtAt.includes(l.t);
    return {
      pairId: r.id,
      srcTokens: tokensOf(r.src_text, r.src_tokens, r.id, 'src'),
      tgtTokens: tokensOf(r.tgt_text, r.tgt_tokens, r.id, 'tgt'),
      srcAt,
      tgtAt,
      gold:
        goldId === null
          ? []
          : linksOf(goldId, r.id)
              .filter(between)
              .map(({ s, t }) => ({ s, t })),
      model:
        modelId === null
          ? []
          : linksOf(modelId, r.id)
              .filter(between)
              .map(({ s, t, score }) => ({ s, t, score })),
      rejected: rejectedOfPair(store, r.id, rejectedBy).filter(between),
    };
  }
}

const MATCH_EXACT_UP_TO = 8;

const NO_MODEL_LINK = 'no model link between these occurrences';
const REJECTED_LINK = "the model's link between these occurrences was rejected";

/**
 * The links "Link all" offers in one pair (see the header): the model-supported one-to-one
 * pairing of the occurrences not yet linked in gold, then every pairing of the occurrences
 * left on both sides, unsupported with its reason; and the occurrences left with no partner.
 */
export function linksToAdd(o: Occurrence): { links: BulkLink[]; unmatched: { src: number[]; tgt: number[] } } {
  const rejected = keySet(o.rejected);
  const support = new Map(o.model.filter((l) => !rejected.has(linkKey(l.s, l.t))).map((l) => [linkKey(l.s, l.t), l.score ?? 1]));
  const linked = { src: new Set(o.gold.map((l) => l.s)), tgt: new Set(o.gold.map((l) => l.t)) };
  const src = o.srcAt.filter((s) => !linked.src.has(s));
  const tgt = o.tgtAt.filter((t) => !linked.tgt.has(t));
  const swap = src.length > tgt.length;
  const [few, many] = swap ? [tgt, src] : [src, tgt];
  // A cell costs 1 − the model's posterior (1 where the model does not link it): every
  // matching takes `few.length` cells, so the cheapest maximises the summed posterior of the
  // supported cells it takes; the unsupported cells it is left with are dropped.
  const cost = (a: number, b: number) => 1 - Math.min(1, support.get(swap ? linkKey(b, a) : linkKey(a, b)) ?? 0);
  const pick = few.length <= MATCH_EXACT_UP_TO ? exactMatching(few, many, cost) : greedyMatching(few, many, cost);
  const supported: BulkLink[] = pick
    .map(([a, b]) => (swap ? { s: b, t: a } : { s: a, t: b }))
    .filter((l) => support.has(linkKey(l.s, l.t)))
    .map((l) => ({ ...l, score: support.get(linkKey(l.s, l.t))!, by: 'model' as const }));
  const used = { src: new Set(supported.map((l) => l.s)), tgt: new Set(supported.map((l) => l.t)) };
  const left = { src: src.filter((s) => !used.src.has(s)), tgt: tgt.filter((t) => !used.tgt.has(t)) };
  const review: BulkLink[] = left.src.flatMap((s) =>
    left.tgt.map((t) => ({
      s,
      t,
      score: null,
      by: 'unsupported' as const,
      reason: rejected.has(linkKey(s, t)) ? REJECTED_LINK : NO_MODEL_LINK,
    })),
  );
  const bothLeft = left.src.length > 0 && left.tgt.length > 0;
  return {
    links: [...supported, ...review].sort(compareLinks),
    unmatched: bothLeft ? { src: [], tgt: [] } : left,
  };
}

/**
 * Minimum-cost matching of every `few` to a distinct `many`, by search (few ≤ 8) that prunes a
 * branch once its partial sum reaches the best found (so costs must not be negative); ties
 * keep the earliest choice found.
 */
function exactMatching(few: number[], many: number[], cost: (a: number, b: number) => number): [number, number][] {
  let best: [number, number][] = [];
  let bestCost = Infinity;
  const used = new Array<boolean>(many.length).fill(false);
  const chosen: [number, number][] = [];
  const go = (k: number, sum: number) => {
    if (sum >= bestCost - 1e-12) return;
    if (k === few.length) {
      bestCost = sum;
      best = chosen.slice();
      return;
    }
    for (let j = 0; j < many.length; j++) {
      if (used[j]) continue;
      used[j] = true;
      chosen.push([few[k], many[j]]);
      go(k + 1, sum + cost(few[k], many[j]));
      chosen.pop();
      used[j] = false;
    }
  };
  go(0, 0);
  return best;
}

/** Cheapest cells first, each occurrence used once (for pairs where a word occurs more than 8 times). */
function greedyMatching(few: number[], many: number[], cost: (a: number, b: number) => number): [number, number][] {
  const cells = few.flatMap((a) => many.map((b) => ({ a, b, c: cost(a, b) }))).sort((x, y) => x.c - y.c || x.a - y.a || x.b - y.b);
  const [ua, ub] = [new Set<number>(), new Set<number>()];
  const out: [number, number][] = [];
  for (const { a, b } of cells) {
    if (ua.has(a) || ub.has(b)) continue;
    ua.add(a);
    ub.add(b);
    out.push([a, b]);
  }
  return out;
}

function changeOf(o: Occurrence, action: BulkAction): BulkChange {
  const context = { pairId: o.pairId, srcTokens: o.srcTokens, tgtTokens: o.tgtTokens };
  if (action === 'reject') {
    const done = keySet(o.rejected);
    const links = o.model
      .filter((l) => !done.has(linkKey(l.s, l.t)))
      .map((l) => ({ s: l.s, t: l.t, score: l.score, by: 'model' as const }));
    return { ...context, add: [], remove: links, unmatched: { src: [], tgt: [] } };
  }
  if (action === 'remove')
    return {
      ...context,
      add: [],
      remove: o.gold.map((l) => ({ s: l.s, t: l.t, score: null, by: 'gold' as const })),
      unmatched: { src: [], tgt: [] },
    };
  const { links, unmatched } = linksToAdd(o);
  return { ...context, add: links, remove: [], unmatched };
}

/**
 * The bulk fix's changes (one per pair it touches, each link in context); with `apply`, the
 * links of `keep` (each must be one the preview lists; when absent, every supported link,
 * never an unsupported one) are applied as one edit group, each pair's edit made on what the
 * pair holds when it is written.
 */
export async function bulkFix(
  store: ProjectStore,
  annotator: string,
  src: string,
  tgt: string,
  action: BulkAction,
  apply: boolean,
  modelId: number | null = null,
  keep?: readonly (LinkRef & { pairId: number })[],
): Promise<BulkChange[]> {
  const planned = occurrences(store, annotator, src, tgt, modelId)
    .occurrences.map((o) => changeOf(o, action))
    .filter((c) => c.add.length + c.remove.length + c.unmatched.src.length + c.unmatched.tgt.length > 0);
  if (!apply) return planned;
  const kept = keep && new Set(keep.map((l) => pairLinkKey(l.pairId, l.s, l.t)));
  if (keep) {
    const offered = new Set(planned.flatMap((c) => [...c.add, ...c.remove].map((l) => pairLinkKey(c.pairId, l.s, l.t))));
    const stray = keep.find((l) => !offered.has(pairLinkKey(l.pairId, l.s, l.t)));
    if (stray) throw new UserError(`link ${linkName(stray)} of pair ${stray.pairId} is not one the preview proposed`);
  }
  const only = (pairId: number, links: BulkLink[]) =>
    kept ? links.filter((l) => kept.has(pairLinkKey(pairId, l.s, l.t))) : links.filter((l) => l.by !== 'unsupported');
  const changes = planned
    .map((c) => ({ ...c, add: only(c.pairId, c.add), remove: only(c.pairId, c.remove) }))
    .filter((c) => c.add.length + c.remove.length > 0);
  if (changes.length === 0) return changes;
  const group = groupWriter(store, annotator, 'lexicon.bulk');
  const editOf = action === 'reject' ? (c: BulkChange) => rejectEdit(store, annotator, c) : goldEditor(store, annotator);
  await writeInSlices(store, changes, (c) => group.add(editOf(c)), { onSlice: () => group.checkNotUndone() });
  return changes;
}

/** The edit of a Reject all on one pair: the model's links added to the annotator's rejected links. */
function rejectEdit(store: ProjectStore, annotator: string, c: BulkChange): PairEdit {
  const rejected = rejectedOfPair(store, c.pairId, annotator);
  return { pairId: c.pairId, before: { rejected }, after: { rejected: [...rejected, ...c.remove.map(({ s, t }) => ({ s, t }))] } };
}

/** The gold-layer edit of a Link all / Unlink all on one pair (call inside a write transaction). */
function goldEditor(store: ProjectStore, annotator: string): (c: BulkChange) => PairEdit {
  let gold: number | null = null;
  const current = pairLinksReader(store);
  return (c) => {
    gold ??= goldAlignmentOf(store, annotator);
    const key = String(gold);
    const before = current(gold, c.pairId);
    const removed = keySet(c.remove);
    const after: Link[] = sortedLinks([
      ...before.filter((l) => !removed.has(linkKey(l.s, l.t))),
      ...c.add.map((l) => ({ s: l.s, t: l.t, kind: 'sure' as const, score: null })),
    ]);
    return { pairId: c.pairId, before: { links: { [key]: before } }, after: { links: { [key]: after } } };
  };
}
