// The BiLSTM family's aligner for `mekong align` and `mekong lexicon` (seed 003,
// models/bilstm/): --epochs, --gold (Pharaoh gold links of the first pairs, supervision
// through WTR and AWP with objective weights --weights, BILSTM_SUPERVISED_WEIGHTS with gold),
// from MIN_GOLD_PAIRS_TO_HOLD_OUT gold pairs on a share of them (--held-out, HELD_OUT_SHARE)
// held out to teach the link decision (link-classifier.ts), --save-model / --model /
// --continue (a saved model's parameters and vocabulary, which gains the words it lacks),
// --pseudo (another aligner's links, `i-j` or `i-j:score` as --scores writes them: on pairs
// without gold, those scoring at least --pseudo-threshold, LINK_THRESHOLD, supervise
// training: seed 000's pseudo-labels), --self-train N (N epochs more on the model's own
// links; by default shared/epochs.ts's, and 0 with --pseudo or --continue), --word-dropout
// α, --lr, --batch, --seed, --negatives inter|inter+intra and --pooling mean|max (seed 003's
// settings and Table V's ablation; --negatives only where the method has the contrastive
// loss), --device, --dict D with --dict-use prior|supervision|both (a prior of the
// extraction's EM, its 1-to-1 matches in a pair as supervision (the default), or both: method.ts).
// --heads shared|separate: one projection head of the contrastive loss or seed 003's g_q and g_k.
// The lexicon (--extraction, models/bilstm/word-translations.ts): em (default), t(t | s)·√t(s | t)
// of EM with agreement over the model's similarities times √p(t | s) of agree's forward table
// on the same pairs; csls or nn, the nearest words of the whole target vocabulary (seed 003's P@1).
import { readFileSync } from 'node:fs';
import { type BilstmOptions, hasContrastiveLoss } from '../../shared/aligner-options.ts';
import type { Link, LinkRef } from '../../shared/link-set.ts';
import { defaultSelfTrainEpochs } from '../../shared/epochs.ts';
import { LINK_THRESHOLD } from '../../shared/link-score.ts';
import type { NeuralMethodName } from '../../shared/methods.ts';
import type { DictEntry } from '../align/dictionary.ts';
import { toArrays } from '../align/sentences.ts';
import { parsePharaohText, readPharaoh } from '../corpus/pharaoh.ts';
import { numberOption } from '../cli/number-option.ts';
import { UserError } from '../errors.ts';
import { embedPairs, extractLinks } from '../models/bilstm/aligner.ts';
import { DICTIONARY_USE, type DictionaryUse, runNeuralMethod } from '../models/bilstm/method.ts';
import { loadNeuralModel, saveNeuralModel } from '../models/bilstm/bilstm-folder.ts';
import type { NeuralConfig } from '../models/bilstm/bilstm-train.ts';
import { type Negatives, type Pooling, PROJECTION_HEADS, type ProjectionHeads } from '../models/bilstm/contrastive.ts';
import { BILSTM_EXTRACTIONS, neuralLexicon, vocabularyLexicon } from '../models/bilstm/word-translations.ts';
import { bilstmOverrides } from './bilstm-options.ts';
import {
  type AlignerOptions,
  cliDictionary,
  epochsOption,
  extractionOption,
  PER_WORD,
  type ProgressDisplay,
  type TextAlignerFactory,
} from './text-aligner.ts';

/** The options of --epochs N, --weights base,awp,wtr, --word-dropout α, --lr and --batch, parsed (one-line errors naming the flag). */
function cliOptions(o: AlignerOptions): Partial<BilstmOptions> {
  const out: Partial<BilstmOptions> = {};
  out.epochs = epochsOption(o.epochs);
  if (o.weights !== undefined) {
    const w = o.weights.split(',').map(Number);
    if (w.length !== 3 || w.some((x) => !(x >= 0)))
      throw new UserError(`--weights must be three numbers ≥ 0 (base,awp,wtr), got "${o.weights}"`);
    out.weights = { base: w[0], awp: w[1], wtr: w[2] };
  }
  if (o.wordDropout !== undefined) {
    const a = Number(o.wordDropout);
    if (!(a >= 0 && a <= 100)) throw new UserError(`--word-dropout must be a number from 0 to 100, got "${o.wordDropout}"`);
    out.wordDropout = a;
  }
  if (o.lr !== undefined) out.lr = numberOption('--lr', o.lr, (x) => x > 0 && x <= 1, 'a number in (0, 1]');
  if (o.batch !== undefined)
    out.batchSize = numberOption('--batch', o.batch, (x) => Number.isInteger(x) && x >= 1 && x <= 512, 'a whole number from 1 to 512');
  return out;
}

