// Link identity and the link sets every part of Mekong computes with, for the Node side and
// the renderer alike: the link types, the one key of a link, the one merge rule of two
// links of one cell, the three-way merge of concurrent edits of one layer, a pair's links as a set (union, minus the rejected, plus the gold) and
// its views: sorted links, the Pharaoh line, and the AER scorer's sure and possible sets.
//
// Key: linkKey(s, t) = s · 2^26 + t, a number, so that hot loops keep sets and maps of
// numbers. It is exact (distinct for distinct links, below 2^53) for t < 2^26 = 67,108,864
// and s < 2^27, and keys sort as links do (by s, then t). A side has at most as many tokens
// as UTF-16 units and at most as many units as UTF-8 bytes, so every side an import accepts
// with its default line limit (corpus/input.ts MAX_LINE_BYTES, 64 MiB = 2^26 bytes) is
// within the bound; a --max-line-bytes above 64 MiB lifts that guarantee.

export type LinkKind = 'sure' | 'possible';

/** Which cell a link is: `s` indexes the source tokens, `t` the target tokens (0-based). */
export interface LinkRef {
  s: number;
  t: number;
}

/** A word link: its cell, its kind, and the score and tag it carries. */
export interface Link extends LinkRef {
  kind: LinkKind;
  /** Posterior probability or model confidence in [0, 1]; null for human links. */
  score: number | null;
  /** The link's type from the project's tag set (GALE-style: semantic, function, …); absent when untagged. */
  tag?: string;
}

/** A link a reviewer rejected (never suggested again for its pair), with who rejected it. */
export interface RejectedLink extends LinkRef {
  annotator: string;
}

/** Links split by kind as [s, t] index pairs: the view the AER scorer and the trainers' gold take. */
export interface AlignedPair {
  sure: [number, number][];
  possible: [number, number][];
}

/** Per pair of a corpus (in corpus order), its links; undefined where none were given. */
export type CorpusLinks = readonly (readonly LinkRef[] | undefined)[];

/** One more than the largest target index a key holds exactly (see the header). */
export const LINK_KEY_BASE = 2 ** 26;

/** The key of cell (s, t): one number per cell, ordered as (s, t). */
export function linkKey(s: number, t: number): number {
  return s * LINK_KEY_BASE + t;
}

/** The cell of a key (linkKey's inverse). */
export function linkOfKey(key: number): LinkRef {
  const s = Math.floor(key / LINK_KEY_BASE);
  return { s, t: key - s * LINK_KEY_BASE };
}

/** The key of cell (s, t) of pair `pairId`, for sets that span pairs (a bulk fix's links). */
export function pairLinkKey(pairId: number, s: number, t: number): string {
  return `${pairId}:${linkKey(s, t)}`;
}

/** The keys of `links`' cells. */
export function keySet(links: Iterable<LinkRef>): Set<number> {
  const out = new Set<number>();
  for (const l of links) out.add(linkKey(l.s, l.t));
  return out;
}

/** The keys of cells given as [s, t] index pairs. */
export function pairKeySet(cells: Iterable<readonly [number, number]>): Set<number> {
  const out = new Set<number>();
  for (const [s, t] of cells) out.add(linkKey(s, t));
  return out;
}

/** Order of links by source, then target index. */
export function compareLinks(a: LinkRef, b: LinkRef): number {
  return a.s - b.s || a.t - b.t;
}

/** A copy of `links` sorted by (s, t). */
export function sortedLinks<L extends LinkRef>(links: readonly L[]): L[] {
  return [...links].sort(compareLinks);
}

/**
 * A three-way merge of one layer of one pair, cell by cell: the changes from `base` to `next`
 * (cells added, removed or changed) applied to `current`, every other cell left as `current`
 * has it. Two people who edit one shared layer from the same start thus both keep their
 * edits; where both changed the same cell, `next` (the later write) wins. `key` names a cell
 * (linkKey for links); values are compared as JSON, so give them in one normal form.
 */
export function rebaseCells<T>(current: readonly T[], base: readonly T[], next: readonly T[], key: (x: T) => number | string): T[] {
  const out = new Map(current.map((x) => [key(x), x]));
  const before = new Map(base.map((x) => [key(x), x]));
  const after = new Map(next.map((x) => [key(x), x]));
  for (const k of before.keys()) if (!after.has(k)) out.delete(k);
  for (const [k, x] of after) if (JSON.stringify(before.get(k)) !== JSON.stringify(x)) out.set(k, x);
  return [...out.values()];
}

/** A link as messages and element attributes name it: Pharaoh's `i-j`, indices from `base`. */
export function linkName(l: LinkRef, base: 0 | 1 = 0): string {
  return `${l.s + base}-${l.t + base}`;
}

/**
 * Two links of one cell as one: sure beats possible, the higher score wins (null only when
 * both are null), the first link's tag is kept (the second's when the first has none).
 */
