// The aligner registry's Node half: one entry per family (the names, capabilities and option
// schemas are the shared half, shared/methods.ts and shared/aligner-options.ts), with the
// options of `mekong align` and `mekong lexicon` its methods read, how it refuses what it
// cannot do, and its implementations, each imported only when one of its methods runs (a
// statistical run loads neither onnxruntime nor a training stack): the CLI's aligner, the
// app's Align job, a trained family's run and re-align jobs (app-jobs.ts). The CLI and the
// app's jobs look every method up here; the handlers and the renderer ask shared/methods.ts
// for capabilities. The siamese head is an add-on of any family whose capabilities give
// sentence vectors, not a family: SIAMESE_HEAD lists the families it sits on.
import {
  capabilitiesOf,
  DEFAULT_METHOD,
  FAMILIES,
  METHODS,
  methodInfo,
  methodNames,
  methodsWith,
  type MethodFamily,
  type SentenceVectorFamily,
} from '../../shared/methods.ts';
import { SIAMESE_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { UserError } from '../errors.ts';
import type { ProjectAligner, RunJobs } from './app-jobs.ts';
import type { AlignerOptions, TextAligner, TextAlignerFactory } from './text-aligner.ts';

type OptionKey = keyof AlignerOptions;
type Command = 'align' | 'lexicon';

/** Every option of `align` and `lexicon` with its flag, in the order a refusal looks for them. */
export const CLI_FLAGS: Readonly<Record<OptionKey, string>> = {
  encoder: '--encoder',
  layer: '--layer',
  tokenType: '--token-type',
  nullAlign: '--null-align',
  distortion: '--distortion',
  continue: '--continue',
  pseudo: '--pseudo',
  selfTrain: '--self-train',
  device: '--device',
  gold: '--gold',
  epochs: '--epochs',
  weights: '--weights',
  wordDropout: '--word-dropout',
  lr: '--lr',
  batch: '--batch',
  seed: '--seed',
  negatives: '--negatives',
  pooling: '--pooling',
  heads: '--heads',
  extraction: '--extraction',
  pseudoThreshold: '--pseudo-threshold',
  dictUse: '--dict-use',
  heldOut: '--held-out',
  model: '--model',
  saveModel: '--save-model',
  dict: '--dict',
  via: '--via',
  maxFanout: '--max-fanout',
  srcLang: '--src-lang',
  tgtLang: '--tgt-lang',
  defaultDicts: '--no-default-dicts',
  byCharacter: '--by-character',
  lowercase: '--lowercase',
  threshold: '--threshold',
  sym: '--sym',
};

export interface FamilyEntry {
  readonly family: MethodFamily;
  /** The options of `align` and `lexicon` its methods read; the CLI refuses the others. */
  readonly reads: readonly OptionKey[];
  /** The family's own wording for an option it does not read (default: which methods read it). */
  readonly notRead?: (flag: string, method: string) => string;
  /** Why a command outside its capabilities is refused. */
  readonly cannot?: (command: Command, method: string) => string;
  /** Its implementation, imported when one of its methods runs (none: it neither aligns nor learns a lexicon). */
  readonly load?: () => Promise<TextAlignerFactory>;
  /** Its Align job over a project's pairs (the families that align without training a run). */
  readonly alignJob?: () => Promise<ProjectAligner>;
  /** Its Models page jobs (the families that train runs): train a run, align with a checkpoint. */
  readonly runJobs?: () => Promise<RunJobs>;
}

const DICTIONARY: readonly OptionKey[] = ['dict', 'via', 'maxFanout', 'srcLang', 'tgtLang', 'defaultDicts'];
const list = (names: readonly string[]) => names.join(', ');

export const REGISTRY: Readonly<Record<MethodFamily, FamilyEntry>> = {
  statistical: {
    family: 'statistical',
    reads: ['sym', 'threshold', 'model', 'saveModel', ...DICTIONARY, 'byCharacter', 'lowercase'],
    load: async () => (await import('./statistical-aligner.ts')).statisticalAligner,
    alignJob: async () => (await import('./statistical-align-job.ts')).statisticalAlignJob,
  },
  bilstm: {
    family: 'bilstm',
    reads: [
      'sym',
      'model',
      'saveModel',
      ...DICTIONARY,
      'dictUse',
      'lowercase',
      'epochs',
      'gold',
      'weights',
      'wordDropout',
      'lr',
      'batch',
      'seed',
      'negatives',
      'pooling',
      'heads',
      'extraction',
      'heldOut',
      'continue',
      'pseudo',
      'pseudoThreshold',
      'selfTrain',
      'device',
    ],
    load: async () => (await import('./bilstm-aligner.ts')).bilstmAligner,
    runJobs: async () => (await import('../train/train-job.ts')).bilstmRunJobs,
  },
  encoder: {
    family: 'encoder',
    reads: ['encoder', 'layer', 'threshold', 'tokenType', 'nullAlign', 'distortion', 'device'],
    notRead: (flag, method) => `${flag} is not read by ${method}, which aligns with a pretrained encoder without training`,
    cannot: (_, method) => `lexicon: ${method} does not learn a lexicon; use align, or a statistical or BiLSTM method`,
    load: async () => (await import('./pretrained-encoder-aligner.ts')).pretrainedEncoderAligner,
    alignJob: async () => (await import('./encoder-align-job.ts')).encoderAlignJob,
  },
  finetune: {
    family: 'finetune',
    reads: [],
    cannot: (_, method) =>
      `${method} trains an encoder rather than aligning: run \`mekong finetune --encoder DIR --src S --tgt T --out OUT\`, then align with --method ${FAMILIES.finetune.alignsWith} --encoder OUT`,
    runJobs: async () => (await import('../train/finetune-job.ts')).finetuneRunJobs,
  },
  bisent2vec: {
    family: 'bisent2vec',
    reads: ['epochs', 'extraction'],
    notRead: (flag, method) => `${flag} is not an option of ${method} (it reads --epochs and --extraction)`,
    cannot: (_, method) => `${method} learns word and sentence vectors, not word links: align with ${list(methodsWith((c) => c.align))}`,
    load: async () => (await import('./bisent2vec-aligner.ts')).bisent2vecAligner,
  },
};

/** The siamese head's implementation: its options schema, the sentence encoders it opens, its training. */
export interface SiameseHeadParts {
  readonly options: typeof import('../../shared/aligner-options.ts').siameseOptionsSchema;
  readonly openEncoder: typeof import('../models/siamese/sentence-encoders.ts').openSentenceEncoder;
  readonly train: typeof import('../models/siamese/head.ts').trainSiameseHead;
}

/**
 * The siamese head (seed 004): an add-on trained on the sentence vectors of a family whose
 * capabilities give them, not a method of its own. `encoders` names each such family's saved
 * models as a spec's kind (`kind:DIR`; a Hugging Face folder is the encoder family's).
 */
export const SIAMESE_HEAD = {
  name: 'siamese-head',
  encoders: { bisent2vec: 'bisent2vec', bilstm: 'bilstm', encoder: 'hf' } satisfies Readonly<Record<SentenceVectorFamily, string>>,
  defaults: SIAMESE_DEFAULTS,
  load: async (): Promise<SiameseHeadParts> => {
    const [options, encoders, head] = await Promise.all([
      import('../../shared/aligner-options.ts'),
      import('../models/siamese/sentence-encoders.ts'),
      import('../models/siamese/head.ts'),
    ]);
    return { options: options.siameseOptionsSchema, openEncoder: encoders.openSentenceEncoder, train: head.trainSiameseHead };
  },
} as const;

/** "bisent2vec:DIR, bilstm:DIR, hf:DIR": the specs of the sentence encoders the siamese head sits on. */
export const sentenceEncoderSpecs = (): string =>
  Object.values(SIAMESE_HEAD.encoders)
    .map((k) => `${k}:DIR`)
    .join(', ');

/** The family and folder of a sentence encoder spec `kind:DIR` for the siamese head; a malformed spec is a one-line error. */
export function sentenceEncoderOf(spec: string): { family: SentenceVectorFamily; dir: string } {
  const at = spec.indexOf(':');
  const kind = spec.slice(0, Math.max(at, 0)),
    dir = spec.slice(at + 1);
  const family = (Object.keys(SIAMESE_HEAD.encoders) as SentenceVectorFamily[]).find((f) => SIAMESE_HEAD.encoders[f] === kind);
  if (at < 0 || !dir || !family) throw new UserError(`--encoder must be ${sentenceEncoderSpecs()}; got "${spec}"`);
  return { family, dir };
}

/** The registry entry of a method name (default: DEFAULT_METHOD); an unknown name is a one-line error listing the known ones. */
export function entryOf(name: string | undefined): { method: string; entry: FamilyEntry } {
  const info = methodInfo(name ?? DEFAULT_METHOD);
  if (!info) throw new UserError(`unknown method "${name}" (one of: ${methodNames().split('|').join(', ')})`);
  return { method: info.name, entry: REGISTRY[info.family] };
}

/** The Align job of a method's family (the app's Align… dialog). */
export async function alignJobOf(name: string): Promise<ProjectAligner> {
  const { method, entry } = entryOf(name);
  if (!entry.alignJob)
    throw new UserError(`${method} has no Align job (the Align… dialog's methods: ${list(methodsWith((c) => c.align && !c.train))})`);
  return entry.alignJob();
}

/** The Models page jobs of a method's family (train, re-align). */
export async function runJobsOf(name: string): Promise<RunJobs> {
  const { method, entry } = entryOf(name);
  if (!entry.runJobs) throw new UserError(`${method} does not train runs on the Models page`);
  return entry.runJobs();
}

/** "the neural methods (bilstm-ctl, bilstm)" for a family; a family of one method is named by it. */
function describe(family: MethodFamily): string {
  const names = METHODS.filter((m) => m.family === family).map((m) => m.name);
  return names.length === 1 ? names[0] : `${FAMILIES[family].noun} (${list(names)})`;
}

/** The one-line refusal of the first option in `given` the method's family does not read, or null. */
export function refusal(name: string, given: ReadonlySet<OptionKey>): string | null {
  const { method, entry } = entryOf(name);
  const key = (Object.keys(CLI_FLAGS) as OptionKey[]).find((k) => given.has(k) && !entry.reads.includes(k));
  if (key === undefined) return null;
  const flag = CLI_FLAGS[key];
  if (entry.notRead) return entry.notRead(flag, method);
  const readers = (Object.values(REGISTRY) as FamilyEntry[]).filter((e) => e.reads.includes(key)).map((e) => describe(e.family));
  return `${flag} is for ${readers.join(' and ')}`;
}

/** The family's aligner for a method and command, once the command is within its capabilities and every option given is one it reads. */
async function loaded(
  name: string | undefined,
  command: Command,
  given: ReadonlySet<OptionKey>,
): Promise<{ method: string; aligner: TextAligner }> {
  const { method, entry } = entryOf(name);
  if (!capabilitiesOf(method)[command] || !entry.load)
    throw new UserError(entry.cannot?.(command, method) ?? `${method} cannot ${command}`);
  const refused = refusal(method, given);
  if (refused) throw new UserError(refused);
  return { method, aligner: (await entry.load())(method) };
}

/** `mekong align`'s aligner of a method name (`given`: the options set on the command line); each refusal is one line. */
export async function alignerOf(name: string | undefined, given: ReadonlySet<OptionKey>): Promise<NonNullable<TextAligner['align']>> {
  const { method, aligner } = await loaded(name, 'align', given);
  if (!aligner.align) throw new Error(`${method}: its family's implementation does not align`);
  return aligner.align;
}

/** `mekong lexicon`'s lexicon learner of a method name (`given`: the options set on the command line); each refusal is one line. */
export async function lexiconOf(name: string | undefined, given: ReadonlySet<OptionKey>): Promise<NonNullable<TextAligner['lexicon']>> {
  const { method, aligner } = await loaded(name, 'lexicon', given);
  if (!aligner.lexicon) throw new Error(`${method}: its family's implementation learns no lexicon`);
  return aligner.lexicon;
}

/** The options of `o` set on the command line (not by a default): what a family must read or refuse. */
export function givenOptions(o: object, source: (key: string) => string | undefined): Set<OptionKey> {
  return new Set(
    (Object.keys(o) as OptionKey[]).filter((k) => Object.hasOwn(CLI_FLAGS, k) && source(k) !== 'default' && source(k) !== undefined),
  );
}
