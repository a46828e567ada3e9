// One function per API channel. Inputs arrive already validated (dispatch.ts); handlers
// translate them into store, pipeline and job calls.
import { existsSync, mkdirSync } from 'node:fs';
import type { Channel, Results } from '../../shared/api.ts';
import { channels } from '../../shared/api.ts';
import type { z } from 'zod';
import { UserError } from '../errors.ts';
import { ProjectStore } from '../store/project-store.ts';
import { editorPair } from '../review/editor.ts';
import { mergeTokensEdit, splitTokenEdit } from '../review/segmentation-fixes.ts';
import { formatResegmentReport, learnAfterImport, resegmentProject } from '../review/resegment-project.ts';
import { nextPairId } from '../store/pairs.ts';
import { runImport } from '../corpus/import-pipeline.ts';
import { runExport } from '../corpus/export-pipeline.ts';
import { openOrCreateSample } from '../corpus/sample.ts';
import { alignProject } from '../align/project-align.ts';
import { ALIGN_JOB_METHODS, ENCODER_ALIGN_METHODS, SYMMETRISATION_CHOICES } from '../../shared/methods.ts';
import { alignJobOf } from '../aligners/registry.ts';
import { recentProjects, rememberProject } from '../recent-projects.ts';
import { setLinkTags } from '../store/project-link-tags.ts';
import { downloadFiles, downloadSummary, newDownload, zipDownload } from '../export-downloads.ts';
import { setAnnotatorsShare } from '../store/annotation-mode.ts';
import { reviewViewer } from '../store/pair-reviews.ts';
import { openProject, withUploadNames, type AppContext } from './app-context.ts';
import { shippedDictionaries } from '../align/dictionary-sources.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import { setEncoderDir } from '../store/encoder-folder.ts';
import { setExcluded } from '../store/pair-scores.ts';
import { scoreProjectPairs } from '../train/score-pairs-job.ts';
import { checkSavedHead } from '../models/siamese/head-mining.ts';
import { recordHead } from '../store/siamese-heads.ts';
import { editorHandlers } from './editor-handlers.ts';
import { modelsHandlers } from './models-handlers.ts';
import { dictionariesHandlers } from './dictionaries-handlers.ts';
import { miningHandlers } from './mining-handlers.ts';
import { teamHandlers } from './team-handlers.ts';
import { callableChannels } from '../team/permissions.ts';
import { readWordLists } from '../text/word-list-file.ts';
import { listWords, removeWords } from '../store/word-lists.ts';
import { keepWordIndex } from '../store/word-index.ts';
import { basename, resolve } from 'node:path';

type Input<C extends Channel> = z.infer<(typeof channels)[C]>;
type Handler<C extends Channel> = (ctx: AppContext, input: Input<C>) => Promise<Results[C]> | Results[C];

const store = openProject;

function dialogs(ctx: AppContext): NonNullable<AppContext['dialogs']> {
  if (!ctx.dialogs) throw new UserError('native file dialogs exist only in the desktop app; upload the file instead');
  return ctx.dialogs;
}

function replaceStore(ctx: AppContext, next: ProjectStore): void {
  if (ctx.jobs.active > 0) {
    next.close();
    throw new UserError('wait for the running job to finish, or cancel it, first');
  }
  ctx.store?.close();
  ctx.store = next;
  rememberProject(ctx.dataDir, next.path);
  // the concordance's word index catches up with pairs imported elsewhere (the CLI) meanwhile
  keepWordIndex(next);
}

/** An undo or redo's result: the pair it changed, in the editor's view. */
/** Word list files the app names (a path on this machine, or an upload, named by its file's name) read for the open project. */
function appWordLists(ctx: AppContext, files: readonly { path: string; side?: 'src' | 'tgt' }[]) {
  const named = files.map((f) => ({ ...f, name: ctx.uploads?.get(f.path) ?? basename(f.path) }));
  try {
    return readWordLists(named, store(ctx).meta(), 'choose the side its words are for');
  } catch (err) {
    if (err instanceof Error) err.message = withUploadNames(ctx, err.message);
    throw err;
  }
}

function editResult(ctx: AppContext, pair: { id: number } | null): { pair: ReturnType<typeof editorPair> | null } {
  return { pair: pair && editorPair(store(ctx), ctx.annotator, pair.id) };
}