function mergeLinks(first: Link, second: Link): Link {
  const tag = first.tag ?? second.tag;
  return {
    s: first.s,
    t: first.t,
    kind: first.kind === 'sure' || second.kind === 'sure' ? 'sure' : 'possible',
    score: first.score === null ? second.score : second.score === null ? first.score : Math.max(first.score, second.score),
    ...(tag !== undefined ? { tag } : {}),
  };
}

/** Score a gold link carries in a model's output: certain. */
export const GOLD_SCORE = 1;

/**
 * One pair's links, one per cell, in the order their cells were first added. Adding a link
 * to a cell that has one merges them (mergeLinks), so building a set from several
 * alignments is their union with sure beating possible.
 */
export class LinkSet {
  private readonly byKey = new Map<number, Link>();

  constructor(links: Iterable<Link> = []) {
    for (const l of links) this.add(l);
  }

  /** The union of several link lists (mergeLinks where they share a cell). */
  static union(lists: Iterable<Iterable<Link>>): LinkSet {
    const set = new LinkSet();
    for (const links of lists) for (const l of links) set.add(l);
    return set;
  }

  get size(): number {
    return this.byKey.size;
  }

  has(s: number, t: number): boolean {
    return this.byKey.has(linkKey(s, t));
  }

  get(s: number, t: number): Link | undefined {
    return this.byKey.get(linkKey(s, t));
  }

  /** Adds `link`, merged with the cell's link if it has one. */
  add(link: Link): this {
    const key = linkKey(link.s, link.t);
    const old = this.byKey.get(key);
    this.byKey.set(key, old === undefined ? link : mergeLinks(old, link));
    return this;
  }

  /** Removes the links at the cells a reviewer rejected. */
  minusRejected(rejected: Iterable<LinkRef>): this {
    for (const r of rejected) this.byKey.delete(linkKey(r.s, r.t));
    return this;
  }

  /**
   * Puts every gold link in its cell, replacing what was there: the gold's kind and tag with
   * GOLD_SCORE (a cell given twice in `gold` is sure if either is). The gold is kept even
   * where a link was rejected, so apply minusRejected first.
   */
  plusGold(gold: Iterable<Link>): this {
    for (const g of new LinkSet(gold).links()) this.byKey.set(linkKey(g.s, g.t), { ...g, score: GOLD_SCORE });
    return this;
  }

  /** The links in the order their cells were first added. */
  links(): Link[] {
    return [...this.byKey.values()];
  }

  /** The links sorted by (s, t). */
  sorted(): Link[] {
    return this.links().sort(compareLinks);
  }

  /** The AER view: the cells split by kind, sorted by (s, t). */
  aligned(): AlignedPair {
    return alignedPair(this.sorted());
  }

  /** The Pharaoh line of the sorted links (pharaohLine). */
  pharaoh(o: PharaohLineOptions = {}): string {
    return pharaohLine(this.sorted(), o);
  }
}

/** `links` split by kind, the AER scorer's view of a gold pair (in the order given). */
export function alignedPair(links: readonly Link[]): AlignedPair {
  const out: AlignedPair = { sure: [], possible: [] };
  for (const l of links) (l.kind === 'sure' ? out.sure : out.possible).push([l.s, l.t]);
  return out;
}

/** The cells of an AER view as plain links, sure ones first. */
export function alignedRefs(g: AlignedPair): LinkRef[] {
  return [...g.sure, ...g.possible].map(([s, t]) => ({ s, t }));
}

/** The AER view of a gold pair as key sets: sure cells S and possible cells P ⊇ S (Och & Ney). */
export function aerKeySets(g: AlignedPair): { sure: Set<number>; possible: Set<number> } {
  const sure = pairKeySet(g.sure);
  const possible = new Set(sure);
  for (const [s, t] of g.possible) possible.add(linkKey(s, t));
  return { sure, possible };
}

export interface PharaohLineOptions {
  /** Index base to write (default 0). */
  base?: 0 | 1;
  /** Mark for possible links: `i?j` (default) or `ipj`. */
  possible?: '?' | 'p';
  /** Append `:score` to links that have one (default false). */
  scores?: boolean;
  /** Decimals of a written score (default: the shortest form that reads back exactly). */
  scoreDigits?: number;
}

/** One Pharaoh line (no newline) of `links` in the order given: `i-j` sure, `i?j` possible, optionally `:score`. */
export function pharaohLine(links: readonly Link[], o: PharaohLineOptions = {}): string {
  const base = o.base ?? 0;
  const mark = { sure: '-', possible: o.possible ?? '?' };
  const score = (x: number) => (o.scoreDigits === undefined ? String(x) : x.toFixed(o.scoreDigits));
  return links.map((l) => `${l.s + base}${mark[l.kind]}${l.t + base}${o.scores && l.score !== null ? `:${score(l.score)}` : ''}`).join(' ');
}
