// The neural alignment methods offered next to the statistical ones (CLI --method): each
// is a configuration of the neural aligner. Word-level supervision per pair is its gold
// links where a linguist gave them, else a previous model's links scoring at least the
// threshold (default 0.9, seed 000); any supervision switches on the word-level objectives
// with SUPERVISED_WEIGHTS (bilstm-train.ts) unless the caller gives its own. From
// MIN_GOLD_PAIRS_TO_HOLD_OUT gold pairs on, an evenly spread share of them (HELD_OUT_SHARE)
// is held out of training: the model never sees their links, so its signals on them are
// what it will show on new pairs, and the link decision (aligner.ts, link-classifier.ts) is
// learned from them.
// Self-training (selfTrainEpochs > 0; train-and-self-train.ts, the one orchestration the
// Models page runs too): once trained, the model aligns the training pairs and trains that
// many epochs more from where it stands, its own links scoring at least the threshold
// supervising the pairs without gold — seed 000's pseudo-labels, taken from the model's own
// EM-refined alignment instead of an external aligner; it raises Tatoeba P@1 most on Chinese
// and costs 1.5–1.8× the time of the first 20 epochs. Callers pass the default for the corpus
// size (shared/epochs.ts: on for up to 1,000 pairs). Figures and variants: docs/experiments.md.
//   bilstm-ctl  Wada et al. + multi-view contrastive loss (seed 003)
//   bilstm      Wada et al. alone (λ = 0), the ablation baseline
import { keySet, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import { withCorrections } from '../../align/corrections.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { dictionaryIndex, dictionaryLinks } from '../../align/dictionary-links.ts';
import { extractLinks, learnLinkDecision, type NeuralAlignResult } from './aligner.ts';
import { Embedder } from './embedder.ts';
import { type NeuralConfig, type NeuralModel, SUPERVISED_WEIGHTS, type TrainData } from './bilstm-train.ts';
import { trainAndSelfTrain, type TrainAndSelfTrainHooks } from './train-and-self-train.ts';
import { HELD_OUT_SHARE, heldOutPairs } from './held-out.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';
import { BILSTM_PRESETS } from '../../../shared/aligner-options.ts';
import type { NeuralMethodName } from '../../../shared/methods.ts';

/**
 * The configuration a neural method trains with, the one place both the CLI and the Models
 * page build it: the method's preset (shared/aligner-options.ts), the supervised objective weights
 * when the run has word-level supervision (gold, pseudo or rejected links; the
 * rejected-link loss rides on the WTR weight), then the caller's overrides.
 */
export function methodConfig(name: NeuralMethodName, supervised: boolean, overrides: Partial<NeuralConfig> = {}): Partial<NeuralConfig> {
  return { ...BILSTM_PRESETS[name], ...(supervised ? { weights: SUPERVISED_WEIGHTS } : {}), ...overrides };
}

export interface CorrectionData extends TrainData {
  /** a previous model run's links per pair (scores are confidences) */
  modelLinks?: readonly (readonly Link[] | undefined)[];
  threshold?: number;
  /** share of the gold pairs held out of training to teach the link decision (default HELD_OUT_SHARE) */
  heldOutShare?: number;
  /** epochs of self-training after the training (default 0: none) */
  selfTrainEpochs?: number;
  /** a bilingual dictionary: a prior of the extraction's EM, and its 1-to-1 matches in a pair as supervision (DICTIONARY_USE) */
  dictionary?: readonly DictEntry[];
  dictionaryUse?: DictionaryUse;
}

/**
 * How a neural run uses a dictionary: as the extraction EM's prior, as supervision
 * (align/dictionary-links.ts), or both. Supervision by default: on Tatoeba th–en and zh–en it
 * is the use that lifts P@1 on the words the dictionary does not give (docs/experiments.md).
 */
export type DictionaryUse = 'prior' | 'supervision' | 'both';
export const DICTIONARY_USE: DictionaryUse = 'supervision';

/** Gold links where given, else model links at or above the threshold together with the dictionary's 1-to-1 matches (when it supervises). */
export function supervision(d: CorrectionData): (readonly LinkRef[] | undefined)[] | undefined {
  const use = d.dictionaryUse ?? DICTIONARY_USE;
  const dict = d.dictionary?.length && use !== 'prior' ? dictionaryLinks(d.src, d.tgt, dictionaryIndex(d.dictionary)) : undefined;
  if (!d.gold && !d.modelLinks && !dict) return undefined;
  const th = d.threshold ?? LINK_THRESHOLD;
  return d.src.map((_, k) => {
    if (d.gold?.[k]?.length) return d.gold[k];
    const model = d.modelLinks?.[k]?.filter((l) => (l.score ?? 1) >= th);
    if (!dict?.[k].length) return model;
    const have = keySet(model ?? []);
    return [...(model ?? []), ...dict[k].filter((l) => !have.has(linkKey(l.s, l.t)))];
  });
}

/**
 * Trains the named method on the data (gold links, if any, as supervision; from `start` if
 * given), self-trains it if asked (train-and-self-train.ts, as the Models page does), and
 * aligns the pairs: the extraction's EM counts the gold the model trained on, the link
 * decision is learned from the held-out gold, and every gold link is kept.
 */
export async function runNeuralMethod(
  name: NeuralMethodName,
  data: CorrectionData,
  overrides: Partial<NeuralConfig> = {},
  hooks: Pick<TrainAndSelfTrainHooks, 'ctx' | 'onEvent'> & { sym?: string } = {},
  start?: NeuralModel,
): Promise<NeuralAlignResult> {
  const held = heldOutPairs(data.gold, data.heldOutShare ?? HELD_OUT_SHARE);
  const trainGold = data.gold?.map((g, k) => (held[k] ? undefined : g));
  const sup = supervision({ ...data, gold: trainGold })?.map((s, k) => (held[k] ? undefined : s));
  const supervised = sup?.some((g) => g?.length) ?? false;
  const heldOut = held.includes(true) ? data.gold?.map((g, k) => (held[k] ? g : undefined)) : undefined;
  const prior = (data.dictionaryUse ?? DICTIONARY_USE) !== 'supervision' ? data.dictionary : undefined;
  const selfTrainEpochs = data.selfTrainEpochs ?? 0;
  const embedder = new Embedder();
  try {
    const model = await trainAndSelfTrain(
      {
        data: { src: data.src, tgt: data.tgt, gold: sup, rejected: data.rejected },
        config: methodConfig(name, supervised, overrides),
        // self-training always has word-level signal (its pseudo-labels): the supervised weights unless the caller gave some
        selfTrain: selfTrainEpochs
          ? { config: methodConfig(name, true, { ...overrides, epochs: selfTrainEpochs }), threshold: data.threshold ?? LINK_THRESHOLD }
          : undefined,
        heldOut: held.flatMap((h, k) => (h ? [k] : [])),
        start,
      },
      { ctx: hooks.ctx, onEvent: hooks.onEvent, embedder },
    );
    const embeddings = await embedder.embed(model, data.src, data.tgt);
    const extract = { sym: hooks.sym, gold: trainGold, heldOut, dictionary: prior };
    model.decision = learnLinkDecision(data.src, data.tgt, embeddings, extract) ?? undefined;
    const links = extractLinks(data.src, data.tgt, embeddings, { ...extract, decision: model.decision });
    const gold = (k: number) => data.gold?.[k]?.map((g): Link => ({ s: g.s, t: g.t, kind: 'sure', score: null }));
    return { model, embeddings, links: links.map((ls, k) => withCorrections(ls, gold(k), data.rejected?.[k])) };
  } finally {
    await embedder.release();
  }
}
