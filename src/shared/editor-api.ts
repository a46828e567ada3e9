// The alignment editor's part of the API contract (spread into `channels` and `Results`
// in api.ts): one pair with the annotator's gold layer, link and rejection edits, the
// review queue, the lexicon with its concordance and bulk fix, and agreement reports.
import { z } from 'zod';
import type { Link, LinkRef, PairDetail, PairSummary, Token } from './domain.ts';
import { linkTagName } from './link-tags.ts';

const id = z.number().int().nonnegative();
const side = z.enum(['src', 'tgt']);
const status = z.enum(['new', 'in-review', 'done', 'flagged']);
const word = z.string().min(1).max(200);
const linkSchema = z
  .object({ s: id, t: id, kind: z.enum(['sure', 'possible']), score: z.number().min(0).max(1).nullable(), tag: linkTagName.optional() })
  .strict();
const pairLink = z.object({ s: id, t: id }).strict();

export const editorChannels = {
  'editor.get': z.object({ pairId: id }).strict(),
  'editor.setGold': z
    .object({
      pairId: id,
      links: z.array(linkSchema).max(20_000),
      untranslated: z.array(z.object({ side, index: id }).strict()).max(2000),
    })
    .strict(),
  'editor.setRejected': z.object({ pairId: id, rejected: z.array(pairLink).max(20_000) }).strict(),
  'queue.list': z
    .object({
      alignmentId: id,
      /** Order by disagreement with this alignment instead of by uncertainty. */
      versusId: id.optional(),
      status: z.array(status).max(4).optional(),
      annotator: z.string().max(100).optional(),
      /** Only the pairs assigned to this annotator (store/assignments.ts). */
      assignedTo: z.string().trim().min(1).max(100).optional(),
      text: z.string().max(500).optional(),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(500),
    })
    .strict(),
  'lexicon.list': z
    .object({
      modelId: id.optional(),
      text: z.string().max(200).optional(),
      limit: z.number().int().min(1).max(2000),
    })
    .strict(),
  'lexicon.occurrences': z.object({ src: word, tgt: word, modelId: id.optional(), limit: z.number().int().min(1).max(2000) }).strict(),
  'lexicon.bulk': z
    .object({
      /** add: link the words in gold; remove: unlink them in gold; reject: reject the model's links between them (never suggested again). */
      src: word,
      tgt: word,
      action: z.enum(['add', 'remove', 'reject']),
      apply: z.boolean(),
      /** Whose posteriors choose among the occurrences (default: the newest model alignment). */
      modelId: id.optional(),
      /** With `apply`: only these of the preview's links (the ones the user kept checked); absent: all the supported ones (never an unsupported link). */
      links: z
        .array(z.object({ pairId: id, s: id, t: id }).strict())
        .max(100_000)
        .optional(),
    })
    .strict(),
  /**
   * A segmentation fix made in the editor, applied to its other occurrences in the corpus:
   * a merge of two neighbouring tokens `left`, `right` (written together, or `spaced` by
   * whitespace: Vietnamese "sinh viên"), or a split of token `word` at character `at`. The
   * preview (apply false) lists every occurrence; applying fixes those of `occurrences` (the
   * ones the user kept; absent: all) as one edit group (one undo).
   */
  'tokens.bulkFix': z
    .object({
      side,
      fix: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('merge'), left: word, right: word, spaced: z.boolean().default(false) }).strict(),
        z.object({ kind: z.literal('split'), word, at: z.number().int().positive() }).strict(),
      ]),
      apply: z.boolean(),
      occurrences: z
        .array(z.object({ pairId: id, index: id }).strict())
        .max(100_000)
        .optional(),
    })
    .strict(),
  /** overlap: only the pairs assigned to both annotators of two gold layers (their double annotation). */
  /** The pending segmentation fixes (merges and splits made in the editor, not yet applied corpus-wide nor dismissed) that still occur. */
  'segmentation.pending': z.object({}).strict(),
  /** Dismisses pending segmentation fix `id` (its words stay in the word lists). */
  'segmentation.dismiss': z.object({ id }).strict(),
  'agreement.report': z.object({ reference: id, candidate: id, overlap: z.boolean().optional() }).strict(),
  'adjudication.get': z.object({ pairId: id, left: id, right: id }).strict(),
  /** Writes the project's adjudicated gold of one pair (never an annotator's own gold). */
  'adjudication.save': z
    .object({
      pairId: id,
      links: z.array(linkSchema).max(20_000),
      untranslated: z.array(z.object({ side, index: id }).strict()).max(2000),
      // the adjudicated layer the page started from: only the cells changed since are written,
      // so two adjudicators saving one pair both keep their changes (review/adjudication.ts)
      base: z
        .object({
          links: z.array(linkSchema).max(20_000),
          untranslated: z.array(z.object({ side, index: id }).strict()).max(2000),
        })
        .strict()
        .optional(),
    })
    .strict(),
} as const;

