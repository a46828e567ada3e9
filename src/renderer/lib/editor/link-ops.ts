// Pure operations on an annotator's gold layer (links plus "not translated" marks), as
// the editor's commands compute the next layer from the current one. Links stay unique
// per (s, t); a token marked "not translated" has no links, so linking it clears the mark.
import { keySet, linkKey, type Link, type LinkKind, type LinkRef } from '../../../shared/link-set.ts';
import type { TokenSide } from '../../../shared/editor-api.ts';

export interface Mark {
  side: TokenSide;
  index: number;
}

export interface GoldLayer {
  links: Link[];
  untranslated: Mark[];
}

function unmark(marks: readonly Mark[], sources: readonly number[], targets: readonly number[]): Mark[] {
  return marks.filter((m) => !(m.side === 'src' ? sources : targets).includes(m.index));
}

/** Links every source to every target; when all those links exist already, removes them instead. */
export function toggleLinks(layer: GoldLayer, sources: readonly number[], targets: readonly number[], kind: LinkKind = 'sure'): GoldLayer {
  const cells = sources.flatMap((s) => targets.map((t) => ({ s, t })));
  if (cells.length === 0) return layer;
  const linked = keySet(layer.links);
  if (cells.every((c) => linked.has(linkKey(c.s, c.t)))) return removeLinks(layer, cells);
  const added = cells.filter((c) => !linked.has(linkKey(c.s, c.t))).map((c) => ({ ...c, kind, score: null }));
  return { links: [...layer.links, ...added], untranslated: unmark(layer.untranslated, sources, targets) };
}

/** Adds links (accepting suggestions), keeping existing ones as they are; a cell given twice is added once (the first). */
export function addLinks(layer: GoldLayer, links: readonly (LinkRef & { kind?: LinkKind })[]): GoldLayer {
  const added: Link[] = [];
  const linked = keySet(layer.links);
  for (const l of links) {
    if (linked.has(linkKey(l.s, l.t))) continue;
    linked.add(linkKey(l.s, l.t));
    added.push({ s: l.s, t: l.t, kind: l.kind ?? 'sure', score: null });
  }
  return {
    links: [...layer.links, ...added],
    untranslated: unmark(
      layer.untranslated,
      added.map((l) => l.s),
      added.map((l) => l.t),
    ),
  };
}

/** The gold links a selection touches: links of one token, or the one link of a cell. */
export function linksAt(links: readonly Link[], side: TokenSide | 'cell', index: number, t = -1): Link[] {
  if (side === 'cell') return links.filter((l) => l.s === index && l.t === t);
  return links.filter((l) => (side === 'src' ? l.s : l.t) === index);
}

/** Flips sure ↔ possible on the given links (all to possible unless all are possible already). */
export function toggleKind(layer: GoldLayer, targets: readonly Link[]): GoldLayer {
  if (targets.length === 0) return layer;
  const kind: LinkKind = targets.every((l) => l.kind === 'possible') ? 'sure' : 'possible';
  const at = keySet(targets);
  return { ...layer, links: layer.links.map((l) => (at.has(linkKey(l.s, l.t)) ? { ...l, kind } : l)) };
}

function withTag(l: Link, tag: string | null): Link {
  const { tag: _old, ...rest } = l;
  return tag === null ? rest : { ...rest, tag };
}

/** Sets `tag` on the given links (when all carry it already, clears it instead); null clears the tag. */
export function toggleTag(layer: GoldLayer, targets: readonly Link[], tag: string | null): GoldLayer {
  if (targets.length === 0) return layer;
  const next = tag !== null && targets.every((l) => l.tag === tag) ? null : tag;
  const at = keySet(targets);
  return { ...layer, links: layer.links.map((l) => (at.has(linkKey(l.s, l.t)) ? withTag(l, next) : l)) };
}

export function removeLinks(layer: GoldLayer, targets: readonly LinkRef[]): GoldLayer {
  const at = keySet(targets);
  return { ...layer, links: layer.links.filter((l) => !at.has(linkKey(l.s, l.t))) };
}

/** Marks a token "not translated" (dropping its links), or clears the mark. */
export function toggleUntranslated(layer: GoldLayer, side: TokenSide, index: number): GoldLayer {
  const marked = layer.untranslated.some((m) => m.side === side && m.index === index);
  if (marked) return { ...layer, untranslated: layer.untranslated.filter((m) => !(m.side === side && m.index === index)) };
  return {
    links: layer.links.filter((l) => (side === 'src' ? l.s : l.t) !== index),
    untranslated: [...layer.untranslated, { side, index }],
  };
}
