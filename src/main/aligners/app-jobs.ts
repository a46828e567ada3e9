// What a family gives the app's jobs through its registry entry (registry.ts): the Align
// job's aligner over a project's pairs (align/project-align.ts), and a trained family's run
// and checkpoint aligner (train/train-job.ts, train/realign-job.ts): the job code looks the
// entry up and calls these, never branching on a family. Also the project-side readings
// those implementations share: the attached dictionaries' entries, the Chinese sides, the
// project's encoder folder.
import type { EncoderOptions } from '../../shared/aligner-options.ts';
import type { AlignedPair, Link } from '../../shared/domain.ts';
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { TrainOptions } from '../../shared/models-api.ts';
import { type DictEntry, parseDictionaryText } from '../align/dictionary.ts';
import { UserError } from '../errors.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { attachedDictionaryTexts, usesShippedDictionaries } from '../store/dictionaries.ts';
import { defaultDictionaries, mergedEntries } from '../align/default-dictionaries.ts';
import { encoderDir } from '../store/encoder-folder.ts';
import type { NewModelAlignment } from '../store/model-alignments.ts';
import type { PairSides, ProjectCorpus, rejectedByPair } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';
import { chineseSides, type CharSides } from '../text/han-characters.ts';
import type { NeuralAlignResult } from '../train/neural-protocol.ts';

export interface ProjectAlignOptions {
  method: string;
  sym: string;
  lowercase?: boolean;
  /** statistical methods: align the Chinese side(s) by character */
  byCharacter?: boolean;
  /** statistical methods, decoding `post`: the mean posterior a link needs */
  threshold?: number;
  /** encoder methods: the hidden state to align with (default the encoder's) */
  layer?: number;
  /** SimAlign methods: similarities between subwords or words, null-align share, distortion (defaults ENCODER_DEFAULTS) */
  tokenType?: EncoderOptions['tokenType'];
  nullAlign?: number;
  distortion?: number;
  /** encoder methods: where the encoder's sessions run */
  device?: DeviceSetting;
}

/** The project's pairs an Align job aligns, with the linguists' gold and rejected links of each. */
export interface AlignInput {
  /** each side held compactly, a pair's tokens made when asked for (toArrays for a family that sends them all) */
  corpus: PairSides;
  gold: readonly Link[][];
  rejected: ReturnType<typeof rejectedByPair>;
}

/** What an aligner gave: pair k's links at the k-th step, the alignment's record, and the job's summary. */
export interface Aligned {
  /** read once, in pair order: the statistical engine makes each pair's links as they are read (engine.ts alignCorpusStreamed) */
  links: Iterable<readonly Link[]>;
  /** the alignment's name before its time stamp, and the model row that records what made it */
  label: string;
  model: NonNullable<NewModelAlignment['untrainedModel']>;
  /** "<method> …" for "aligned N pairs with <summary>: L links" */
  summary: string;
}

/** A family's Align job over the project's pairs. */
export interface ProjectAligner {
  /** Refuses, in one line, options this family cannot run with on this project; called before the job starts. */
  check(store: ProjectStore, o: ProjectAlignOptions): void;
  /** The links of every pair (before the corrections are applied). */
  align(store: ProjectStore, o: ProjectAlignOptions, input: AlignInput, ctx: JobContext): Promise<Aligned>;
}

/** A checkpoint of a run and the project's pairs to align with it (Re-align). */
export interface CheckpointInput {
  modelDir: string;
  corpus: ProjectCorpus;
  gold: readonly (AlignedPair | undefined)[];
  /** pair k is held out of training (its gold may teach the link decision) */
  held: readonly boolean[];
  /** the run's options */
  options: TrainOptions;
  sym: string;
}

/** A trained family's jobs on the Models page: train a run created by createModelRun, and align with one of its checkpoints. */
export interface RunJobs {
  /** Runs the training; returns a one-line summary. */
  train(store: ProjectStore, runId: number, o: TrainOptions, ctx: JobContext): Promise<string>;
  /** The links of every pair with the checkpoint (before corrections), and what decided them. */
  alignCheckpoint(input: CheckpointInput, ctx: JobContext): Promise<NeuralAlignResult>;
}

/**
 * The dictionary a project's jobs use: its attached dictionaries (read as the CLI's --dict
 * reads a file) and, unless the project switched them off, the shipped ones connecting its
 * languages (align/default-dictionaries.ts); with the names of all, for the model's record.
 */
export function projectDictionary(store: ProjectStore, lowercase?: boolean): { entries: DictEntry[]; names: string[] } {
  const attached = attachedDictionaryTexts(store);
  const own = attached.flatMap((d) => parseDictionaryText(d.text, `dictionary "${d.name}"`, { lowercase }));
  const { srcLang, tgtLang } = store.meta();
  const shipped = usesShippedDictionaries(store) ? defaultDictionaries(srcLang, tgtLang) : [];
  return {
    entries: shipped.length ? mergedEntries(own, shipped, lowercase) : own,
    names: [...attached.map((d) => d.name), ...shipped.map((d) => `${d.label} (shipped)`)],
  };
}

/** The Chinese side(s) of the project, for aligning by character; a user error when it has none. */
export function projectChineseSides(store: ProjectStore): CharSides {
  const { srcLang, tgtLang } = store.meta();
  const sides = chineseSides(srcLang, tgtLang);
  if (!sides) throw new UserError(`aligning by character is for Chinese, and this project is ${srcLang}–${tgtLang}`);
  return sides;
}

/** The project's encoder folder; a user error when it names none. */
export function projectEncoderDir(store: ProjectStore): string {
  const dir = encoderDir(store);
  if (!dir) throw new UserError('this project names no encoder folder: set one in the Align dialog first');
  return dir;
}
