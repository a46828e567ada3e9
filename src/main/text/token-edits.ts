// Token edits a linguist makes in the editor, as pure functions the store calls: split one
// token in two, merge two neighbours, and re-index the links of an alignment to match.
// Index conventions: `index` is the 0-based token index on the edited side; a split turns
// token i into i and i+1 and shifts every later token up by one; a merge turns i and i+1
// into i and shifts every later token down by one. Links of the edited token go to the
// merged token (merge); on a split, a human link goes to both halves (the linguist linked
// the whole word) and a model's link to neither: which half the model meant is not known,
// and a copy on both halves would be a guess. Links that then coincide on (s, t) are
// merged: sure beats possible, the score is the larger one (null only when both are null):
// link-set.ts's merge rule. Link lists come back sorted by (s, t).
import type { Token } from '../../shared/domain.ts';
import { LinkSet, type Link } from '../../shared/link-set.ts';

/** The side of a pair a token edit is on: source tokens (link.s) or target tokens (link.t). */
export type LinkSide = 'src' | 'tgt';

function checkIndex(tokens: readonly Token[], index: number, last: number): void {
  if (!Number.isInteger(index) || index < 0 || index > last) {
    throw new RangeError(`token index ${index} out of range 0..${last}`);
  }
}

/** Splits token `index` at char offset `at` inside it (0 < at < its length). */
export function splitToken(tokens: readonly Token[], index: number, at: number): Token[] {
  checkIndex(tokens, index, tokens.length - 1);
  const tok = tokens[index];
  if (!Number.isInteger(at) || at <= 0 || at >= tok.text.length) {
    throw new RangeError(`split offset ${at} outside token "${tok.text}"`);
  }
  const code = tok.text.charCodeAt(at - 1);
  if (code >= 0xd800 && code <= 0xdbff) throw new RangeError(`split offset ${at} inside a surrogate pair`);
  const left: Token = { text: tok.text.slice(0, at), start: tok.start, end: tok.start + at };
  const right: Token = { text: tok.text.slice(at), start: tok.start + at, end: tok.end };
  return [...tokens.slice(0, index), left, right, ...tokens.slice(index + 1)];
}

/**
 * Merges tokens `index` and `index + 1`. When they are not adjacent, the merged token spans
 * the gap between them, so `text` (the sentence) is needed to keep token.text exact.
 */
export function mergeTokens(tokens: readonly Token[], index: number, text?: string): Token[] {
  checkIndex(tokens, index, tokens.length - 2);
  const [a, b] = [tokens[index], tokens[index + 1]];
  let merged: string;
  if (a.end === b.start) merged = a.text + b.text;
  else if (text !== undefined) merged = text.slice(a.start, b.end);
  else throw new Error(`tokens "${a.text}" and "${b.text}" are not adjacent: the sentence text is needed`);
  const token: Token = { text: merged, start: a.start, end: b.end };
  return [...tokens.slice(0, index), token, ...tokens.slice(index + 2)];
}

function moved(link: Link, side: LinkSide, index: number): Link {
  return side === 'src' ? { ...link, s: index } : { ...link, t: index };
}

function indexOn(link: Link, side: LinkSide): number {
  return side === 'src' ? link.s : link.t;
}

/**
 * Links after token `index` of `side` was split into `index` and `index + 1`; the split
 * token's own links go to both halves, or (`halves: 'neither'`, a model's links) are dropped.
 */
export function reindexLinksAfterSplit(links: readonly Link[], side: LinkSide, index: number, halves: 'both' | 'neither' = 'both'): Link[] {
  const out: Link[] = [];
  for (const l of links) {
    const i = indexOn(l, side);
    if (i < index) out.push({ ...l });
    else if (i > index) out.push(moved(l, side, i + 1));
    else if (halves === 'both') out.push(moved(l, side, index), moved(l, side, index + 1));
  }
  return new LinkSet(out).sorted();
}

/** Links after tokens `index` and `index + 1` of `side` were merged into `index`. */
export function reindexLinksAfterMerge(links: readonly Link[], side: LinkSide, index: number): Link[] {
  const out = links.map((l) => {
    const i = indexOn(l, side);
    return i <= index ? { ...l } : moved(l, side, i === index + 1 ? index : i - 1);
  });
  return new LinkSet(out).sorted();
}
