// Every alignment method Mekong offers, named once: its family and what it is, for the CLI
// (`lexicon`: all of them; `align`: all but the families without word links), the app's
// Align… dialog (the statistical ones, which align in seconds, and the encoder methods when
// the project names an encoder folder) and the Models page (the neural ones, which train);
// the encoder methods read a pretrained encoder's folder (--encoder) and do not train; the
// fine-tuning method trains that encoder (the Models page, or `mekong finetune`); and
// the defaults of the neural methods' options, which the trainer, the CLI and the Train form
// share. Implementations are looked up by these names (src/main/aligners.ts).

export type MethodFamily = 'statistical' | 'bilstm' | 'encoder' | 'finetune' | 'bisent2vec';

export interface MethodInfo {
  readonly name: string;
  readonly family: MethodFamily;
  /** One line for a linguist choosing a method. */
  readonly summary: string;
}

export const METHODS = [
  { name: 'agree', family: 'statistical', summary: 'IBM1 then HMM, both directions trained in agreement (Liang et al. 2006); the default' },
  { name: 'ibm1', family: 'statistical', summary: 'IBM model 1: word translation probabilities only' },
  { name: 'ibm2', family: 'statistical', summary: 'IBM model 2 with a diagonal prior on positions (fast_align style)' },
  { name: 'hmm', family: 'statistical', summary: 'IBM1 then an HMM over jumps, each direction alone' },
  {
    name: 'bilstm-ctl',
    family: 'bilstm',
    summary: 'BiLSTM aligner with a contrastive loss that pulls translations together; trains on the pairs and your corrections',
  },
  { name: 'bilstm', family: 'bilstm', summary: 'the same BiLSTM aligner without the contrastive loss (λ = 0), the ablation baseline' },
  {
    name: 'simalign-argmax',
    family: 'encoder',
    summary: "SimAlign ArgMax over a pretrained encoder's word vectors: pairs of words that are each other's most similar",
  },
  {
    name: 'simalign-itermax',
    family: 'encoder',
    summary: 'SimAlign IterMax: ArgMax, then a second round among the words left unlinked (more links, more recall)',
  },
  { name: 'simalign-match', family: 'encoder', summary: 'SimAlign Match: the one-to-one assignment of largest total similarity' },
  {
    name: 'awesome',
    family: 'encoder',
    summary: "awesome-align's extraction: subwords linked where both directions' softmax pass a threshold (0.001)",
  },
  {
    name: 'awesome-entmax',
    family: 'encoder',
    summary: 'awesome-align with entmax15 in place of softmax: subwords linked where both directions give them weight',
  },
  { name: 'pmi-align', family: 'encoder', summary: 'PMI-Align: ArgMax over the pointwise mutual information of the similarities' },
  {
    name: 'encoder-finetune',
    family: 'finetune',
    summary:
      "fine-tunes the project's pretrained encoder on the pairs and your corrections (seed 000's TR, AWP, WTR; seed 001's RTL), then aligns with awesome-align's extraction",
  },
  {
    name: 'bisent2vec',
    family: 'bisent2vec',
    summary:
      'Bi-Sent2Vec: word and sentence vectors of both languages in one space, from the pairs (seed 002); word translations, no word links',
  },
] as const satisfies readonly MethodInfo[];

export type MethodName = (typeof METHODS)[number]['name'];

export const DEFAULT_METHOD: MethodName = 'agree';

/** The neural methods, as the Models page's schema enumerates them (first = its default). */
export const NEURAL_METHODS = ['bilstm-ctl', 'bilstm'] as const satisfies readonly MethodName[];
export type NeuralMethodName = (typeof NEURAL_METHODS)[number];

/** The method that fine-tunes the project's pretrained encoder (models/transformer/finetune.ts). */
export const FINETUNE_METHOD = 'encoder-finetune' satisfies MethodName;

/** What the Models page trains: the neural methods, then fine-tuning (offered when the project names an encoder folder). */
export const TRAINABLE_METHODS = [...NEURAL_METHODS, FINETUNE_METHOD] as const satisfies readonly MethodName[];
export type TrainableMethodName = (typeof TRAINABLE_METHODS)[number];