export type TokenSide = 'src' | 'tgt';

/** A pair as the editor shows it: every layer, plus the annotator's own gold layer. */
export interface EditorPair extends PairDetail {
  /** The annotator's gold alignment (null until their first link edit). */
  goldId: number | null;
  gold: Link[];
  untranslated: { side: TokenSide; index: number }[];
}

export interface QueueItem extends Pick<PairSummary, 'id' | 'src' | 'tgt' | 'srcTokens' | 'tgtTokens' | 'status'> {
  /** Uncertainty (mean link entropy) or disagreement (1 − Jaccard), in [0, 1]. */
  score: number;
}

export interface LexiconEntry {
  src: string;
  tgt: string;
  gold: number;
  model: number;
}

export interface Occurrence {
  pairId: number;
  srcTokens: Token[];
  tgtTokens: Token[];
  /** Token positions of the two words. */
  srcAt: number[];
  tgtAt: number[];
  /** Links between them: in the annotator's gold, in the model (with its posterior), rejected by a reviewer. */
  gold: LinkRef[];
  model: (LinkRef & { score: number | null })[];
  rejected: LinkRef[];
}

/**
 * One link of a bulk fix: what supports it (the model's link, with its posterior, or the gold
 * link it removes), or, for a pairing nothing supports, `unsupported` with the reason: such a
 * link is only listed for review (unticked), never written unless the user ticks it.
 */
export interface BulkLink extends LinkRef {
  score: number | null;
  by: 'model' | 'gold' | 'unsupported';
  reason?: string;
}

/** A bulk fix in one pair, with the pair's tokens to show each link in context. */
export interface BulkChange {
  pairId: number;
  srcTokens: Token[];
  tgtTokens: Token[];
  add: BulkLink[];
  remove: BulkLink[];
  /** Occurrences left without a partner: none left on the other side of their pair (a word twice on one side, once on the other). */
  unmatched: { src: number[]; tgt: number[] };
}

/** A segmentation fix's spec, as 'tokens.bulkFix' takes it. */
export type SegmentationFixSpec = z.infer<(typeof editorChannels)['tokens.bulkFix']>['fix'];

/** A merge or split made in the editor, kept until applied to its other occurrences or dismissed (store/segmentation-offers.ts). */
export interface PendingFix {
  id: number;
  side: TokenSide;
  fix: SegmentationFixSpec;
  /** The pair it was made on (null once that pair is deleted). */
  pairId: number | null;
  annotator: string;
  /** When it was made (ISO time). */
  at: string;
  /** How many times it occurs in the corpus now. */
  occurrences: number;
}

/** One occurrence of a segmentation fix: the token (the first of the two, for a merge) and its side's tokens as context. */
export interface TokenFixOccurrence {
  pairId: number;
  side: TokenSide;
  index: number;
  tokens: Token[];
}

export interface AgreementScore {
  precision: number;
  recall: number;
  aer: number;
  /** Links in the reference, in the candidate, in both. */
  reference: number;
  candidate: number;
  both: number;
}

export interface AgreementReport {
  overall: AgreementScore & { pairs: number };
  pairs: (AgreementScore & { pairId: number })[];
  /** Pairs where a compared gold layer has links but the pair is not In review or Done (partial gold): left out. */
  partialGoldPairs: number;
  /**
   * When one side was made by a model trained on gold links: its run, how many of the
   * compared pairs are train-split pairs (their gold may have taught it), and the
   * agreement on the others (dev and test) — the only fair estimate.
   */
  trained?: { runId: number; trainPairs: number; heldOut: AgreementScore & { pairs: number } };
}

/** One annotator's gold layer of one pair. */
export interface GoldLayerOf {
  annotator: string;
  /** Their gold alignment, null before their first link. */
  alignmentId: number | null;
  links: Link[];
  untranslated: { side: TokenSide; index: number }[];
}

/** Two annotators' gold of one pair side by side, and the project's adjudicated gold that the merge is written to. */
export interface Adjudication {
  pair: PairDetail;
  left: GoldLayerOf;
  right: GoldLayerOf;
  result: GoldLayerOf;
}

export interface EditorResults {
  'editor.get': EditorPair;
  'editor.setGold': EditorPair;
  'editor.setRejected': EditorPair;
  'queue.list': { total: number; items: QueueItem[] };
  'lexicon.list': { entries: LexiconEntry[]; modelId: number | null };
  'lexicon.occurrences': { occurrences: Occurrence[]; total: number };
  'lexicon.bulk': { changes: BulkChange[]; applied: boolean };
  'tokens.bulkFix': { occurrences: TokenFixOccurrence[]; applied: boolean };
  'segmentation.pending': { fixes: PendingFix[] };
  'segmentation.dismiss': null;
  'agreement.report': AgreementReport;
  'adjudication.get': Adjudication;
  'adjudication.save': GoldLayerOf;
}
