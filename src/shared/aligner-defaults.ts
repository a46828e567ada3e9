// Every aligner family's option defaults (and the siamese head's), stated once. The
// families' zod schemas (aligner-options.ts) take their defaults from here, so a schema
// parses `{}` to these; the values live apart from the schemas so that what needs only a
// default — the EM's worker threads, the CLI's help texts on a statistical run — loads no zod.

/** The symmetrisation that joins the two directions' links (statistical and BiLSTM methods): grow-diag-final-and. */
export const DEFAULT_SYM = 'gdfa';

/** The statistical methods' (their EM stages and iterations: each method's training plan, align/train-plans.ts). */
export const STATISTICAL_DEFAULTS = {
  sym: DEFAULT_SYM,
  /** the posterior a link needs under the `post` symmetrisation */
  threshold: 0.5,
  lowercase: false,
  byCharacter: false,
  /** EM's prior pseudo-count for a word pair of the same NFKC form */
  identity: 1,
};

/** The encoder methods' (the layer's default is the encoder's own: models/transformer/hf-config.ts defaultAlignLayer). */
export const ENCODER_DEFAULTS = {
  /** awesome: the probability both directions' softmaxes must give a subword pair (awesome-align's) */
  threshold: 1e-3,
  /** SimAlign's word vectors: the mean of their subwords' */
  pooling: 'mean' as const,
  /**
   * SimAlign: similarities between words (their subwords averaged first) rather than between
   * subwords as SimAlign's own default (`bpe`): no pretrained encoder here to measure which
   * aligns better (docs/experiments.md, 2026-11-28), so the behaviour stays as it was
   */
  tokenType: 'word' as 'bpe' | 'word',
  /** SimAlign's null-align share: 1 removes no link */
  nullAlign: 1,
  /** SimAlign's distortion: 0 leaves the similarities as they are */
  distortion: 0,
};

/**
 * Bi-Sent2Vec's, for corpora of 10⁴–10⁵ pairs (seed 002 trained 300 dimensions, 5 epochs,
 * lr 0.2, 10 negatives, t = 5·10⁻⁶, words seen 5–8 times, on millions of pairs), chosen on
 * the bench's en–fr split: character 4-grams give the best retrieval P@1 and mining F1 of the
 * n-gram sizes tried, at a third of the speed without them; bigrams lowered both (seed 002
 * too saw them hurt on dissimilar pairs). Every value tried: docs/experiments.md.
 */
export const BISENT2VEC_DEFAULTS = {
  dim: 100,
  epochs: 5,
  lr: 0.2,
  negatives: 10,
  minCount: 1,
  bigrams: false,
  charN: 4,
  subsample: 1e-4,
  seed: 1,
  tfidf: false,
  lexicalWeight: 0.1,
};

/**
 * The siamese head's (seed 004). `negatives`: each positive's mismatch is a random other
 * target, the batch's hardest (seed 004's "worst", Table 13), or the mismatch term averaged
 * over the batch's other targets (its "average"); measured on Tatoeba vie–eng:
 * docs/experiments.md.
 */
export const SIAMESE_DEFAULTS = {
  dropout: 0.2,
  margin: 1,
  lr: 1e-4,
  epochs: 10,
  batch: 64,
  seed: 1,
  negatives: 'hard' as 'random' | 'hard' | 'average',
};

/**
 * The BiLSTM methods' (seed 003). `epochs` and `selfTrainEpochs` are for callers that spell
 * them out; without them a run trains defaultEpochs(pairs) and self-trains
 * defaultSelfTrainEpochs(pairs) (epochs.ts). `weights` is the objective weights of a run
 * without word-level supervision; with it, BILSTM_SUPERVISED_WEIGHTS.
 */
export const BILSTM_DEFAULTS = {
  epochs: 20,
  weights: { base: 1, awp: 0, wtr: 0 },
  ctlWeight: 1,
  temperature: 0.5,
  dim: 128,
  lr: 5e-3,
  batchSize: 32,
  wordDropout: 1,
  selfTrainEpochs: 0,
  checkpointEvery: 1,
};