const NEGATIVES: readonly Negatives[] = ['inter', 'inter+intra'];
const POOLINGS: readonly Pooling[] = ['mean', 'max'];

/** --seed, --negatives, --pooling and --heads: the network's settings outside the options schema (refused where the method has no contrastive loss to take negatives or heads). */
function networkOptions(method: NeuralMethodName, o: AlignerOptions): Partial<NeuralConfig> {
  const out: Partial<NeuralConfig> = {};
  if (o.seed !== undefined) out.seed = numberOption('--seed', o.seed, Number.isInteger, 'an integer');
  if (o.negatives !== undefined) {
    if (!hasContrastiveLoss(method))
      throw new UserError(`--negatives is for the contrastive loss of bilstm-ctl; ${method} trains without it`);
    if (!NEGATIVES.includes(o.negatives as Negatives))
      throw new UserError(`--negatives must be one of ${NEGATIVES.join(', ')}, got "${o.negatives}"`);
    out.negatives = o.negatives as Negatives;
  }
  if (o.pooling !== undefined) {
    if (!POOLINGS.includes(o.pooling as Pooling))
      throw new UserError(`--pooling must be one of ${POOLINGS.join(', ')}, got "${o.pooling}"`);
    out.pooling = o.pooling as Pooling;
  }
  if (o.heads !== undefined) {
    if (!hasContrastiveLoss(method)) throw new UserError(`--heads is for the contrastive loss of bilstm-ctl; ${method} trains without it`);
    if (!PROJECTION_HEADS.includes(o.heads as ProjectionHeads))
      throw new UserError(`--heads must be one of ${PROJECTION_HEADS.join(', ')}, got "${o.heads}"`);
    out.heads = o.heads as ProjectionHeads;
  }
  return out;
}

/** The configuration overrides of the command line: its options and --device. */
const overrides = (method: NeuralMethodName, o: AlignerOptions): Partial<NeuralConfig> => ({
  ...bilstmOverrides({ ...cliOptions(o), device: o.device }),
  ...networkOptions(method, o),
});

/**
 * Self-training epochs: --self-train N (0 or more), else the default for the corpus size
 * (shared/epochs.ts), unless --pseudo or --continue already say how this run is supervised.
 */
