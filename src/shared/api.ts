// The one API contract between the renderer and the Node side: each channel's input
// schema (validated on the Node side before any handler runs, whichever transport
// carried it: Electron IPC or HTTP) and its result type. Events flow the other way.
import { z } from 'zod';
import { encoderOptionsSchema, symSchema } from './aligner-options.ts';
import type { AlignmentOrigin, Link, PairDetail, PairStatus, PairSummary, Split, Token } from './domain.ts';
import { editorChannels, type EditorPair, type EditorResults } from './editor-api.ts';
import { linkTagSet } from './link-tags.ts';
import type { Calibration } from './calibration-report.ts';
import type { LinkCountCurve } from './link-count-curve.ts';
import { modelsChannels, type ModelsResults } from './models-api.ts';
import { dictionariesChannels, type DictionariesResults, type ShippedDictionary } from './dictionaries-api.ts';
import { miningChannels, type MiningResults, mineStartSchema } from './mining-api.ts';
import { teamChannels, type TeamResults, type TeamRole } from './team-api.ts';

const status = z.enum(['new', 'in-review', 'done', 'flagged']);
const split = z.enum(['train', 'dev', 'test']);
const side = z.enum(['src', 'tgt']);
const id = z.number().int().nonnegative();
/** A language code Intl knows (ISO 639-1/639-3, BCP 47 subtags allowed): `xx` or a typo is refused. */
export const knownLanguage = (code: string): boolean => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(code) !== undefined;
  } catch {
    return false;
  }
};

/** Why `code` is no language code, in a linguist's words (null when it is one). */
export function languageProblem(code: string): string | null {
  const c = code.trim();
  if (c === '') return 'give a language code (e.g. lo, th, zh)';
  if (/^[A-Za-z]{2,3}(-[A-Za-z0-9]+)*$/.test(c) && c.length <= 16 && knownLanguage(c)) return null;
  return `'${c}' is not a language code (e.g. lo, th, zh)`;
}

