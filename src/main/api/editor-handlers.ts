// The alignment editor's API handlers (spread into handlers.ts): one pair with the
// annotator's gold layer, gold and rejection edits, review queue, lexicon, a segmentation
// fix applied corpus-wide, and agreement.
import type { EditorResults } from '../../shared/editor-api.ts';
import { editorPair, setGold, setRejected } from '../review/editor.ts';
import { reviewQueue } from '../review/queue.ts';
import { bulkFix, defaultModelId, lexiconEntries, occurrences } from '../review/concordance.ts';
import { agreementReport } from '../review/agreement.ts';
import { bulkTokenFix, pendingFixes } from '../review/segmentation-bulk.ts';
import { dismissOffer } from '../store/segmentation-offers.ts';
import { keepWordIndex } from '../store/word-index.ts';
import { adjudication, setAdjudicated } from '../review/adjudication.ts';
import type { z } from 'zod';
import type { editorChannels } from '../../shared/editor-api.ts';
import { openProject, type AppContext } from './app-context.ts';
import { reviewViewer } from '../store/pair-reviews.ts';
import { UserError } from '../errors.ts';

type Channel = keyof EditorResults;
type Handler<C extends Channel> = (
  ctx: AppContext,
  input: z.infer<(typeof editorChannels)[C]>,
) => Promise<EditorResults[C]> | EditorResults[C];

const store = openProject;

export const editorHandlers: { [C in Channel]: Handler<C> } = {
  'editor.get': (ctx, i) => editorPair(store(ctx), ctx.annotator, i.pairId),
  'editor.setGold': (ctx, i) => setGold(store(ctx), ctx.annotator, i.pairId, i.links, i.untranslated),
  'editor.setRejected': (ctx, i) => setRejected(store(ctx), ctx.annotator, i.pairId, i.rejected),
  'queue.list': (ctx, i) => reviewQueue(store(ctx), i, reviewViewer(store(ctx), ctx.annotator)),
  'lexicon.list': (ctx, i) => {
    const s = store(ctx);
    const modelId = i.modelId ?? defaultModelId(s);
    return { entries: lexiconEntries(s, ctx.annotator, modelId, i.text ?? '', i.limit), modelId };
  },
  'lexicon.occurrences': (ctx, i) => {
    const s = store(ctx);
    // pairs the word index lacks (an import, a resegmentation since) are read as before, and indexed after
    keepWordIndex(s);
    return occurrences(s, ctx.annotator, i.src, i.tgt, i.modelId ?? defaultModelId(s), i.limit);
  },
  'lexicon.bulk': async (ctx, i) => {
    const s = store(ctx);
    return {
      changes: await bulkFix(s, ctx.annotator, i.src, i.tgt, i.action, i.apply, i.modelId ?? defaultModelId(s), i.links),
      applied: i.apply,
    };
  },
  'tokens.bulkFix': async (ctx, i) => ({
    occurrences: await bulkTokenFix(store(ctx), ctx.annotator, i.side, i.fix, i.apply, i.occurrences),
    applied: i.apply,
  }),
  'segmentation.pending': (ctx) => ({ fixes: pendingFixes(store(ctx)) }),
  'segmentation.dismiss': (ctx, i) => {
    dismissOffer(store(ctx), i.id);
    return null;
  },
  'agreement.report': (ctx, i) => agreementReport(store(ctx), i.reference, i.candidate, { overlap: i.overlap }),
  'adjudication.get': (ctx, i) => adjudication(store(ctx), i.pairId, i.left, i.right),
  // A team server merges adjudicators' saves of one pair: each names the layer it started from.
  'adjudication.save': (ctx, i) => {
    if (ctx.caller && !i.base)
      throw new UserError('adjudication.save: on a team server the save names its base, the layer it started from');
    return setAdjudicated(store(ctx), ctx.annotator, i.pairId, i.links, i.untranslated, i.base);
  },
};
