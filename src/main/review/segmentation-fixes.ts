// Splitting and merging tokens of one pair (segmentation fixes in the editor): the
// pair's token offsets change, the links of every alignment are re-indexed, the fixed
// words join the project's word list, "not translated" marks and rejected links follow
// their tokens (editor.ts), and the whole change is one undoable edit. The fix is kept as a
// pending offer to apply it to its other occurrences (store/segmentation-offers.ts).
// (text/token-edits.ts holds the pure token arithmetic this applies to a stored pair.)
// The same steps, folded over several fixes of one pair (fixState, patchOf), make the
// corpus-wide application of a fix (segmentation-bulk.ts).
import type { Link, PairDetail, Token } from '../../shared/domain.ts';
import type { RejectedLink } from '../../shared/link-set.ts';
import { UserError } from '../errors.ts';
import { mergeTokens, reindexLinksAfterMerge, reindexLinksAfterSplit, splitToken } from '../text/token-edits.ts';
import { encodeOffsets } from '../text/offsets.ts';
import type { PairPatch, UntranslatedMark } from '../store/edits.ts';
import { alignmentSources, rejectedWithAnnotator } from '../store/alignments.ts';
import { marksOfPair } from '../store/gold-layer.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { addFixedWords } from '../store/word-lists.ts';
import { keepOffer } from '../store/segmentation-offers.ts';
import { mergeSpec, splitSpec } from '../../shared/fix-spec.ts';
import { reindexAfterTokenEdit } from './editor.ts';

type Side = 'src' | 'tgt';

/** One token fix: split token `index` at character `at` inside it, or merge `index` with `index + 1`. */
export type TokenFix = { kind: 'split'; side: Side; index: number; at: number } | { kind: 'merge'; side: Side; index: number };

/** What a token fix changes in a pair: its tokens and everything indexed by them. */
export interface TokenState {
  id: number;
  src: string;
  tgt: string;
  srcTokens: Token[];
  tgtTokens: Token[];
  /** Every alignment's links of the pair; `model`: a model's (its links on a split token go to neither half). */
  alignments: { alignmentId: number; links: Link[]; model: boolean }[];
  /** Every annotator's rejected links (a token edit moves them all). */
  rejected: RejectedLink[];
  marks: Record<string, UntranslatedMark[]>;
}

export function stateOf(store: ProjectStore, pair: PairDetail): TokenState {
  const { id, src, tgt, srcTokens, tgtTokens } = pair;
  const models = new Set(
    alignmentSources(store)
      .filter((a) => a.origin === 'model')
      .map((a) => a.id),
  );
  return {
    id,
    src,
    tgt,
    srcTokens,
    tgtTokens,
    alignments: pair.alignments.map((a) => ({ ...a, model: models.has(a.alignmentId) })),
    rejected: rejectedWithAnnotator(store, id),
    marks: marksOfPair(store, id),
  };
}

function tokensOfSide(state: TokenState, side: Side, index: number): Token[] {
  const tokens = side === 'src' ? state.srcTokens : state.tgtTokens;
  if (index >= tokens.length) throw new UserError(`pair ${state.id}: no ${side} token ${index} (it has ${tokens.length})`);
  return tokens;
}

/** The token edit's result; an index or offset outside the pair (a RangeError) is the caller's mistake: a UserError. */
function asked<T>(pairId: number, edit: () => T): T {
  try {
    return edit();
  } catch (err) {
    if (err instanceof RangeError) throw new UserError(`pair ${pairId}: ${err.message}`);
    throw err;
  }
}

/** The pair after one fix, and the words the fix made (they join the word list). */
export function fixState(state: TokenState, fix: TokenFix): { state: TokenState; words: string[] } {
  const { side, index } = fix;
  const split = fix.kind === 'split';
  const tokens = tokensOfSide(state, side, split ? index : index + 1);
  const next = asked(state.id, () =>
    fix.kind === 'split' ? splitToken(tokens, index, fix.at) : mergeTokens(tokens, index, side === 'src' ? state.src : state.tgt),
  );
  const moved = reindexAfterTokenEdit(fix.kind, side, index, state.marks, state.rejected);
  return {
    state: {
      ...state,
      [side === 'src' ? 'srcTokens' : 'tgtTokens']: next,
      alignments: state.alignments.map((a) => ({
        ...a,
        links: split
          ? reindexLinksAfterSplit(a.links, side, index, a.model ? 'neither' : 'both')
          : reindexLinksAfterMerge(a.links, side, index),
      })),
      rejected: moved.rejectedAll,
      marks: moved.untranslated,
    },
    words: split ? [next[index].text, next[index + 1].text] : [next[index].text],
  };
}

/** The patch that sets `state` on the pair (offsets of `side`, links, rejected links, marks). */
export function patchOf(state: TokenState, side: Side): PairPatch {
  const offsets = Array.from(encodeOffsets(side === 'src' ? state.srcTokens : state.tgtTokens));
  return {
    ...(side === 'src' ? { srcOffsets: offsets } : { tgtOffsets: offsets }),
    links: Object.fromEntries(state.alignments.map((a) => [String(a.alignmentId), a.links])),
    rejectedAll: state.rejected,
    untranslated: state.marks,
  };
}

/** Adds the words of fixes on `side` to the project's word list for that side's language (inside the edit's transaction). */
export function addWords(store: ProjectStore, side: Side, words: string[], annotator: string): void {
  const meta = store.meta();
  addFixedWords(store, side === 'src' ? meta.srcLang : meta.tgtLang, words, annotator);
}

function edit(store: ProjectStore, annotator: string, pairId: number, fix: TokenFix): PairDetail {
  const before = stateOf(store, store.getPair(pairId));
  const after = fixState(before, fix);
  const tokens = fix.side === 'src' ? before.srcTokens : before.tgtTokens;
  const spec = fix.kind === 'split' ? splitSpec(tokens, fix.index, fix.at) : mergeSpec(tokens, fix.index);
  return store.transaction(() => {
    addWords(store, fix.side, after.words, annotator);
    if (spec) keepOffer(store, fix.side, spec, pairId, annotator);
    return store.edit(annotator, pairId, `tokens.${fix.kind}`, patchOf(before, fix.side), patchOf(after.state, fix.side));
  }, 'immediate');
}

/** Splits token `index` of one side at character `at` inside it. */
export function splitTokenEdit(store: ProjectStore, annotator: string, pairId: number, side: Side, index: number, at: number): PairDetail {
  return edit(store, annotator, pairId, { kind: 'split', side, index, at });
}

/** Merges tokens `index` and `index + 1` of one side. */
export function mergeTokensEdit(store: ProjectStore, annotator: string, pairId: number, side: Side, index: number): PairDetail {
  return edit(store, annotator, pairId, { kind: 'merge', side, index });
}
