// Pure operations of the adjudication view: the rows of two annotators' links of one pair
// (each link of either, with what the other did there), and the merges an adjudicator
// starts from — one annotator's layer, what both agreed on, or the classic merge of two
// annotations (Och & Ney 2003: links of both are sure when both said sure, a link of only
// one is possible).
import { compareLinks, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import type { GoldLayer, Mark } from './link-ops.ts';

export interface AdjudicationRow extends LinkRef {
  left: Link | null;
  right: Link | null;
  /** Both linked the cell the same way (kind and tag). */
  agreed: boolean;
}

export type Merge = 'left' | 'right' | 'agreed' | 'combined';

const markKey = (m: Mark) => `${m.side}:${m.index}`;

export function adjudicationRows(left: readonly Link[], right: readonly Link[]): AdjudicationRow[] {
  const rows = new Map<number, AdjudicationRow>();
  for (const l of left) rows.set(linkKey(l.s, l.t), { s: l.s, t: l.t, left: l, right: null, agreed: false });
  for (const r of right) {
    const row = rows.get(linkKey(r.s, r.t)) ?? { s: r.s, t: r.t, left: null, right: null, agreed: false };
    row.right = r;
    rows.set(linkKey(r.s, r.t), row);
  }
  for (const row of rows.values())
    row.agreed = row.left !== null && row.right !== null && row.left.kind === row.right.kind && row.left.tag === row.right.tag;
  return [...rows.values()].sort(compareLinks);
}

/** A human link: the kind and tag given, no score. */
function human(s: number, t: number, kind: Link['kind'], tag: string | undefined): Link {
  return tag === undefined ? { s, t, kind, score: null } : { s, t, kind, score: null, tag };
}

export function mergeLayers(left: GoldLayer, right: GoldLayer, how: Merge): GoldLayer {
  if (how === 'left' || how === 'right') {
    const from = how === 'left' ? left : right;
    return { links: from.links.map((l) => human(l.s, l.t, l.kind, l.tag)), untranslated: [...from.untranslated] };
  }
  const rightMarks = new Set(right.untranslated.map(markKey));
  const untranslated = left.untranslated.filter((m) => rightMarks.has(markKey(m)));
  const links: Link[] = [];
  for (const row of adjudicationRows(left.links, right.links)) {
    const { left: a, right: b } = row;
    if (a && b)
      links.push(human(row.s, row.t, a.kind === 'sure' && b.kind === 'sure' ? 'sure' : 'possible', a.tag === b.tag ? a.tag : undefined));
    else if (how === 'combined') links.push(human(row.s, row.t, 'possible', (a ?? b)?.tag));
  }
  return { links, untranslated };
}
