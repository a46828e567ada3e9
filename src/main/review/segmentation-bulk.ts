// A segmentation fix made in the editor, applied to the rest of the corpus (as the lexicon's
// bulk fix does for links, concordance.ts): the merge of two neighbouring tokens X, Y or the
// split of a token XY at one character, found wherever else it occurs on that side, listed
// with its context for a preview, and applied to the occurrences the user kept as one edit
// group (one undo reverses it all; store/edits.ts), written in short transactions
// (store/bounded-writes.ts) so that other edits go on meanwhile. Each pair is read again and
// fixed in one of them: an occurrence that an edit made meanwhile took away is left out.
// Applying a fix settles its pending offer (store/segmentation-offers.ts); the pending
// offers are listed with how often each still occurs, counted in one pass over the corpus.
// Each pair's fixes go through the editor's
// own steps (segmentation-fixes.ts: links of every alignment, marks and rejected links follow
// the tokens), right to left so the indices found stay valid; the words join the word list.
// Texts are compared case-folded (toLowerCase), as the lexicon does. A merge matches
// neighbours written together, or, when `spaced`, apart by whitespace only (Vietnamese
// "sinh viên"); overlapping matches ("a a a" for a+a) take the leftmost first.
import type { PendingFix, SegmentationFixSpec, TokenFixOccurrence, TokenSide } from '../../shared/editor-api.ts';
import { UserError } from '../errors.ts';
import { writeInSlices } from '../store/bounded-writes.ts';
import { groupWriter } from '../store/edits.ts';
import { iteratePairRows, tokensOf } from '../store/pairs.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { pendingOffers, resolveOffer } from '../store/segmentation-offers.ts';
import { addWords, fixState, patchOf, stateOf, type TokenFix } from './segmentation-fixes.ts';
import type { Token } from '../../shared/domain.ts';

const GAP = /^[\s\u200B]+$/;

/** Token indices of `tokens` (over `text`) where the fix applies. */
function matches(text: string, tokens: readonly Token[], fix: SegmentationFixSpec): number[] {
  const out: number[] = [];
  const lower = tokens.map((t) => t.text.toLowerCase());
  if (fix.kind === 'split') {
    const word = fix.word.toLowerCase();
    lower.forEach((w, i) => w === word && tokens[i].text.length === fix.word.length && out.push(i));
    return out;
  }
  const [left, right] = [fix.left.toLowerCase(), fix.right.toLowerCase()];
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (lower[i] !== left || lower[i + 1] !== right) continue;
    const gap = text.slice(tokens[i].end, tokens[i + 1].start);
    if (fix.spaced ? !GAP.test(gap) : gap !== '') continue;
    out.push(i);
    i++;
  }
  return out;
}

/** The words a text must hold (case-folded) for the fix to occur in it: a native string search before segmenting into tokens. */
function needlesOf(fix: SegmentationFixSpec): string[] {
  return (fix.kind === 'split' ? [fix.word] : [fix.left, fix.right]).map((w) => w.toLowerCase());
}

function checkFix(fix: SegmentationFixSpec): void {
  if (fix.kind === 'split' && fix.at >= fix.word.length)
    throw new UserError(`split offset ${fix.at} is not inside "${fix.word}" (1..${fix.word.length - 1})`);
}

/** Calls `found` with each fix's occurrences in each pair, in pair order (one pass over the corpus for all the fixes). */
function scanOccurrences(
  store: ProjectStore,
  fixes: readonly { side: TokenSide; fix: SegmentationFixSpec }[],
  found: (which: number, pairId: number, tokens: Token[], indices: number[]) => void,
): void {
  fixes.forEach(({ fix }) => checkFix(fix));
  const needles = fixes.map(({ fix }) => needlesOf(fix));
  for (const rows of iteratePairRows(store, {}, 2000)) {
    for (const r of rows) {
      const folded = { src: r.src_text.toLowerCase(), tgt: r.tgt_text.toLowerCase() };
      fixes.forEach(({ side, fix }, which) => {
        if (!needles[which].every((w) => folded[side].includes(w))) return;
        const [text, blob] = side === 'src' ? [r.src_text, r.src_tokens] : [r.tgt_text, r.tgt_tokens];
        const tokens = tokensOf(text, blob, r.id, side);
        const indices = matches(text, tokens, fix);
        if (indices.length) found(which, r.id, tokens, indices);
      });
    }
  }
}