export const handlers: { [C in Channel]: Handler<C> } = {
  'app.info': (ctx) => ({
    version: ctx.version,
    mode: ctx.mode,
    annotator: ctx.annotator,
    project: ctx.store?.info(ctx.annotator) ?? null,
    alignMethods: [...ALIGN_JOB_METHODS],
    symmetrisations: SYMMETRISATION_CHOICES.map((s) => s.name),
    shippedDictionaries: shippedDictionaries(),
    encoderMethods: [...ENCODER_ALIGN_METHODS],
    recentProjects: recentProjects(ctx.dataDir),
    role: ctx.caller?.role ?? null,
    channels: ctx.caller ? callableChannels(ctx.caller.role) : null,
  }),
  'project.create': (ctx, i) => {
    replaceStore(ctx, ProjectStore.create(i.path, { name: i.name, srcLang: i.srcLang, tgtLang: i.tgtLang }));
    return store(ctx).info(ctx.annotator);
  },
  'project.open': (ctx, i) => {
    if (!existsSync(i.path)) throw new UserError(`${i.path}: no such project file`);
    replaceStore(ctx, ProjectStore.open(i.path));
    return store(ctx).info(ctx.annotator);
  },
  'project.openSample': async (ctx) => {
    mkdirSync(ctx.dataDir, { recursive: true });
    replaceStore(ctx, await openOrCreateSample(ctx.dataDir));
    return store(ctx).info(ctx.annotator);
  },
  'project.saveCopy': (ctx, i) => {
    if (ctx.jobs.active > 0) throw new UserError('wait for the running job to finish, or cancel it, first');
    store(ctx).saveCopy(i.path);
    replaceStore(ctx, ProjectStore.open(i.path));
    return store(ctx).info(ctx.annotator);
  },
  'project.close': (ctx) => {
    if (ctx.jobs.active > 0) throw new UserError('wait for the running job to finish, or cancel it, before closing the project');
    ctx.store?.close();
    ctx.store = null;
    return null;
  },
  'project.info': (ctx) => ctx.store?.info(ctx.annotator) ?? null,
  'project.setLinkTags': (ctx, i) => {
    setLinkTags(store(ctx), i.tags);
    return store(ctx).info(ctx.annotator);
  },
  'project.setLanguages': (ctx, i) => store(ctx).setLanguages(i.srcLang, i.tgtLang),
  'curation.score': (ctx, i) => {
    const target = store(ctx);
    if (i.head !== undefined) {
      checkSavedHead(i.head);
      recordHead(target, resolve(i.head));
    }
    const { jobId } = ctx.jobs.start('score', (job) => scoreProjectPairs(target, job, i.head));
    return { jobId };
  },
  'pairs.exclude': (ctx, i) => ({ changed: setExcluded(store(ctx), i.filter, i.excluded) }),
  'project.setEncoder': (ctx, i) => {
    const target = store(ctx);
    if (i.dir !== null) HfEncoder.check(i.dir);
    setEncoderDir(target, i.dir);
    return target.info(ctx.annotator);
  },
  'project.setAnnotatorsShare': (ctx, i) => {
    setAnnotatorsShare(store(ctx), i.share);
    return store(ctx).info(ctx.annotator);
  },
  'pairs.list': (ctx, i) => ({
    offset: i.offset,
    ...store(ctx).listPairs(
      i.filter,
      // keyset starts follow id order; a list in score order pages by position
      i.filter.order === 'parallelism'
        ? { offset: i.offset }
        : i.afterId !== undefined
          ? { afterId: i.afterId }
          : i.beforeId !== undefined
            ? { beforeId: i.beforeId }
            : { offset: i.offset },
      i.limit,
      reviewViewer(store(ctx), ctx.annotator),
    ),
  }),
  'pairs.get': (ctx, i) => store(ctx).getPair(i.id, reviewViewer(store(ctx), ctx.annotator)),
  // A team server takes a note only with the note it replaces: no one's newer note is overwritten unseen.
  'pairs.update': (ctx, i) => {
    if (ctx.caller && i.note !== undefined && i.noteBase === undefined)
      throw new UserError('pairs.update: on a team server a note is saved with noteBase, the note it replaces');
    return store(ctx).updatePair(ctx.annotator, i.id, { status: i.status, split: i.split, note: i.note, noteBase: i.noteBase });
  },
  // The editor's channels answer with the editor's view of the pair: one round trip per edit.
  'tokens.split': (ctx, i) =>
    editorPair(store(ctx), ctx.annotator, splitTokenEdit(store(ctx), ctx.annotator, i.pairId, i.side, i.index, i.at).id),
  'tokens.merge': (ctx, i) =>
    editorPair(store(ctx), ctx.annotator, mergeTokensEdit(store(ctx), ctx.annotator, i.pairId, i.side, i.index).id),
  'edits.undo': (ctx) => editResult(ctx, store(ctx).undo(ctx.annotator)),
  'edits.redo': (ctx) => editResult(ctx, store(ctx).redo(ctx.annotator)),
  'settings.setAnnotator': (ctx, i) => {
    ctx.annotator = i.annotator;
    return null;
  },
  // Messages name an uploaded file by the name the user chose it by, not its server path.
  'import.start': (ctx, i) => {
    const target = store(ctx);
    const { jobId } = ctx.jobs.start('import', async (job) => {
      try {
        const segmentedFrom = nextPairId(target);
        const imported = await runImport(target, i, { ...job, surface: 'app' });
        const learnWords = i.tokenization === 'pretokenized' ? false : i.learnWords;
        const report = await learnAfterImport(target, { learnWords, segmentedFrom, annotator: ctx.annotator, ...job });
        keepWordIndex(target);
        return withUploadNames(ctx, report ? `${imported}\n${formatResegmentReport(report)}` : imported);
      } catch (err) {
        if (err instanceof Error) err.message = withUploadNames(ctx, err.message);
        throw err;
      }
    });
    return { jobId };
  },
  'export.start': (ctx, i) => {
    const source = store(ctx);
    if (!i.download) {
      const { jobId } = ctx.jobs.start('export', (job) => runExport(source, i, job));
      return { jobId };
    }
    if (!ctx.downloadDir) throw new UserError('downloads are for browser mode: give the path to write the export to');
    const root = ctx.downloadDir;
    const { id, file } = newDownload(root, i.file);
    const options = { ...i, file, download: undefined };
    const { jobId } = ctx.jobs.start('export', async (job) => {
      const summary = await runExport(source, options, job);
      return downloadSummary(root, id, summary, await zipDownload(root, id, i.file));
    });
    return { jobId, download: id };
  },
  'export.downloads': (ctx, i) => {
    if (!ctx.downloadDir) throw new UserError('downloads are for browser mode');
    return { files: downloadFiles(ctx.downloadDir, i.download) };
  },
  'align.start': async (ctx, i) => {
    const target = store(ctx);
    (await alignJobOf(i.method)).check(target, i);
    const { jobId } = ctx.jobs.start('align', (job) => alignProject(target, i, job));
    return { jobId };
  },
  'resegment.start': (ctx, i) => {
    const target = store(ctx);
    const sides = i.side === 'both' ? (['src', 'tgt'] as const) : ([i.side] as const);
    const words = appWordLists(ctx, i.wordLists ?? []) ?? undefined;
    const { jobId } = ctx.jobs.start('resegment', async (job) => {
      const report = await resegmentProject(target, {
        sides,
        annotator: ctx.annotator,
        dryRun: i.dryRun,
        flagKept: i.flagKept,
        learnWords: i.learnWords,
        words,
        ...job,
      });
      return { message: formatResegmentReport(report), result: { kind: 'resegment', changes: report.changes, changed: report.changed } };
    });
    return { jobId };
  },
  'wordList.read': (ctx, i) => {
    const { files } = appWordLists(ctx, [i])!;
    return { words: files[0].words, sides: files[0].sides, file: files[0].name };
  },
  'wordList.list': (ctx, i) => ({ words: listWords(store(ctx), { learned: i.learned }) }),
  'wordList.remove': (ctx, i) => {
    const project = store(ctx);
    const removed = project.transaction(() =>
      i.words.reduce((n, w) => n + removeWords(project, { lang: w.lang, words: [w.word] }).length, 0),
    );
    return { removed };
  },
  'jobs.cancel': (ctx, i) => {
    ctx.jobs.cancel(i.jobId);
    return null;
  },
  'dialog.openFile': (ctx, i) => dialogs(ctx).openFile(i.purpose),
  'dialog.saveFile': (ctx, i) => dialogs(ctx).saveFile(i.purpose, i.defaultName),
  ...editorHandlers,
  ...modelsHandlers,
  ...dictionariesHandlers,
  ...miningHandlers,
  ...teamHandlers,
};
