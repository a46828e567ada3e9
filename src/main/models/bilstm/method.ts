// The neural alignment methods offered next to the statistical ones (CLI --method): each
// is a configuration of the neural aligner. Word-level supervision per pair is its gold
// links where a linguist gave them, else a previous model's links scoring at least the
// threshold (default 0.9, seed 000); any supervision switches on the word-level objectives
// with SUPERVISED_WEIGHTS (train.ts) unless the caller gives its own. From
// MIN_GOLD_PAIRS_TO_HOLD_OUT gold pairs on, an evenly spread share of them (HELD_OUT_SHARE)
// is held out of training: the model never sees their links, so its signals on them are
// what it will show on new pairs, and the link decision (aligner.ts, link-classifier.ts) is
// learned from them.
// Self-training (selfTrainEpochs > 0): once trained, the model aligns the corpus and trains
// that many epochs more from where it stands, its own links scoring at least the threshold
// supervising the pairs without gold — seed 000's pseudo-labels, taken from the model's own
// EM-refined alignment instead of an external aligner. Tatoeba x→en P@1 (20 epochs, then 10
// self-training epochs at 0.9; `npm run bench -- neural --self-train 10 --seeds 1,2,3`, mean ±
// sd of three models): vi 0.607 ± 0.005 → 0.608 ± 0.006, id 0.683 ± 0.004 → 0.687 ± 0.004, zh
// 0.624 ± 0.007 → 0.650 ± 0.005, th 0.645 ± 0.015 → 0.645 ± 0.016 (the neural tables alone);
// its 10 epochs take 1.5–1.8× as long as the first 20. Callers pass the default for the corpus
// size (shared/epochs.ts: on for up to 1,000 pairs). Other variants: docs/experiments.md.
//   bilstm-ctl  Wada et al. + multi-view contrastive loss (seed 003)
//   bilstm      Wada et al. alone (λ = 0), the ablation baseline
import type { Link } from '../../../shared/domain.ts';
import type { DictEntry } from '../../align/dictionary.ts';
import { dictionaryIndex, dictionaryLinks } from '../../align/dictionary-links.ts';
import { alignNeural, extractLinks, type NeuralAlignResult } from './aligner.ts';
import type { Embedder } from './embedder.ts';
import { type NeuralConfig, type NeuralModel, SUPERVISED_WEIGHTS, type TrainData, type TrainHooks } from './train.ts';
import { HELD_OUT_SHARE, heldOutPairs } from './held-out.ts';
import type { PairLinks } from './vocab.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';
import { NEURAL_PRESETS, type NeuralMethodName } from '../../../shared/methods.ts';

/**
 * The configuration a neural method trains with, the one place both the CLI and the Models
 * page build it: the method's preset (shared/methods.ts), the supervised objective weights
 * when the run has word-level supervision (gold, pseudo or rejected links; the
 * rejected-link loss rides on the WTR weight), then the caller's overrides.
 */
