// The project's lexicon and its concordance: every (source word, target word) pair linked
// somewhere, counted over the annotator's gold links and one model alignment's links; every
// pair where both words occur, with the links between them; and the bulk fix, which links
// (or unlinks) the two words in all those pairs as one edit group (one undo reverses it all),
// written in short transactions (store/bounded-writes.ts) so that other edits go on meanwhile.
// Words are compared case-folded (toLowerCase).
//
// "Link all" pairs the occurrences of the two words one to one in each pair: a minimum-cost
// matching where a cell's cost is the distance of its relative positions |s/ns − t/nt| minus
// the model's posterior for the link (so a confident model link wins, and position decides
// among the rest); occurrences already linked to each other in gold are matched already, and
// those left over (unequal counts) stay unlinked and are listed. The preview lists every
// link in context; applying takes the links the user kept.
import type { BulkChange, BulkLink, LexiconEntry, Occurrence } from '../../shared/editor-api.ts';
import { compareLinks, keySet, linkKey, linkName, pairLinkKey, sortedLinks, type Link, type LinkRef } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import {
  goldAlignmentOf,
  newestModelAlignment,
  pairLinksReader,
  rejectedOfPair,
  scoredLinksByPair,
  type ScoredLink,
} from '../store/alignments.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { annotatorsShare } from '../store/annotation-mode.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { groupWriter, type PairEdit } from '../store/edits.ts';
import { goldIdOf } from '../store/gold-layer.ts';
import { iteratePairRows, offsetsOf, tokensOf, type PairRow } from '../store/pairs.ts';

type BulkAction = 'add' | 'remove' | 'reject';

function words(text: string, blob: Buffer): string[] {
  const o = offsetsOf(blob);
  const out = new Array<string>(o.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = text.slice(o[2 * i], o[2 * i + 1]).toLowerCase();
  return out;
}

/** The newest model alignment, when none is chosen. */
export const defaultModelId = newestModelAlignment;

function linkMap(store: ProjectStore, alignmentId: number | null): Map<number, ScoredLink[]> {
  return alignmentId === null ? new Map() : scoredLinksByPair(store, alignmentId);
}

function visitPairs(store: ProjectStore, visit: (row: PairRow, src: string[], tgt: string[]) => void): void {
  for (const rows of iteratePairRows(store, {}, 2000))
    for (const r of rows) visit(r, words(r.src_text, r.src_tokens), words(r.tgt_text, r.tgt_tokens));
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
    count(src, tgt, model.get(r.id), 'model');
  });
  const q = text.toLowerCase();
  return [...counts.values()]
    .filter((e) => !q || e.src.includes(q) || e.tgt.includes(q))
    .sort((a, b) => b.gold + b.model - (a.gold + a.model) || b.gold - a.gold || a.src.localeCompare(b.src) || a.tgt.localeCompare(b.tgt))
    .slice(0, limit);
}

function positions(list: string[], word: string): number[] {
  const out: number[] = [];
  list.forEach((w, i) => w === word && out.push(i));
  return out;
}

/** Every pair where both words occur, in pair id order. */
export function occurrences(store: ProjectStore, annotator: string, src: string, tgt: string, modelId: number | null): Occurrence[] {
  const gold = linkMap(store, goldIdOf(store, annotator));
  const model = linkMap(store, modelId);
  const share = annotatorsShare(store);
  const [ws, wt] = [src.toLowerCase(), tgt.toLowerCase()];
  const out: Occurrence[] = [];
  visitPairs(store, (r, s, t) => {
    const srcAt = positions(s, ws),
      tgtAt = positions(t, wt);
    if (!srcAt.length || !tgtAt.length) return;
    const between = (l: LinkRef) => srcAt.includes(l.s) && tgtAt.includes(l.t);
    out.push({
      pairId: r.id,
      srcTokens: tokensOf(r.src_text, r.src_tokens, r.id, 'src'),
      tgtTokens: tokensOf(r.tgt_text, r.tgt_tokens, r.id, 'tgt'),
      srcAt,
      tgtAt,
      gold: (gold.get(r.id) ?? []).filter(between).map(({ s, t }) => ({ s, t })),
      model: (model.get(r.id) ?? []).filter(between).map(({ s, t, score }) => ({ s, t, score })),
      rejected: rejectedOfPair(store, r.id, share ? null : annotator).filter(between),
    });
  });
  return out;
}

const MATCH_EXACT_UP_TO = 8;

/**
 * The links "Link all" adds in one pair: the occurrences matched one to one (see the header),
 * and the occurrences left without a partner.
 */
export function linksToAdd(o: Occurrence): { links: BulkLink[]; unmatched: { src: number[]; tgt: number[] } } {
  const ns = o.srcTokens.length,
    nt = o.tgtTokens.length;
  const score = new Map(o.model.map((l) => [linkKey(l.s, l.t), l.score ?? 1]));
  const cost = (s: number, t: number) => Math.abs(s / Math.max(1, ns) - t / Math.max(1, nt)) - (score.get(linkKey(s, t)) ?? 0);
  const linked = { src: new Set(o.gold.map((l) => l.s)), tgt: new Set(o.gold.map((l) => l.t)) };
  const src = o.srcAt.filter((s) => !linked.src.has(s));
  const tgt = o.tgtAt.filter((t) => !linked.tgt.has(t));
  const swap = src.length > tgt.length;
  const [few, many] = swap ? [tgt, src] : [src, tgt];
  const c = (a: number, b: number) => (swap ? cost(b, a) : cost(a, b));
  const pick = few.length <= MATCH_EXACT_UP_TO ? exactMatching(few, many, c) : greedyMatching(few, many, c);
  const links = pick
    .map(([a, b]) => {
      const [s, t] = swap ? [b, a] : [a, b];
      const p = score.get(linkKey(s, t));
      return { s, t, score: p ?? null, by: p === undefined ? ('position' as const) : ('model' as const) };
    })
    .sort(compareLinks);
  const used = { src: new Set(links.map((l) => l.s)), tgt: new Set(links.map((l) => l.t)) };
  return { links, unmatched: { src: src.filter((s) => !used.src.has(s)), tgt: tgt.filter((t) => !used.tgt.has(t)) } };
}

/** Minimum-cost matching of every `few` to a distinct `many`, by search (few ≤ 8); ties keep the earliest, non-crossing choice. */
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
 * links of `keep` (all when absent; each must be one the preview proposes) are applied as one
 * edit group, each pair's edit made on what the pair holds when it is written.
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
    .map((o) => changeOf(o, action))
    .filter((c) => c.add.length + c.remove.length + c.unmatched.src.length + c.unmatched.tgt.length > 0);
  if (!apply) return planned;
  const kept = keep && new Set(keep.map((l) => pairLinkKey(l.pairId, l.s, l.t)));
  if (keep) {
    const offered = new Set(planned.flatMap((c) => [...c.add, ...c.remove].map((l) => pairLinkKey(c.pairId, l.s, l.t))));
    const stray = keep.find((l) => !offered.has(pairLinkKey(l.pairId, l.s, l.t)));
    if (stray) throw new UserError(`link ${linkName(stray)} of pair ${stray.pairId} is not one the preview proposed`);
  }
  const only = (pairId: number, links: BulkLink[]) => (kept ? links.filter((l) => kept.has(pairLinkKey(pairId, l.s, l.t))) : links);
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
