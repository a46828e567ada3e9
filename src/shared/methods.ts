// The aligner registry's shared half: every alignment method Mekong offers, named once with
// its family, and what each family can do (its capabilities). The renderer (the Align…
// dialog, the Train… form, the Models page) and the Node side both read it; each family's
// options schema is in aligner-options.ts and its defaults in aligner-defaults.ts, and the
// Node half of the registry (src/main/aligners/registry.ts) adds each family's
// implementations, the CLI options it reads and the siamese head, an add-on of the families
// with sentence vectors. Code outside the registry and a family's own folder asks for a
// capability (capabilitiesOf, methodsWith), never for a method's name or family.
import { ENCODER_DEFAULTS } from './aligner-defaults.ts';

export type MethodFamily = 'statistical' | 'bilstm' | 'encoder' | 'finetune' | 'bisent2vec';

/** What a family's methods can do. */
export interface Capabilities {
  /** Word-aligns a parallel text into links with scores (`mekong align`). */
  readonly align: boolean;
  /** Learns a word-translation lexicon (`mekong lexicon`). */
  readonly lexicon: boolean;
  /** Trains as a model run with checkpoints (the Models page, models.train); a method that aligns without one is an Align job of the Align… dialog. */
  readonly train: boolean;
  /** A run can continue from another run's checkpoint. */
  readonly continue: boolean;
  /** Gives sentence vectors (a sentence encoder under the siamese head, scoring and mining). */
  readonly sentenceVectors: boolean;
  /** Saves what it trained and aligns or continues from the saved folder. */
  readonly saveLoad: boolean;
  /** Reads a pretrained encoder's folder (the project's, or --encoder); its checkpoints are such folders too. */
  readonly pretrainedEncoder: boolean;
  /** Its links join two directions through a symmetrisation (sym). */
  readonly symmetrises: boolean;
  /** Runs onnxruntime sessions (trains or encodes): its process wants malloc set for their tensors (bin/malloc-tuning.js). */
  readonly onnx: boolean;
}

export interface FamilyInfo {
  /** How messages name the family's methods ("is for the neural methods (…)"). */
  readonly noun: string;
  readonly capabilities: Capabilities;
  /** The method a trained model of the family aligns with (a fine-tuned encoder's folder is aligned by an encoder method). */
  readonly alignsWith?: EncoderMethodName;
}

const none: Capabilities = {
  align: false,
  lexicon: false,
  train: false,
  continue: false,
  sentenceVectors: false,
  saveLoad: false,
  pretrainedEncoder: false,
  symmetrises: false,
  onnx: false,
};

export const FAMILIES = {
  statistical: {
    noun: 'the statistical methods',
    capabilities: { ...none, align: true, lexicon: true, saveLoad: true, symmetrises: true },
  },
  bilstm: {
    noun: 'the neural methods',
    capabilities: {
      ...none,
      align: true,
      lexicon: true,
      train: true,
      continue: true,
      sentenceVectors: true,
      saveLoad: true,
      symmetrises: true,
      onnx: true,
    },
  },
  encoder: {
    noun: 'the encoder methods',
    capabilities: { ...none, align: true, sentenceVectors: true, pretrainedEncoder: true, onnx: true },
  },
  finetune: {
    noun: 'encoder fine-tuning',
    capabilities: { ...none, train: true, saveLoad: true, pretrainedEncoder: true, onnx: true },
    // seed 000 and awesome-align align this way after fine-tuning
    alignsWith: 'awesome',
  },
  bisent2vec: {
    noun: 'bisent2vec',
    capabilities: { ...none, lexicon: true, sentenceVectors: true, saveLoad: true, onnx: true },
  },
} as const satisfies Readonly<Record<MethodFamily, FamilyInfo>>;

/** The families whose capabilities give sentence vectors: what the siamese head, an add-on, sits on (aligners/registry.ts SIAMESE_HEAD). */
export type SentenceVectorFamily = {
  [F in MethodFamily]: (typeof FAMILIES)[F]['capabilities']['sentenceVectors'] extends true ? F : never;
}[MethodFamily];