export function methodConfig(name: NeuralMethodName, supervised: boolean, overrides: Partial<NeuralConfig> = {}): Partial<NeuralConfig> {
  return { ...NEURAL_PRESETS[name], ...(supervised ? { weights: SUPERVISED_WEIGHTS } : {}), ...overrides };
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
 * (align/dictionary-links.ts), or both. Supervision by default: on Tatoeba th–en (548 pairs,
 * half of the MUSE dictionary given, P@1 on the other half's words, seeds 1–3; `npm run bench
 * -- neural --p1 tha --seeds 1,2,3 --dict prior,supervision,both`) bilstm-ctl 0.608 ± 0.006,
 * with the dictionary as supervision 0.615 ± 0.022, as prior 0.597 ± 0.012, both 0.605 ±
 * 0.017 (agree 0.614, agree with the dictionary as its prior 0.607).
 */
export type DictionaryUse = 'prior' | 'supervision' | 'both';
export const DICTIONARY_USE: DictionaryUse = 'supervision';

/** Gold links where given, else model links at or above the threshold together with the dictionary's 1-to-1 matches (when it supervises). */
export function supervision(d: CorrectionData): PairLinks[] | undefined {
  const use = d.dictionaryUse ?? DICTIONARY_USE;
  const dict = d.dictionary?.length && use !== 'prior' ? dictionaryLinks(d.src, d.tgt, dictionaryIndex(d.dictionary)) : undefined;
  if (!d.gold && !d.modelLinks && !dict) return undefined;
  const th = d.threshold ?? LINK_THRESHOLD;
  return d.src.map((_, k) => {
    if (d.gold?.[k]?.length) return d.gold[k];
    const model = d.modelLinks?.[k]?.filter((l) => (l.score ?? 1) >= th);
    if (!dict?.[k].length) return model;
    const have = new Set(model?.map((l) => `${l.s}-${l.t}`));
    return [...(model ?? []), ...dict[k].filter((l) => !have.has(`${l.s}-${l.t}`))];
  });
}

/** Trains the named method on the data (gold links, if any, as supervision; from `start` if given) and aligns it. */
export async function runNeuralMethod(
  name: NeuralMethodName,
  data: CorrectionData,
  overrides: Partial<NeuralConfig> = {},
  hooks: TrainHooks & { sym?: string } = {},
  start?: NeuralModel,
): Promise<NeuralAlignResult> {
  const held = heldOutPairs(data.gold, data.heldOutShare ?? HELD_OUT_SHARE);
  const trainGold = data.gold?.map((g, k) => (held[k] ? undefined : g));
  const sup = supervision({ ...data, gold: trainGold })?.map((s, k) => (held[k] ? undefined : s));
  const supervised = sup?.some((g) => g?.length) ?? false;
  const config = methodConfig(name, supervised, overrides);
  const heldOut = held.includes(true) ? data.gold?.map((g, k) => (held[k] ? g : undefined)) : undefined;
  const prior = (data.dictionaryUse ?? DICTIONARY_USE) !== 'supervision' ? data.dictionary : undefined;
  const r = await alignNeural(
    { src: data.src, tgt: data.tgt, gold: sup, rejected: data.rejected },
    config,
    { ...hooks, gold: trainGold, heldOut, dictionary: prior },
    start,
  );
  const result = { ...r, links: r.links.map((ls, k) => withGold(ls, data.gold?.[k])) };
  return data.selfTrainEpochs ? selfTrain(name, data, result, overrides, hooks) : result;
}

/** The self-training that follows a training (`trained`): data.selfTrainEpochs more epochs from its model, its links as pseudo-labels. */
export async function selfTrain(
  name: NeuralMethodName,
  data: CorrectionData,
  trained: NeuralAlignResult,
  overrides: Partial<NeuralConfig> = {},
  hooks: TrainHooks & { sym?: string } = {},
): Promise<NeuralAlignResult> {
  const epochs = data.selfTrainEpochs ?? 0;
  const again = await runNeuralMethod(
    name,
    { ...data, modelLinks: trained.links, selfTrainEpochs: 0 },
    { ...overrides, epochs },
    hooks,
    trained.model,
  );
  // the saved config: the self-training's (its objective weights), with the first training's epochs
  again.model.config = { ...again.model.config, epochs: trained.model.config.epochs, selfTrainEpochs: epochs };
  return again;
}

/** A pair's model links with its gold links added (score 1), sorted by (s, t). */
function withGold(links: Link[], gold: PairLinks): Link[] {
  if (!gold?.length) return links;
  const have = new Set(links.map((l) => `${l.s}-${l.t}`));
  const extra = gold.filter((g) => !have.has(`${g.s}-${g.t}`)).map((g): Link => ({ s: g.s, t: g.t, kind: 'sure', score: 1 }));
  return [...links, ...extra].sort((a, b) => a.s - b.s || a.t - b.t);
}

/**
 * Self-training's pseudo-labels when the model's links are not at hand (the Models page's
 * worker, after the epochs): the trained model aligns the training pairs — its embeddings,
 * then the extraction's EM (which counts the pairs' known links) and gdfa — and its links
 * at or above the threshold supervise the pairs without any, as selfTrain's do. Evaluation
 * pairs (`skip`) are left out: their curve must stay a measure of pairs the model never
 * learned links of.
 */
export async function pseudoLabelled(
  embedder: Embedder,
  model: NeuralModel,
  data: TrainData,
  o: { threshold: number; skip: readonly number[] },
  onProgress: (done: number, total: number, phase: string) => void,
): Promise<TrainData> {
  const skip = new Set(o.skip);
  const todo = data.src.flatMap((s, k) => (s.length && data.tgt[k].length && !skip.has(k) ? [k] : []));
  const [src, tgt] = [todo.map((k) => data.src[k]), todo.map((k) => data.tgt[k])];
  const e = await embedder.embed(model, src, tgt, (done) => onProgress(done, todo.length, 'self-training: embedding the pairs'));
  const found = extractLinks(src, tgt, e, {
    gold: todo.map((k) => data.gold?.[k]),
    onProgress: (d, n, what) => onProgress(d, n, `self-training: ${what}`),
  });
  const links: Link[][] = data.src.map(() => []);
  todo.forEach((k, n) => (links[k] = found[n]));
  return { ...data, gold: supervision({ ...data, modelLinks: links, threshold: o.threshold }) };
}
