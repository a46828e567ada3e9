// The gold edits of one pair that the server has not committed yet, held as the state the
// linguist intends for each link (the link as it should be, or null: no link there) and for
// each "not translated" mark (set or not) — never as toggles. The editor draws the layer
// with these intentions applied (a pending link dashed), sends the whole intended layer,
// and forgets an intention once the server's layer agrees with it. An edit that brings a
// link back to what the server holds (a second click on a pending link) removes the
// intention locally: nothing is queued for it.
import { linkKey, type Link } from '../../../shared/link-set.ts';
import type { GoldLayer, Mark } from './link-ops.ts';

export interface PendingGold {
  pairId: number;
  /** By link key: the link as it should be, or null when there should be none. */
  links: ReadonlyMap<number, Link | null>;
  /** By "side:index": whether the token should be marked "not translated". */
  marks: ReadonlyMap<string, boolean>;
}

const markKey = (m: Mark) => `${m.side}:${m.index}`;

function markOf(key: string): Mark {
  const [side, index] = key.split(':');
  return { side: side === 'tgt' ? 'tgt' : 'src', index: Number(index) };
}

/** Whether two states of one cell are the same for the linguist (no link, or the same kind and tag). */
function sameLink(a: Link | null | undefined, b: Link | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.kind === b.kind && (a.tag ?? null) === (b.tag ?? null);
}

const byKey = (links: readonly Link[]) => new Map(links.map((l) => [linkKey(l.s, l.t), l]));

export function noPending(pairId: number): PendingGold {
  return { pairId, links: new Map(), marks: new Map() };
}

export function pendingCount(p: PendingGold | null): number {
  return p ? p.links.size + p.marks.size : 0;
}

/** The server's layer with the intentions applied: what the linguist sees and what is sent. */
export function withPending(base: GoldLayer, p: PendingGold | null): GoldLayer {
  if (!p || pendingCount(p) === 0) return base;
  const links = base.links.filter((l) => !p.links.has(linkKey(l.s, l.t)));
  for (const l of p.links.values()) if (l) links.push(l);
  const marks = base.untranslated.filter((m) => !p.marks.has(markKey(m)));
  for (const [key, on] of p.marks) if (on) marks.push(markOf(key));
  return { links, untranslated: marks };
}

/**
 * Records an edit the linguist made on the layer they saw (`before` → `after`) as
 * intentions over the server's layer `base`; an intention equal to what `base` holds is
 * dropped (the edit undid a pending one).
 */
export function recordPending(p: PendingGold, base: GoldLayer, before: GoldLayer, after: GoldLayer): PendingGold {
  const links = new Map(p.links);
  const was = byKey(before.links);
  const now = byKey(after.links);
  const server = byKey(base.links);
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const next = now.get(key) ?? null;
    if (sameLink(was.get(key), next)) continue;
    if (sameLink(server.get(key), next)) links.delete(key);
    else links.set(key, next);
  }
  const marks = new Map(p.marks);
  const wasMarked = new Set(before.untranslated.map(markKey));
  const nowMarked = new Set(after.untranslated.map(markKey));
  const serverMarked = new Set(base.untranslated.map(markKey));
  for (const key of new Set([...wasMarked, ...nowMarked])) {
    const on = nowMarked.has(key);
    if (wasMarked.has(key) === on) continue;
    if (serverMarked.has(key) === on) marks.delete(key);
    else marks.set(key, on);
  }
  return { pairId: p.pairId, links, marks };
}

/** The intentions the server's layer `base` does not hold yet (those it holds are done). */
export function stillPending(p: PendingGold, base: GoldLayer): PendingGold {
  const server = byKey(base.links);
  const serverMarked = new Set(base.untranslated.map(markKey));
  return {
    pairId: p.pairId,
    links: new Map([...p.links].filter(([key, l]) => !sameLink(server.get(key), l))),
    marks: new Map([...p.marks].filter(([key, on]) => serverMarked.has(key) !== on)),
  };
}

/** The link keys whose state is pending (drawn dashed, as not yet saved). */
export function pendingKeys(p: PendingGold | null): Set<number> {
  return new Set(p?.links.keys());
}