/**
 * The objective weights that replace `weights`' default when a run has word-level
 * supervision: held-out AER 0.329 on zh-en and 0.264 on ro-en (200 gold pairs, 40 epochs,
 * learned link decision) against 0.341 and 0.268 with seed 000's 0.8 / 0.1 / 0.1.
 */
export const BILSTM_SUPERVISED_WEIGHTS = { base: 0.5, awp: 0.25, wtr: 0.25 };

/**
 * encoder-finetune's: seed 000's objectives and weights α / β / γ (its eq. 11: 0.8 / 0.1 /
 * 0.1), seed 001's RTL weight δ = 1 when RTL is chosen, awesome-align's SO weight ε = 1; one epoch at a peak rate of 5e-5 with
 * 16 pairs a step, the seeds' and awesome-align's fine-tuning settings. TR's sentence vector is
 * the [CLS] state and its similarity cos/0.05 (seed 000's contrastive temperature); RTL's head
 * starts from the last 2 layers and reconstructs the target; AWP masks 4 copies of each
 * sentence a step; pairs without gold learn from awesome-align's links of probability ≥ 0.9.
 * Under `tr,rtl` alone TR weighs 1 (defaultTrWeight). No cap on the subwords of a sentence
 * but the encoder's positions and no step count but the epochs', unless asked.
 */
export const ENCODER_FINETUNE_DEFAULTS = {
  objectives: ['tr', 'awp', 'wtr'] as const,
  alpha: 0.8,
  beta: 0.1,
  gamma: 0.1,
  delta: 1,
  /** SO's weight (awesome-align adds it at 1 beside its other objectives) */
  epsilon: 1,
  batch: 16,
  languageEmbeddings: false,
  epochs: 1,
  lr: 5e-5,
  sentence: 'cls' as 'cls' | 'mean',
  temperature: 0.05,
  rtlLayers: 2,
  rtlDirection: 'src-to-tgt' as 'src-to-tgt' | 'tgt-to-src',
  awpMasks: 4,
  supervisionMethod: 'awesome' as const,
  threshold: 0.9,
  freezeEmbeddings: false,
  seed: 1,
  /** dropout during training at the rates the encoder's config.json gives (hidden_dropout_prob, attention_probs_dropout_prob), as transformers trains */
  dropout: true,
  /** micro-batches of `batch` pairs whose gradients make one optimiser step */
  accumulate: 1,
  /** how a run's checkpoints are ranked: dev AER (lower is better) or dev retrieval P@1 (higher) */
  selectBy: 'aer' as 'aer' | 'retrieval',
  /** the aligner's links of pairs without gold: found once before training, or again with the current weights before each step (awesome-align's self-training) */
  soLabels: 'fixed' as 'fixed' | 'recomputed',
};

/**
 * TR's weight α when the run does not give one: seed 001's eq. 7 (L = L_TR + L_RTL) when the
 * objectives are exactly TR and RTL, seed 000's 0.8 otherwise.
 */
export function defaultTrWeight(objectives: readonly string[]): number {
  const dap = objectives.length === 2 && objectives.includes('tr') && objectives.includes('rtl');
  return dap ? 1 : ENCODER_FINETUNE_DEFAULTS.alpha;
}

/**
 * How long a fine-tuning of `pairs` pairs runs: an epoch is a step per `batch` × `accumulate`
 * pairs; without `maxSteps`, `epochs` of them; with it, as many as the steps need (at most
 * `epochs` when given), the last one cut where the steps end.
 */
export function finetuneEpochs(
  pairs: number,
  o: { epochs?: number; maxSteps?: number; batch?: number; accumulate?: number },
): { epochs: number; stepsPerEpoch: number } {
  const batch = o.batch ?? ENCODER_FINETUNE_DEFAULTS.batch;
  const stepsPerEpoch = Math.ceil(pairs / (batch * (o.accumulate ?? ENCODER_FINETUNE_DEFAULTS.accumulate)));
  const epochs =
    o.maxSteps === undefined
      ? (o.epochs ?? ENCODER_FINETUNE_DEFAULTS.epochs)
      : Math.min(o.epochs ?? Infinity, Math.ceil(o.maxSteps / stepsPerEpoch));
  return { epochs, stepsPerEpoch };
}
