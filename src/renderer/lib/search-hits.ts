// Where a text search hit a sentence's tokens: each token's text cut into pieces, the
// pieces inside an occurrence of the query marked (tokens carry offsets into the sentence,
// so a search for a word the segmenter split marks the part in each of its pieces). The
// occurrences are found as the store's search finds them (shared/search-fold.ts): any
// case, accents, spacing.
import type { Token } from '../../shared/domain.ts';

export interface Piece {
  text: string;
  hit: boolean;
}

/** A token's text in pieces, cut where the search's hits (offsets into the sentence) start and end. */
export function tokenPieces(text: string, token: Token, hits: readonly (readonly [number, number])[]): Piece[] {
  const over = hits.filter(([a, b]) => a < token.end && b > token.start);
  if (over.length === 0) return [{ text: token.text, hit: false }];
  // A token whose text is not the sentence's slice (never expected) is marked whole.
  if (text.slice(token.start, token.end) !== token.text) return [{ text: token.text, hit: true }];
  const pieces: Piece[] = [];
  let at = token.start;
  for (const [a, b] of over) {
    const from = Math.max(a, at);
    const to = Math.min(b, token.end);
    if (from > at) pieces.push({ text: text.slice(at, from), hit: false });
    if (to > from) pieces.push({ text: text.slice(from, to), hit: true });
    at = Math.max(at, to);
  }
  if (at < token.end) pieces.push({ text: text.slice(at, token.end), hit: false });
  return pieces;
}