const lang = z
  .string()
  .trim()
  .superRefine((code, ctx) => {
    const problem = languageProblem(code);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The names the forms give to input fields, for messages about a field's value (dispatch.ts). */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  srcLang: 'Source language',
  tgtLang: 'Target language',
};

const path = z.string().trim().min(1).max(4096);

export const pairFilterSchema = z
  .object({
    status: z.array(status).max(4).optional(),
    split: z.array(split).max(3).optional(),
    text: z.string().max(500).optional(),
    alignmentId: id.optional(),
    /** Only the pairs the parallelism score flags (true) or does not (false). */
    misaligned: z.boolean().optional(),
    /** Only excluded pairs (true) or only included ones (false). */
    excluded: z.boolean().optional(),
    /** Only the pairs assigned to this annotator (store/assignments.ts). */
    assignedTo: z.string().trim().min(1).max(100).optional(),
    /** List order: by id (default), or by parallelism score, lowest first (unscored pairs last). */
    order: z.enum(['id', 'parallelism']).optional(),
  })
  .strict();

export const importFormats = ['tsv', 'csv', 'moses', 'fastalign', 'tmx', 'jsonl'] as const;
/** How a links export (Pharaoh, TALP) may hold several alignments without mixing them. */
export const linksFromChoices = ['merged-gold', 'each'] as const;
export const exportFormats = ['jsonl', 'parquet', 'pharaoh', 'talp', 'tmx', 'tsv', 'fastalign'] as const;

export const importOptionsSchema = z
  .object({
    file: path,
    /** Moses: the target-side file. */
    tgtFile: path.optional(),
    format: z.enum(importFormats),
    header: z.boolean().optional(),
    srcColumn: z.union([z.string().min(1), z.number().int().nonnegative()]).optional(),
    tgtColumn: z.union([z.string().min(1), z.number().int().nonnegative()]).optional(),
    tokenization: z.enum(['segment', 'pretokenized']).default('segment'),
    linksFile: path.optional(),
    linksFormat: z.enum(['pharaoh', 'talp']).optional(),
    linksOneBased: z.boolean().optional(),
    /** Import even when a side's script does not match the project's language. */
    anyScript: z.boolean().optional(),
    /** Then learn words from the corpus (review/resegment-project.ts learnAfterImport): unset, on Lao and Thai sides; false, not at all. */
    learnWords: z.boolean().optional(),
    /** The longest line and the largest file accepted, in bytes (defaults: 64 MiB, 16 GiB). */
    maxLineBytes: z.number().int().min(1024).optional(),
    maxFileBytes: z.number().int().min(1024).optional(),
  })
  .strict();

export const exportOptionsSchema = z
  .object({
    file: path,
    format: z.enum(exportFormats),
    status: z.array(status).max(4).optional(),
    split: z.array(split).max(3).optional(),
    alignmentIds: z.array(id).max(100).optional(),
    /** Pharaoh/TALP hold one alignment a file: this one (by id), the union of the gold, or one file each. */
    linksFrom: z.union([id, z.enum(linksFromChoices)]).optional(),
    oneBased: z.boolean().optional(),
    /** TSV and fast_align: the segmented text (tokens joined by one space) instead of the raw sentences. */
    tokenized: z.boolean().optional(),
    /** Chinese side(s) one token per Han character (the LDC convention), links carried to the characters of their words. */
    byCharacter: z.boolean().optional(),
    /** Browser mode: `file` is a file name; the export is written for the browser to download (export.downloads). */
    download: z.boolean().optional(),
  })
  .strict();

export const channels = {
  'app.info': z.object({}).strict(),
  'project.create': z.object({ path, name: z.string().trim().min(1).max(200), srcLang: lang, tgtLang: lang }).strict(),
  'project.open': z.object({ path }).strict(),
  /** Writes the open project (everything acknowledged) to a new file and opens that: for a project whose file went away. */
  'project.saveCopy': z.object({ path }).strict(),
  'project.openSample': z.object({}).strict(),
  'project.close': z.object({}).strict(),
  'project.info': z.object({}).strict(),
  'project.setLinkTags': z.object({ tags: linkTagSet }).strict(),
  'project.setAnnotatorsShare': z.object({ share: z.boolean() }).strict(),
  'project.setLanguages': z.object({ srcLang: lang, tgtLang: lang }).strict(),
  /** offset: the page's list position; afterId / beforeId (at most one): the id just before / after the page, when that pair is on screen (keyset paging). */
  'pairs.list': z
    .object({
      filter: pairFilterSchema,
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(1000),
      afterId: id.optional(),
      beforeId: id.optional(),
    })
    .strict()
    .refine((x) => x.afterId === undefined || x.beforeId === undefined, 'afterId and beforeId exclude each other'),
  'pairs.get': z.object({ id }).strict(),
  'pairs.update': z
    .object({
      id,
      status: status.optional(),
      split: split.optional(),
      note: z.string().max(10_000).optional(),
      // the note as the page last read it: a note changed by someone else since is not overwritten (store/project-store.ts)
      noteBase: z.string().max(10_000).optional(),
    })
    .strict(),
  'tokens.split': z.object({ pairId: id, side, index: id, at: z.number().int().positive() }).strict(),
  'tokens.merge': z.object({ pairId: id, side, index: id }).strict(),
  'edits.undo': z.object({}).strict(),
  'edits.redo': z.object({}).strict(),
  'settings.setAnnotator': z.object({ annotator: z.string().trim().min(1).max(100) }).strict(),
  'import.start': importOptionsSchema,
  'export.start': exportOptionsSchema,
  'export.downloads': z.object({ download: z.string().max(20) }).strict(),
  'align.start': z
    .object({
      method: z.string().min(1).max(40),
      sym: symSchema,
      lowercase: z.boolean().optional(),
      /** Align the project's Chinese side(s) by character (the LDC convention), links mapped back to its words. */
      byCharacter: z.boolean().optional(),
      /** Statistical methods, decoding `post`: the mean posterior a link needs (default STATISTICAL_DEFAULTS.threshold). */
      threshold: z.number().min(0).max(1).optional(),
      /** Encoder methods: the hidden state to read (0 = embeddings; default: the encoder's, encoderOptionsSchema). */
      layer: encoderOptionsSchema.shape.layer,
      /** SimAlign methods: similarities between subwords or words, the null-align share and the distortion (defaults: encoderOptionsSchema's). */
      tokenType: encoderOptionsSchema.shape.tokenType.unwrap().optional(),
      nullAlign: encoderOptionsSchema.shape.nullAlign.unwrap().optional(),
      distortion: encoderOptionsSchema.shape.distortion.unwrap().optional(),
    })
    .strict(),
  /**
   * Scores every pair's parallelism, as a job; pairs under the threshold are flagged misaligned. Bi-Sent2Vec margin scores,
   * or with `head` (the Mine dialog's siamese head folder, mineStartSchema) the cosine of the two sides' vectors through it.
   */
  'curation.score': z.object({ head: mineStartSchema.shape.head }).strict(),
  /** Excludes from training and export (or includes again) every pair the filter matches; resolves to how many changed. */
  'pairs.exclude': z.object({ filter: pairFilterSchema, excluded: z.boolean() }).strict(),
  /** Names the project's pretrained encoder folder (checked: config.json, tokenizer.json, weights), or forgets it (null). */
  'project.setEncoder': z.object({ dir: z.string().trim().min(1).max(4096).nullable() }).strict(),
  /** Every pair segmented again with the project's word lists (review/resegment-project.ts), as a job; its message is the report. */
  'resegment.start': z
    .object({
      side: z.enum(['src', 'tgt', 'both']).default('both'),
      dryRun: z.boolean().optional(),
      flagKept: z.boolean().optional(),
      /** Lao, Thai and Chinese sides: learn recurring names and loans from the corpus and keep them whole (review/resegment-project.ts). */
      learnWords: z.boolean().optional(),
      /** Word list files to segment with (cli/word-list-options.ts): each for one side, or (no side) the side its script says; their words join the project's lists (not on a dry run). */
      wordLists: z
        .array(z.object({ path: z.string().trim().min(1).max(4096), side: z.enum(['src', 'tgt']).optional() }).strict())
        .max(20)
        .optional(),
    })
    .strict(),
  /** Reads a word list file (without keeping it): how many words, and the side(s) they would go to. */
  'wordList.read': z.object({ path: z.string().trim().min(1).max(4096), side: z.enum(['src', 'tgt']).optional() }).strict(),
  /** The project's own word list (fixed, read from files, learned), optionally only the learned words. */
  'wordList.list': z.object({ learned: z.boolean().optional() }).strict(),
  /** Takes words off the project's word list; tokens cut with them keep their cut until the next re-segment. */
  'wordList.remove': z
    .object({
      words: z
        .array(z.object({ lang: z.string().min(1).max(35), word: z.string().min(1).max(200) }).strict())
        .min(1)
        .max(10_000),
    })
    .strict(),
  'jobs.cancel': z.object({ jobId: z.string().min(1).max(64) }).strict(),
  /** Native file dialogs: desktop app only (browser mode uploads files instead). */
  'dialog.openFile': z.object({ purpose: z.enum(['corpus', 'links', 'project']) }).strict(),
  'dialog.saveFile': z.object({ purpose: z.enum(['export', 'project']), defaultName: z.string().max(255).optional() }).strict(),
  ...editorChannels,
  ...modelsChannels,
  ...dictionariesChannels,
  ...miningChannels,
  ...teamChannels,
} as const;

export type Channel = keyof typeof channels;
export type ChannelInput<C extends Channel> = z.input<(typeof channels)[C]>;
export type PairFilter = z.infer<typeof pairFilterSchema>;
export type ImportOptions = z.infer<typeof importOptionsSchema>;
export type ExportOptions = z.infer<typeof exportOptionsSchema>;

export interface ProjectInfo {
  path: string;
  name: string;
  srcLang: string;
  tgtLang: string;
  pairs: number;
  byStatus: Record<PairStatus, number>;
  alignments: AlignmentInfo[];
  /** The project's link tags (keys 1–9 in the editor set them). */
  linkTags: string[];
  /** Annotators see each other's gold and rejections (else blind double annotation). */
  annotatorsShare: boolean;
  /** The pretrained encoder folder whose similarity aligners the Align job offers, or null. */
  encoderDir: string | null;
  /** The threshold of the last parallelism scoring (pairs under it are flagged misaligned), or null before any. */
  parallelismThreshold: number | null;
  /** Pairs excluded from training and export. */
  excluded: number;
  /** The project file was deleted, moved or replaced while open: edits are refused; Save a copy… keeps everything saved so far. */
  fileGone: boolean;
  /** Opened read-only (the file, its folder or its mount cannot be written): browse and export only. */
  readOnly: boolean;
}

/** One word of a project's word list: its language, and who added it (an annotator, a word list file, or "learned from the corpus"). */
export interface WordListEntry {
  lang: string;
  word: string;
  addedBy: string;
}

export interface AlignmentInfo {
  id: number;
  origin: AlignmentOrigin;
  name: string;
  annotator: string | null;
  links: number;
  /** The training run a model alignment was made with (Models page re-alignment), else null. */
  runId: number | null;
  /** How its scores were calibrated on held-out gold, when they were. */
  calibration: Calibration | null;
  /** The project's adjudicated gold (origin 'gold'): written by adjudication, preferred by training and merged-gold exports. */
  adjudicated: boolean;
  /** A statistical Align job's alignment decoded by posterior threshold: its links counted by score (the Align… dialog's estimate). */
  linkCurve: LinkCountCurve | null;
}

export interface EditResult {
  /** The pair as committed, in the editor's view, or null when the undo/redo stack was empty. */
  pair: EditorPair | null;
}

export interface AppInfo {
  version: string;
  mode: 'electron' | 'browser';
  annotator: string;
  project: ProjectInfo | null;
  /** Statistical alignment methods and symmetrisations the Align job offers (first = default). */
  alignMethods: string[];
  /** Each symmetrisation once, by its listed name (methods.ts SYMMETRISATION_CHOICES). */
  symmetrisations: string[];
  /** Similarity aligners over a pretrained encoder, offered when the project names an encoder folder. */
  encoderMethods: string[];
  /** Dictionaries that ship with Mekong, which a project can attach. */
  shippedDictionaries: ShippedDictionary[];
  /** Projects opened lately on this machine, newest first. */
  recentProjects: string[];
  /** A team server's logged-in account's role, and the channels that role may call (team/permissions.ts); null in single-user modes, where every channel is offered. */
  role: TeamRole | null;
  channels: Channel[] | null;
}

/** What each channel resolves to. */
export interface Results extends EditorResults, ModelsResults, DictionariesResults, MiningResults, TeamResults {
  'app.info': AppInfo;
  'project.create': ProjectInfo;
  'project.open': ProjectInfo;
  'project.saveCopy': ProjectInfo;
  'project.openSample': ProjectInfo;
  'project.close': null;
  'project.info': ProjectInfo | null;
  'project.setLinkTags': ProjectInfo;
  'project.setAnnotatorsShare': ProjectInfo;
  'project.setLanguages': ProjectInfo;
  'project.setEncoder': ProjectInfo;
  'curation.score': { jobId: string };
  'pairs.exclude': { changed: number };
  'pairs.list': { total: number; offset: number; pairs: PairSummary[] };
  'pairs.get': PairDetail;
  'pairs.update': PairDetail;
  'tokens.split': EditorPair;
  'tokens.merge': EditorPair;
  'edits.undo': EditResult;
  'edits.redo': EditResult;
  'settings.setAnnotator': null;
  'import.start': { jobId: string };
  'export.start': { jobId: string; download?: string };
  'export.downloads': { files: { name: string; bytes: number }[] };
  'align.start': { jobId: string };
  'resegment.start': { jobId: string };
  'wordList.read': { words: number; sides: ('src' | 'tgt')[]; file: string };
  'wordList.list': { words: WordListEntry[] };
  'wordList.remove': { removed: number };
  'jobs.cancel': null;
  'dialog.openFile': string | null;
  'dialog.saveFile': string | null;
}

/** One side of a pair whose tokens re-segmenting changes (or would change): its text, and the token offsets before and after. */
export interface ResegmentSide {
  side: 'src' | 'tgt';
  text: string;
  /** (start, end) offset pairs into `text`, as the store keeps them (text/offsets.ts). */
  before: number[];
  after: number[];
}

/** A pair whose tokens re-segmenting changes, as the Re-segment dialog shows it. */
export interface ResegmentChange {
  pairId: number;
  sides: ResegmentSide[];
}

/** A training run's time, measured before it is made on a few of its steps (train/train-pace.ts). */
export interface TrainPace {
  secondsPerStep: number;
  stepsPerEpoch: number;
  /** The run's optimiser steps (its epochs and self-training epochs). */
  steps: number;
  /** Reading the pairs and building the training sessions, before the first step. */
  setupSeconds: number;
  /** The estimate: setup and every step at the measured pace. */
  seconds: number;
  /** How many steps the pace was measured on. */
  measuredSteps: number;
}

/** What a job hands back besides its message, for the UI to show (by kind of job). */
export type JobResult = { kind: 'resegment'; changes: ResegmentChange[]; changed: number } | ({ kind: 'trainPace' } & TrainPace);

/** Pushed to the renderer: progress and ends of long work. */
export type JobEvent =
  | { type: 'job.progress'; jobId: string; kind: string; done: number; total: number; message: string }
  | { type: 'job.done'; jobId: string; kind: string; message: string; result?: JobResult }
  | { type: 'job.failed'; jobId: string; kind: string; error: string }
  | { type: 'job.cancelled'; jobId: string; kind: string };

/** The error shape both transports return for a rejected call. */
export interface ApiErrorBody {
  error: string;
  /** 'input' for schema violations and user errors, 'internal' otherwise; 'unreachable' when the
   *  renderer could not reach the server at all (browser mode: it was stopped, or the connection dropped);
   *  'gone' when a write was refused because the project file was deleted, moved or replaced while open;
   *  'full' when the disk filled up (nothing of that call was kept). */
  kind: 'input' | 'internal' | 'unreachable' | 'gone' | 'full';
}

/**
 * The header carrying a change's request id over HTTP: a call sent again with the same id
 * (its answer was lost with the connection) gets the first answer and runs once
 * (main/api/call-replies.ts).
 */
export const REQUEST_ID_HEADER = 'x-mekong-request';

/** How a call is sent: `requestId` makes a re-send of it run once (browser mode; IPC never loses an answer). */
export interface CallOptions {
  requestId?: string;
}

/** The transport-independent client interface the renderer codes against. */
export interface MekongApi {
  invoke<C extends Channel>(channel: C, input: ChannelInput<C>, options?: CallOptions): Promise<Results[C]>;
  onEvent(listener: (event: JobEvent) => void): () => void;
}