/** The methods that align with a pretrained encoder's folder, without training. */
export const ENCODER_METHODS = [
  'simalign-argmax',
  'simalign-itermax',
  'simalign-match',
  'awesome',
  'awesome-entmax',
  'pmi-align',
] as const satisfies readonly MethodName[];
export type EncoderMethodName = (typeof ENCODER_METHODS)[number];

/** The statistical methods, default first (the Align… dialog's list). */
export const STATISTICAL_METHODS: readonly MethodName[] = METHODS.filter((m) => m.family === 'statistical').map((m) => m.name);

const BY_NAME: ReadonlyMap<string, MethodInfo> = new Map(METHODS.map((m) => [m.name, m]));

/** The method called `name`, or undefined (own names only: `constructor` is no method). */
export function methodInfo(name: string | undefined): MethodInfo | undefined {
  return name === undefined ? undefined : BY_NAME.get(name);
}

export function isNeuralMethod(name: string | undefined): name is NeuralMethodName {
  return methodInfo(name)?.family === 'bilstm';
}

export function isEncoderMethod(name: string | undefined): name is EncoderMethodName {
  return methodInfo(name)?.family === 'encoder';
}

/** Families that learn word translations but no word links: `lexicon`, never `align`. */
const WITHOUT_LINKS: readonly MethodFamily[] = ['bisent2vec'];

/** Whether the method word-aligns (`align` accepts it). */
export const linksWords = (m: MethodInfo): boolean => !WITHOUT_LINKS.includes(m.family);

/** "agree|ibm1|…" for help texts: every method, or those `keep` accepts. */
export const methodNames = (keep: (m: MethodInfo) => boolean = () => true): string =>
  METHODS.filter(keep)
    .map((m) => m.name)
    .join('|');

/** Seed 000's TR, AWP, WTR and seed 001's RTL (models/transformer/finetune-objectives.ts). */
export const FINETUNE_OBJECTIVES = ['tr', 'awp', 'wtr', 'rtl'] as const;
export type FinetuneObjective = (typeof FINETUNE_OBJECTIVES)[number];

/**
 * Defaults of encoder-finetune (the Train form, `mekong finetune`): seed 000's objectives
 * and weights α / β / γ (its eq. 11: 0.8 / 0.1 / 0.1), seed 001's RTL weight δ = 1 when
 * RTL is chosen; one epoch at a peak rate of 5e-5 with 16 pairs a step, the seeds' and
 * awesome-align's fine-tuning settings.
 */
export const ENCODER_FINETUNE_DEFAULTS = {
  objectives: ['tr', 'awp', 'wtr'] as readonly FinetuneObjective[],
  alpha: 0.8,
  beta: 0.1,
  gamma: 0.1,
  delta: 1,
  epochs: 1,
  lr: 5e-5,
  batch: 16,
} as const;

/** Objective weights: base (translation + reconstruction, + contrastive), AWP, WTR. */
export interface ObjectiveWeights {
  base: number;
  awp: number;
  wtr: number;
}

/**
 * Defaults of the BiLSTM methods' trainable options. `epochs` and `selfTrainEpochs` are for
 * callers that spell them out; without them a run trains defaultEpochs(pairs) and self-trains
 * defaultSelfTrainEpochs(pairs) (epochs.ts). `supervisedWeights`
 * replace `weights` when a run has word-level supervision: held-out AER 0.329 on zh-en and
 * 0.264 on ro-en (200 gold pairs, 40 epochs, learned link decision) against 0.341 and 0.268
 * with seed 000's 0.8 / 0.1 / 0.1.
 */
export const BILSTM_DEFAULTS = {
  epochs: 20,
  dim: 128,
  batchSize: 32,
  lr: 5e-3,
  wordDropout: 1,
  temperature: 0.5,
  ctlWeight: 1,
  weights: { base: 1, awp: 0, wtr: 0 } as ObjectiveWeights,
  supervisedWeights: { base: 0.5, awp: 0.25, wtr: 0.25 } as ObjectiveWeights,
  selfTrainEpochs: 0,
  checkpointEvery: 1,
} as const;

/** What each neural method changes from the defaults. */
export const NEURAL_PRESETS: Readonly<Record<NeuralMethodName, { ctlWeight?: number }>> = {
  'bilstm-ctl': {},
  bilstm: { ctlWeight: 0 },
};