export interface MethodInfo {
  readonly name: string;
  readonly family: MethodFamily;
  /** One line for a linguist choosing a method. */
  readonly summary: string;
  /** How the Train… form lists it, when not by its name. */
  readonly label?: string;
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
    label: 'Neural aligner trained on your corrections (bilstm-ctl)',
  },
  {
    name: 'bilstm',
    family: 'bilstm',
    summary: 'the same BiLSTM aligner without the contrastive loss (λ = 0), the ablation baseline',
    label: 'The same neural aligner without the contrastive loss (bilstm)',
  },
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
    summary: `awesome-align's extraction: subwords linked where both directions' softmax pass a threshold (${ENCODER_DEFAULTS.threshold})`,
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
    label: "Fine-tune the project's pretrained encoder (encoder-finetune)",
  },
  {
    name: 'bisent2vec',
    family: 'bisent2vec',
    summary:
      'Bi-Sent2Vec: word and sentence vectors of both languages in one space, from the pairs (seed 002); word translations, no word links',
  },
] as const satisfies readonly MethodInfo[];

export type MethodName = (typeof METHODS)[number]['name'];
/** The names of one family's methods (for the family's own code). */
export type MethodOfFamily<F extends MethodFamily> = Extract<(typeof METHODS)[number], { family: F }>['name'];
export type NeuralMethodName = MethodOfFamily<'bilstm'>;
export type EncoderMethodName = MethodOfFamily<'encoder'>;

export const DEFAULT_METHOD: MethodName = 'agree';
/** `mekong lexicon`'s default: the BiLSTM's word translations are the best of the methods that learn a lexicon. */
export const DEFAULT_LEXICON_METHOD: MethodName = 'bilstm-ctl';

const BY_NAME: ReadonlyMap<string, MethodInfo> = new Map(METHODS.map((m) => [m.name, m]));

/** The method called `name`, or undefined (own names only: `constructor` is no method). */
export function methodInfo(name: string | undefined): MethodInfo | undefined {
  return name === undefined ? undefined : BY_NAME.get(name);
}

/** What the method called `name` can do (an unknown name can do nothing). */
export function capabilitiesOf(name: string | undefined): Capabilities {
  const m = methodInfo(name);
  return m ? FAMILIES[m.family].capabilities : none;
}

/** The names of the methods whose capabilities `keep` accepts, in METHODS' order. */
export function methodsWith(keep: (c: Capabilities) => boolean): MethodName[] {
  return METHODS.filter((m) => keep(FAMILIES[m.family].capabilities)).map((m) => m.name);
}

/** "agree|ibm1|…" for help texts: every method, or those whose capabilities `keep` accepts. */
export const methodNames = (keep: (c: Capabilities) => boolean = () => true): string => methodsWith(keep).join('|');

/** What the Models page trains (models.train's `method`, first = its default): the methods that train as runs. */
export const TRAINABLE_METHODS = methodsWith((c) => c.train) as [MethodName, ...MethodName[]];
export type TrainableMethodName = MethodName;

/** The Align… dialog's methods that align without training a run and without a pretrained encoder, default first. */
export const ALIGN_JOB_METHODS = methodsWith((c) => c.align && !c.train && !c.pretrainedEncoder);

/** The methods that align with a pretrained encoder's folder, without training (the Align… dialog when the project names one; the fine-tuning's supervision). */
export const ENCODER_ALIGN_METHODS = methodsWith((c) => c.align && !c.train && c.pretrainedEncoder) as [
  EncoderMethodName,
  ...EncoderMethodName[],
];

/** One symmetrisation as the forms list it: its name, the short name also accepted (CLI), what it keeps. */
export interface SymmetrisationChoice {
  readonly name: string;
  readonly short?: string;
  readonly hint: string;
}

/**
 * The symmetrisations that join the two directions' links (align/symmetrise.ts implements
 * them), each once, the usual default (grow-diag-final-and, short gdfa) first.
 */
export const SYMMETRISATION_CHOICES: readonly SymmetrisationChoice[] = [
  { name: 'grow-diag-final-and', short: 'gdfa', hint: 'agreed links grown to neighbours, then links whose two words are both unaligned' },
  { name: 'grow-diag-final', short: 'gdf', hint: 'agreed links grown to neighbours, then links with either word unaligned' },
  { name: 'grow-diag', hint: 'links both directions agree on, grown to their neighbours' },
  { name: 'intersect', hint: 'only links both directions agree on: precise, sparse' },
  { name: 'union', hint: 'links of either direction: dense' },
  { name: 'fwd', hint: 'the source → target direction alone' },
  { name: 'rev', hint: 'the target → source direction alone' },
  { name: 'post', hint: 'links whose mean posterior reaches the threshold' },
];

/** The listed name of a symmetrisation given by either name (`gdfa` → `grow-diag-final-and`). */
export function symmetrisationName(sym: string): string {
  return SYMMETRISATION_CHOICES.find((s) => s.short === sym)?.name ?? sym;
}
