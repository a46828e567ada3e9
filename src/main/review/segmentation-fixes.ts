// Splitting and merging tokens of one pair (segmentation fixes in the editor): the
// pair's token offsets change, the links of every alignment are re-indexed, the fixed
// words join the project's word list, "not translated" marks and rejected links follow
// their tokens (editor.ts), and the whole change is one undoable edit.
// (text/token-edits.ts holds the pure token arithmetic this applies to a stored pair.)
import type { Link, PairDetail, Token } from '../../shared/domain.ts';
import { UserError } from '../errors.ts';
import { mergeTokens, reindexLinksAfterMerge, reindexLinksAfterSplit, splitToken } from '../text/token-edits.ts';
import { encodeOffsets } from '../text/offsets.ts';
import type { PairPatch } from '../store/edits.ts';
import { marksOfPair } from '../store/gold-layer.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { addFixedWords } from '../store/word-lists.ts';
import { rejectedWithAnnotator } from '../store/alignments.ts';
import { reindexAfterTokenEdit } from './editor.ts';

type Side = 'src' | 'tgt';

function patchFor(side: Side, tokens: Token[], links: { alignmentId: number; links: Link[] }[]): PairPatch {
  const offsets = Array.from(encodeOffsets(tokens));
  return {
    ...(side === 'src' ? { srcOffsets: offsets } : { tgtOffsets: offsets }),
    links: Object.fromEntries(links.map((a) => [String(a.alignmentId), a.links])),
  };
}

function addWords(store: ProjectStore, side: Side, words: string[], annotator: string): void {
  const meta = store.meta();
  addFixedWords(store.db, side === 'src' ? meta.srcLang : meta.tgtLang, words, annotator);
}

function tokensOfSide(pair: PairDetail, side: Side, index: number): Token[] {
  const tokens = side === 'src' ? pair.srcTokens : pair.tgtTokens;
  if (index >= tokens.length) throw new UserError(`pair ${pair.id}: no ${side} token ${index} (it has ${tokens.length})`);
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

/** Splits token `index` of one side at character `at` inside it. */
export function splitTokenEdit(store: ProjectStore, annotator: string, pairId: number, side: Side, index: number, at: number): PairDetail {
  const pair = store.getPair(pairId);
  const tokens = tokensOfSide(pair, side, index);
  const next = asked(pairId, () => splitToken(tokens, index, at));
  const links = pair.alignments.map((a) => ({ alignmentId: a.alignmentId, links: reindexLinksAfterSplit(a.links, side, index) }));
  const marks = marksOfPair(store.db, pairId);
  const rejected = rejectedWithAnnotator(store.db, pairId);
  const moved = reindexAfterTokenEdit('split', side, index, marks, rejected);
  return store.db.transaction(() => {
    addWords(store, side, [next[index].text, next[index + 1].text], annotator);
    return store.edit(
      annotator,
      pairId,
      'tokens.split',
      { ...patchFor(side, tokens, pair.alignments), rejectedAll: rejected, untranslated: marks },
      { ...patchFor(side, next, links), ...moved },
    );
  })();
}

/** Merges tokens `index` and `index + 1` of one side. */
export function mergeTokensEdit(store: ProjectStore, annotator: string, pairId: number, side: Side, index: number): PairDetail {
  const pair = store.getPair(pairId);
  const tokens = tokensOfSide(pair, side, index + 1);
  const next = asked(pairId, () => mergeTokens(tokens, index, side === 'src' ? pair.src : pair.tgt));
  const links = pair.alignments.map((a) => ({ alignmentId: a.alignmentId, links: reindexLinksAfterMerge(a.links, side, index) }));
  const marks = marksOfPair(store.db, pairId);
  const rejected = rejectedWithAnnotator(store.db, pairId);
  const moved = reindexAfterTokenEdit('merge', side, index, marks, rejected);
  return store.db.transaction(() => {
    addWords(store, side, [next[index].text], annotator);
    return store.edit(
      annotator,
      pairId,
      'tokens.merge',
      { ...patchFor(side, tokens, pair.alignments), rejectedAll: rejected, untranslated: marks },
      { ...patchFor(side, next, links), ...moved },
    );
  })();
}