function selfTrainEpochs(o: AlignerOptions, pairs: number): number {
  const v = o.selfTrain;
  if (v === undefined) return defaultSelfTrainEpochs(pairs, { pseudoLabels: !!o.pseudo, continued: !!o.continue });
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--self-train must be a whole number of epochs (0 = none), got "${v}"`);
  return n;
}

/** --held-out: a share in [0, 1). */
function share(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (!(x >= 0 && x < 1)) throw new UserError(`--held-out must be a number in [0, 1), got "${v}"`);
  return x;
}

const tooLong = (file: string, lines: number, pairs: number) =>
  new UserError(`${file} has ${lines} lines but the corpus has ${pairs} pairs`);

function readGold(file: string, pairs: number): LinkRef[][] {
  const gold = parsePharaohText(readFileSync(file, 'utf8'), 0, file);
  if (gold.length > pairs) throw tooLong(file, gold.length, pairs);
  return gold.map((g) => g.map(({ s, t }) => ({ s, t })));
}

/** --pseudo: another aligner's links of the first pairs, with their scores (a link without one counts as certain). */
async function readPseudo(file: string, pairs: number): Promise<Link[][]> {
  const out: Link[][] = [];
  for await (const g of readPharaoh(file)) out.push(g.links);
  if (out.length > pairs) throw tooLong(file, out.length, pairs);
  return out;
}

/** --pseudo-threshold: a score in [0, 1], only with --pseudo or self-training. */
function pseudoThreshold(o: AlignerOptions, selfTrain: number): number {
  if (o.pseudoThreshold === undefined) return LINK_THRESHOLD;
  if (!o.pseudo && !selfTrain)
    throw new UserError('--pseudo-threshold is for the links of --pseudo or of self-training (--self-train): give one of them too');
  const x = Number(o.pseudoThreshold);
  if (!(x >= 0 && x <= 1)) throw new UserError(`--pseudo-threshold must be a number in [0, 1], got "${o.pseudoThreshold}"`);
  return x;
}

/** --dict and --dict-use for a neural method: the entries and how the run uses them (method.ts). */
function neuralDictionary(o: AlignerOptions): { dictionary?: DictEntry[]; dictionaryUse?: DictionaryUse } {
  const dictionary = cliDictionary(o, o.lowercase ?? false);
  if (o.dictUse !== undefined && !dictionary) throw new UserError('--dict-use says how to use the dictionary of --dict: give --dict too');
  return dictionary ? { dictionary, dictionaryUse: o.dictUse } : {};
}

async function alignBilstm(
  method: NeuralMethodName,
  src: string[][],
  tgt: string[][],
  o: AlignerOptions,
  display: ProgressDisplay,
): Promise<Link[][]> {
  if (o.model && o.continue) throw new UserError('--model aligns without training and --continue trains: give one of them');
  const training = o.pseudo ? '--pseudo' : o.selfTrain ? '--self-train' : null;
  if (o.model && training) throw new UserError(`--model aligns without training: ${training} would not be used`);
  const gold = o.gold ? readGold(o.gold, src.length) : undefined;
  if (o.model) {
    const saved = loadNeuralModel(o.model);
    const model = { ...saved, config: { ...saved.config, device: o.device } };
    const { dictionary } = neuralDictionary(o);
    return extractLinks(src, tgt, await embedPairs(model, src, tgt), { sym: o.sym, gold, decision: model.decision, dictionary });
  }
  const start = o.continue ? loadNeuralModel(o.continue) : undefined;
  const selfTrain = selfTrainEpochs(o, src.length);
  const threshold = pseudoThreshold(o, selfTrain);
  const modelLinks = o.pseudo ? await readPseudo(o.pseudo, src.length) : undefined;
  const data = {
    src,
    tgt,
    gold,
    modelLinks,
    threshold,
    heldOutShare: share(o.heldOut),
    selfTrainEpochs: selfTrain,
    ...neuralDictionary(o),
  };
  // one bar over the training's steps, then the self-training's (the fit loop's line: epoch, loss, speed, ETA)
  const r = await display('training', (ctx) => runNeuralMethod(method, data, overrides(method, o), { sym: o.sym, ctx }, start));
  if (o.saveModel) saveNeuralModel(o.saveModel, r.model);
  return r.links;
}

export const bilstmAligner: TextAlignerFactory = (name) => {
  const method = name as NeuralMethodName;
  return {
    align: (src, tgt, o, display) => alignBilstm(method, toArrays(src), toArrays(tgt), o, display),
    async lexicon(srcSide, tgtSide, o, display) {
      const [src, tgt] = [toArrays(srcSide), toArrays(tgtSide)];
      const extraction = extractionOption(o.extraction, method, BILSTM_EXTRACTIONS);
      const selfTrain = selfTrainEpochs(o, src.length);
      const dict = neuralDictionary(o);
      if (extraction !== 'em' && dict.dictionaryUse !== undefined && dict.dictionaryUse !== 'supervision')
        throw new UserError(
          `--dict-use ${dict.dictionaryUse} makes the dictionary a prior of the em extraction; --extraction ${extraction} has none`,
        );
      const data = { src, tgt, selfTrainEpochs: selfTrain, ...dict };
      const r = await display('training', (ctx) => runNeuralMethod(method, data, overrides(method, o), { ctx }));
      if (extraction !== 'em')
        return display('word translations', (ctx) => vocabularyLexicon(src, tgt, r.embeddings, extraction, PER_WORD, ctx));
      return neuralLexicon(
        src,
        tgt,
        r.embeddings,
        PER_WORD,
        (dict.dictionaryUse ?? DICTIONARY_USE) !== 'supervision' ? dict.dictionary : undefined,
      );
    },
  };
};