/** Every occurrence of the fix on `side`, in pair order. */
export function fixOccurrences(store: ProjectStore, side: TokenSide, fix: SegmentationFixSpec): TokenFixOccurrence[] {
  const out: TokenFixOccurrence[] = [];
  scanOccurrences(store, [{ side, fix }], (_, pairId, tokens, indices) => {
    for (const index of indices) out.push({ pairId, side, index, tokens });
  });
  return out;
}

/** The pending segmentation fixes that still occur in the corpus, each with how many times (those that occur nowhere are left out). */
export function pendingFixes(store: ProjectStore): PendingFix[] {
  const offers = pendingOffers(store);
  const counts = offers.map(() => 0);
  scanOccurrences(store, offers, (which, _, __, indices) => (counts[which] += indices.length));
  return offers.map((o, i) => ({ ...o, occurrences: counts[i] })).filter((o) => o.occurrences > 0);
}

/**
 * The fix's occurrences (the preview); with `apply`, those of `keep` (all when absent; each
 * must be one the preview lists) that the pairs still hold are fixed as one edit group, and returned.
 */
export async function bulkTokenFix(
  store: ProjectStore,
  annotator: string,
  side: TokenSide,
  fix: SegmentationFixSpec,
  apply: boolean,
  keep?: readonly { pairId: number; index: number }[],
): Promise<TokenFixOccurrence[]> {
  if (!apply) return fixOccurrences(store, side, fix);
  return applyFix(store, annotator, side, fix, keep);
}

async function applyFix(
  store: ProjectStore,
  annotator: string,
  side: TokenSide,
  fix: SegmentationFixSpec,
  keep?: readonly { pairId: number; index: number }[],
): Promise<TokenFixOccurrence[]> {
  const planned = fixOccurrences(store, side, fix);
  const key = (o: { pairId: number; index: number }) => `${o.pairId}:${o.index}`;
  if (keep) {
    const offered = new Set(planned.map(key));
    const stray = keep.find((k) => !offered.has(key(k)));
    if (stray) throw new UserError(`token ${stray.index} of pair ${stray.pairId} is not an occurrence the preview listed`);
  }
  const kept = keep && new Set(keep.map(key));
  const chosen = kept ? planned.filter((o) => kept.has(key(o))) : planned;
  const byPair = new Map<number, number[]>();
  for (const o of chosen) byPair.set(o.pairId, [...(byPair.get(o.pairId) ?? []), o.index]);
  const group = groupWriter(store, annotator, `tokens.bulk-${fix.kind}`);
  const applied: TokenFixOccurrence[] = [];
  await writeInSlices(
    store,
    byPair,
    ([pairId, indices]) => {
      const pair = store.getPair(pairId);
      const tokens = side === 'src' ? pair.srcTokens : pair.tgtTokens;
      const found = new Set(matches(side === 'src' ? pair.src : pair.tgt, tokens, fix));
      const still = indices.filter((i) => found.has(i)).sort((a, b) => b - a);
      if (still.length === 0) return;
      const before = stateOf(store, pair);
      let state = before;
      const words = new Set<string>();
      for (const index of still) {
        const step: TokenFix = fix.kind === 'split' ? { kind: 'split', side, index, at: fix.at } : { kind: 'merge', side, index };
        const next = fixState(state, step);
        state = next.state;
        next.words.forEach((w) => words.add(w));
      }
      addWords(store, side, [...words], annotator);
      group.add({ pairId, before: patchOf(before, side), after: patchOf(state, side) });
      for (const index of still.reverse()) applied.push({ pairId, side, index, tokens });
    },
    { onSlice: () => group.checkNotUndone() },
  );
  resolveOffer(store, side, fix);
  return applied;
}
