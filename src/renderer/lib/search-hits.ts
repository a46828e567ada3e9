// Which tokens of a sentence a text search hit: every token overlapping an occurrence of
// the query in the sentence's text (tokens carry offsets into that text), so a search
// for a word the segmenter split still lights up all its pieces.
import type { Token } from '../../shared/domain.ts';

export function tokensHit(text: string, tokens: readonly Token[], query: string): Set<number> {
  const hits = new Set<number>();
  if (!query) return hits;
  for (let at = text.indexOf(query); at >= 0; at = text.indexOf(query, at + 1)) {
    const end = at + query.length;
    tokens.forEach((t, i) => {
      if (t.start < end && t.end > at) hits.add(i);
    });
  }
  return hits;
}
