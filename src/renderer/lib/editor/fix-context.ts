// The renderer's side of applying a segmentation fix corpus-wide ('tokens.bulkFix'): how a
// fix is named, and an occurrence's context as the preview shows it: a few tokens either side
// of the tokens the fix changes. The fix spec itself is made by shared/fix-spec.ts.
import type { SegmentationFixSpec, TokenFixOccurrence } from '../../../shared/editor-api.ts';

/** How the preview names a fix: "sinh + viên → sinh viên", "ประจำ → ประ | จำ". */
export function fixLabel(fix: SegmentationFixSpec): string {
  if (fix.kind === 'merge') return `${fix.left} + ${fix.right} → ${fix.left}${fix.spaced ? ' ' : ''}${fix.right}`;
  return `${fix.word} → ${fix.word.slice(0, fix.at)} | ${fix.word.slice(fix.at)}`;
}

/** An occurrence in context: up to `around` tokens before and after the ones the fix changes, tokens shown apart. */
export function occurrenceContext(
  o: TokenFixOccurrence,
  fix: SegmentationFixSpec,
  around = 4,
): { before: string; match: string; after: string } {
  const count = fix.kind === 'merge' ? 2 : 1;
  const text = (from: number, to: number) =>
    o.tokens
      .slice(Math.max(0, from), Math.max(0, to))
      .map((t) => t.text)
      .join(' ');
  const end = o.index + count;
  return {
    before: (o.index > around ? '… ' : '') + text(o.index - around, o.index),
    match: text(o.index, end),
    after: text(end, end + around) + (end + around < o.tokens.length ? ' …' : ''),
  };
}

/** The key of an occurrence in the preview's kept set. */
export const occurrenceKey = (o: { pairId: number; index: number }): string => `${o.pairId}:${o.index}`;
