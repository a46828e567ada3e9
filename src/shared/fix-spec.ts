// The spec of a segmentation fix made in the editor, as 'tokens.bulkFix' takes it: made from
// the tokens before the merge or split (the editor's offer, and the main side recording it as
// a pending fix, store/segmentation-offers.ts), and one canonical key per fix.
import type { Token } from './domain.ts';
import type { SegmentationFixSpec } from './editor-api.ts';

/** The spec of merging tokens `index` and `index + 1`: their texts, and whether whitespace was between them. */
export function mergeSpec(tokens: readonly Token[], index: number): SegmentationFixSpec | null {
  const [a, b] = [tokens[index], tokens[index + 1]];
  if (!a || !b) return null;
  return { kind: 'merge', left: a.text, right: b.text, spaced: a.end !== b.start };
}

/** The spec of splitting token `index` at character `at`. */
export function splitSpec(tokens: readonly Token[], index: number, at: number): SegmentationFixSpec | null {
  const t = tokens[index];
  return t && at > 0 && at < t.text.length ? { kind: 'split', word: t.text, at } : null;
}

/** The fix as JSON with its fields in one order: two equal fixes have one key. */
export function fixKey(fix: SegmentationFixSpec): string {
  return JSON.stringify(fix.kind === 'merge' ? [fix.kind, fix.left, fix.right, fix.spaced === true] : [fix.kind, fix.word, fix.at]);
}

/** The fix a key stands for (fixKey's inverse). */
export function fixOfKey(key: string): SegmentationFixSpec {
  const [kind, a, b, c] = JSON.parse(key) as [string, string, string | number, boolean | undefined];
  return kind === 'merge' ? { kind, left: a, right: String(b), spaced: c === true } : { kind: 'split', word: a, at: Number(b) };
}
