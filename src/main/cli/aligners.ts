// The aligners behind the method names of shared/methods.ts, one interface for all, as the
// CLI's `align` and `lexicon` use them: align a parallel text (training on it, or with a
// saved model) into links with scores, and learn a word-translation lexicon from it. The
// app reaches the same code through its jobs (align/project-align.ts for the statistical
// family, train/ for the BiLSTM), looked up by the same names.
//   statistical  IBM1/IBM2/HMM/agree (align/engine.ts); --dict (a prior of EM), --threshold, --model, --save-model,
//     --by-character (Chinese side(s) aligned by character, links mapped back to words: align/by-character.ts)
//   bilstm       seed 003's aligner (models/bilstm/): --epochs, --gold (Pharaoh gold links of the
//     first pairs, supervision through WTR and AWP with objective weights --weights, default
//     0.5,0.25,0.25 with gold), from 40 gold pairs on a share of them (--held-out, default
//     0.25) held out to teach the link decision (link-classifier.ts), --save-model / --model /
//     --continue (a saved model's parameters and vocabulary, which gains the words it lacks),
//     --pseudo (another aligner's links, `i-j` or `i-j:score` as --scores writes them: on pairs
//     without gold, those scoring at least --pseudo-threshold, default 0.9, supervise training:
//     seed 000's pseudo-labels), --self-train N (N epochs more on the model's own links;
//     default 10 on corpora of up to 1,000 pairs, else 0, and 0 with --pseudo or --continue:
//     shared/epochs.ts),
//     --word-dropout α, --device, --dict D with --dict-use prior|supervision|both (a prior of the
//     extraction's EM, its 1-to-1 matches in a pair as supervision (the default), or both: method.ts).
//     --dict is a prior of every method's lexicon too. --dict may be given several times (their
//     entries used together) or twice with --via LANG (composed through that language,
//     align/dictionary-sources.ts; --max-fanout K leaves out pivot words of more than K translations).
//   encoder      a pretrained encoder's folder (models/transformer/): --encoder DIR, --layer L
//     (transformers' hidden_states numbering; default 8 of 12 layers, round(2/3·L) otherwise),
//     --threshold (awesome: the softmax threshold, default 0.001), --device; no training.
//   finetune     encoder-finetune: refused with a pointer to `mekong finetune` (cli/finetune.ts), whose
//     output folder the encoder methods align with.
//   bisent2vec   seed 002's bilingual CBOW (models/bisent2vec/): --epochs; no word links, so
//     `align` refuses it in one line (sentence scores and mining: `mekong mine`).
// Lexicons list up to 5 translations per source word, best first: p(t | s) of the trained
// forward table (statistical), t(t | s)·√t(s | t) of EM with agreement over the model's
// similarities times √p(t | s) of agree's forward table on the same pairs (bilstm,
// models/bilstm/word-translations.ts), CSLS of the word vectors
// (bisent2vec, models/bisent2vec/lexicon.ts).
// The neural, encoder and bisent2vec families are imported when one of them runs: a
// statistical run loads neither onnxruntime nor a training stack (`mekong align` on three
// pairs: 110 → 89 MB resident).
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { Link } from '../../shared/domain.ts';
import { LINK_THRESHOLD } from '../../shared/link-score.ts';
import {
  DEFAULT_METHOD,
  type EncoderMethodName,
  linksWords,
  methodInfo,
  methodNames,
  type MethodFamily,
  type NeuralMethodName,
} from '../../shared/methods.ts';
import type { DictEntry } from '../align/dictionary.ts';
import { dictionaryFromOptions } from '../align/dictionary-sources.ts';
import { alignCorpusByCharacter } from '../align/by-character.ts';
import type { CharSides } from '../text/han-characters.ts';
import { toArrays, type Side } from '../align/sentences.ts';
import { alignCorpus, alignCorpusStreamed } from '../align/engine.ts';
import { loadModel, saveModel, type SavedModel } from '../align/saved-model.ts';
import { parsePharaohText, readPharaoh } from '../corpus/pharaoh.ts';
import { UserError } from '../errors.ts';
import type { DictionaryUse } from '../models/bilstm/method.ts';
import type { NeuralConfig, TrainHooks } from '../models/bilstm/train.ts';
import { defaultEpochs, defaultSelfTrainEpochs } from '../../shared/epochs.ts';
import { progressBar } from './progress-bar.ts';
import type { LexiconEntry } from '../models/bilstm/word-translations.ts';

const PER_WORD = 5;

/** Every option of `align` and `lexicon`, as commander parses them; each family reads its own and refuses the other's. */
export interface AlignerOptions {
  sym?: string;
  threshold?: string;
  saveModel?: string;
  model?: string;
  dict?: string[];
  via?: string;
  maxFanout?: string;
  dictUse?: DictionaryUse;
  byCharacter?: CharSides;
  lowercase?: boolean;
  epochs?: string;
  gold?: string;
  weights?: string;
  wordDropout?: string;
  heldOut?: string;
  continue?: string;
  pseudo?: string;
  pseudoThreshold?: string;
  selfTrain?: string;
  device?: DeviceSetting;
  encoder?: string;
  layer?: string;
}

export interface Aligner {
  /** Links per pair in pair order (score: the link's confidence), trained on these pairs unless `model` names a saved one; read once. */
  align(src: Side, tgt: Side, o: AlignerOptions): Promise<Iterable<Link[]>>;
  /** Up to 5 translations per source word, best first. */
  lexicon(src: Side, tgt: Side, o: AlignerOptions): Promise<LexiconEntry[]>;
}

/** Config overrides from --epochs N, --weights base,awp,wtr, --word-dropout α and --device. */
function overrides(o: { epochs?: string; weights?: string; wordDropout?: string; device?: DeviceSetting }): Partial<NeuralConfig> {
  const out: Partial<NeuralConfig> = {};
  if (o.device !== undefined) out.device = o.device;
  if (o.epochs !== undefined) {
    const n = Number(o.epochs);
    if (!Number.isInteger(n) || n < 1) throw new UserError(`--epochs must be a positive integer, got "${o.epochs}"`);
    out.epochs = n;
  }
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
  return out;
}

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

function readGold(file: string, pairs: number): { s: number; t: number }[][] {
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

/**
 * A terminal bar over the training's epochs (the default for the corpus size unless
 * --epochs), then the self-training's, with the loss.
 */
function trainingBar(pairs: number, o: AlignerOptions, selfTrain: number): { hooks: TrainHooks; stop: () => void } {
  const epochs = overrides(o).epochs ?? defaultEpochs(pairs);
  const total = epochs + selfTrain;
  const bar = progressBar('training');
  let epoch = 0;
  let steps = 0;
  const label = () => (epoch < epochs ? `epoch ${epoch + 1}/${epochs}` : `self-training epoch ${epoch - epochs + 1}/${selfTrain}`);
  return {
    hooks: {
      onStep: (_step, loss) => bar.progress(epoch, total, `${label()} · step ${++steps} · loss ${loss.toFixed(3)}`),
      onEpoch: (_e, loss) => {
        bar.progress(epoch + 1, total, `${label()} · mean loss ${loss.toFixed(3)}`);
        epoch++;
      },
    },
    stop: () => bar.stop(),
  };
}

function bilstm(method: NeuralMethodName): Aligner {
  return {
    align: (src, tgt, o) => alignBilstm(method, toArrays(src), toArrays(tgt), o),
    async lexicon(srcSide, tgtSide, o) {
      const [{ DICTIONARY_USE, runNeuralMethod }, { neuralLexicon }] = await Promise.all([
        import('../models/bilstm/method.ts'),
        import('../models/bilstm/word-translations.ts'),
      ]);
      const [src, tgt] = [toArrays(srcSide), toArrays(tgtSide)];
      const selfTrain = selfTrainEpochs(o, src.length);
      const bar = trainingBar(src.length, o, selfTrain);
      const dict = neuralDictionary(o);
      const r = await runNeuralMethod(method, { src, tgt, selfTrainEpochs: selfTrain, ...dict }, overrides(o), bar.hooks).finally(bar.stop);
      return neuralLexicon(
        src,
        tgt,
        r.embeddings,
        PER_WORD,
        (dict.dictionaryUse ?? DICTIONARY_USE) !== 'supervision' ? dict.dictionary : undefined,
      );
    },
  };
}

async function alignBilstm(method: NeuralMethodName, src: string[][], tgt: string[][], o: AlignerOptions): Promise<Link[][]> {
  if (o.byCharacter) throw new UserError('--by-character is for the statistical methods');
  refuseEncoderOptions(o);
  if (o.model && o.continue) throw new UserError('--model aligns without training and --continue trains: give one of them');
  const training = o.pseudo ? '--pseudo' : o.selfTrain ? '--self-train' : null;
  if (o.model && training) throw new UserError(`--model aligns without training: ${training} would not be used`);
  const gold = o.gold ? readGold(o.gold, src.length) : undefined;
  const { loadNeuralModel, saveNeuralModel } = await import('../models/bilstm/saved.ts');
  if (o.model) {
    const { embedPairs, extractLinks } = await import('../models/bilstm/aligner.ts');
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
  const { runNeuralMethod } = await import('../models/bilstm/method.ts');
  const bar = trainingBar(src.length, o, selfTrain);
  const r = await runNeuralMethod(method, data, overrides(o), { sym: o.sym, ...bar.hooks }, start).finally(bar.stop);
  if (o.saveModel) saveNeuralModel(o.saveModel, r.model);
  return r.links;
}

/** --max-fanout: a positive whole number. */
export function fanout(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--max-fanout must be a positive whole number, got "${v}"`);
  return n;
}

/** The dictionary of --dict (repeatable), --via and --max-fanout, or undefined without --dict. */
function cliDictionary(o: AlignerOptions, lowercase: boolean): DictEntry[] | undefined {
  return dictionaryFromOptions(o.dict, o.via, { lowercase, maxFanout: fanout(o.maxFanout) });
}

/** --dict and --dict-use for a neural method: the entries and how the run uses them (method.ts). */
function neuralDictionary(o: AlignerOptions): { dictionary?: DictEntry[]; dictionaryUse?: DictionaryUse } {
  const dictionary = cliDictionary(o, o.lowercase ?? false);
  if (o.dictUse !== undefined && !dictionary) throw new UserError('--dict-use says how to use the dictionary of --dict: give --dict too');
  return dictionary ? { dictionary, dictionaryUse: o.dictUse } : {};
}

function statLexicon(m: SavedModel): LexiconEntry[] {
  const byWord = new Map<number, LexiconEntry[]>();
  for (let p = 0; p < m.pairSrc.length; p++) {
    const e = { src: m.srcVocab[m.pairSrc[p]], tgt: m.tgtVocab[m.pairTgt[p]], score: m.fwd.lex.t[p] };
    (byWord.get(m.pairSrc[p]) ?? byWord.set(m.pairSrc[p], []).get(m.pairSrc[p])!).push(e);
  }
  return [...byWord.values()].flatMap((es) => es.sort((a, b) => b.score - a.score).slice(0, PER_WORD));
}

/** Options only the neural methods read (--held-out is not here: it has a default). */
const NEURAL_ONLY = [
  ['continue', '--continue'],
  ['pseudo', '--pseudo'],
  ['selfTrain', '--self-train'],
  ['device', '--device'],
  ['gold', '--gold'],
  ['epochs', '--epochs'],
  ['weights', '--weights'],
  ['wordDropout', '--word-dropout'],
  ['pseudoThreshold', '--pseudo-threshold'],
  ['dictUse', '--dict-use'],
] as const;

/** Options only the encoder methods read. */
const ENCODER_ONLY = [
  ['encoder', '--encoder'],
  ['layer', '--layer'],
] as const;

function refuseEncoderOptions(o: AlignerOptions): void {
  const given = ENCODER_ONLY.find(([key]) => o[key] !== undefined);
  if (given)
    throw new UserError(
      `${given[1]} is for the encoder methods (${methodNames((m) => m.family === 'encoder')
        .split('|')
        .join(', ')})`,
    );
}

/** --layer: a whole number (checked against the model when it is open). */
function layerOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new UserError(`--layer must be a whole number ≥ 0 (0 = the embeddings' output), got "${v}"`);
  return n;
}

function encoderMethod(method: EncoderMethodName): Aligner {
  const misplaced: readonly (readonly [keyof AlignerOptions, string])[] = [
    ...NEURAL_ONLY.filter(([key]) => key !== 'device'),
    ['model', '--model'],
    ['saveModel', '--save-model'],
    ['dict', '--dict'],
    ['via', '--via'],
    ['maxFanout', '--max-fanout'],
    ['byCharacter', '--by-character'],
    ['lowercase', '--lowercase'],
  ];
  return {
    async align(src, tgt, o) {
      const given = misplaced.find(([key]) => o[key] !== undefined && !(Array.isArray(o[key]) && !o[key].length));
      if (given) throw new UserError(`${given[1]} is not read by ${method}, which aligns with a pretrained encoder without training`);
      if (o.threshold !== undefined && method !== 'awesome') throw new UserError(`--threshold is read by awesome only, not ${method}`);
      if (!o.encoder)
        throw new UserError(
          `${method} needs --encoder DIR: a local Hugging Face folder (config.json, tokenizer.json, model.safetensors or model.onnx)`,
        );
      const [{ alignWithEncoder, AWESOME_THRESHOLD }, { defaultAlignLayer }, { HfEncoder }] = await Promise.all([
        import('../models/transformer/encoder-aligner.ts'),
        import('../models/transformer/hf-config.ts'),
        import('../models/transformer/hf-encoder.ts'),
      ]);
      const threshold = o.threshold === undefined ? AWESOME_THRESHOLD : Number(o.threshold);
      if (!(threshold > 0 && threshold < 1)) throw new UserError(`--threshold must be a number in (0, 1), got "${o.threshold}"`);
      const asked = layerOption(o.layer);
      const encoder = HfEncoder.open(o.encoder, { device: o.device });
      const layer = asked ?? defaultAlignLayer(encoder.config);
      console.info(
        `encoder: ${o.encoder} (${encoder.config.modelType}, ${encoder.config.layers} layers, ${encoder.backend === 'onnx' ? 'model.onnx' : 'model.safetensors'}), hidden state ${layer}`,
      );
      const bar = progressBar(`aligning (${method}, layer ${layer})`);
      try {
        return await alignWithEncoder(encoder, method, src, tgt, { layer, threshold, onProgress: (d, n) => bar.progress(d, n) });
      } finally {
        bar.stop();
        await encoder.release();
      }
    },
    lexicon() {
      return Promise.reject(new UserError(`lexicon: ${method} does not learn a lexicon; use align, or a statistical or BiLSTM method`));
    },
  };
}

function statistical(method: string): Aligner {
  const refuseNeural = (o: AlignerOptions) => {
    refuseEncoderOptions(o);
    const given = NEURAL_ONLY.find(([key]) => o[key] !== undefined);
    if (given) throw new UserError(`${given[1]} is for the neural methods (bilstm-ctl, bilstm)`);
  };
  return {
    async align(src, tgt, o) {
      refuseNeural(o);
      const model = o.model ? loadModel(o.model) : undefined;
      const lowercase = model ? model.lowercase : (o.lowercase ?? false);
      const dictionary = cliDictionary(o, lowercase);
      const threshold = o.threshold === undefined ? undefined : Number(o.threshold);
      const bar = progressBar(`aligning (${method})`);
      const options = { method, sym: o.sym, threshold, lowercase, dictionary, model };
      const hooks = { onProgress: (done: number, total: number) => bar.progress(done, total) };
      const r = await (
        o.byCharacter ? alignCorpusByCharacter(src, tgt, o.byCharacter, options, hooks) : alignCorpusStreamed(src, tgt, options, hooks)
      ).finally(bar.stop);
      if (o.saveModel) saveModel(o.saveModel, r.model);
      return r.links;
    },
    async lexicon(src, tgt, o) {
      refuseNeural(o);
      const dictionary = cliDictionary(o, o.lowercase ?? false);
      return statLexicon((await alignCorpus(src, tgt, { method, dictionary })).model);
    },
  };
}

function bisent2vec(): Aligner {
  return {
    align: () =>
      Promise.reject(
        new UserError(
          `bisent2vec learns word and sentence vectors, not word links: align with ${methodNames(linksWords).split('|').join(', ')}`,
        ),
      ),
    async lexicon(src, tgt, o) {
      const given = NEURAL_ONLY.find(([key]) => key !== 'epochs' && o[key] !== undefined);
      if (given) throw new UserError(`${given[1]} is not an option of bisent2vec (it reads --epochs)`);
      const [{ trainBisent2vec }, { bisent2vecLexicon }] = await Promise.all([
        import('../models/bisent2vec/parallel-train.ts'),
        import('../models/bisent2vec/lexicon.ts'),
      ]);
      const bar = progressBar('training (bisent2vec)');
      try {
        const epochs = overrides(o).epochs;
        const { model } = await trainBisent2vec(toArrays(src), toArrays(tgt), epochs ? { epochs } : {}, {
          progress: bar.progress,
          threads: availableParallelism(),
        });
        return bisent2vecLexicon(model, PER_WORD);
      } finally {
        bar.stop();
      }
    },
  };
}

/** encoder-finetune writes a fine-tuned encoder folder, which the encoder methods then align with. */
function finetune(name: string): Aligner {
  const refuse = () =>
    Promise.reject(
      new UserError(
        `${name} trains an encoder rather than aligning: run \`mekong finetune --encoder DIR --src S --tgt T --out OUT\`, then align with --method awesome --encoder OUT`,
      ),
    );
  return { align: refuse, lexicon: refuse };
}

const FAMILIES: Readonly<Record<MethodFamily, (name: string) => Aligner>> = {
  statistical,
  bilstm: (name) => bilstm(name as NeuralMethodName),
  encoder: (name) => encoderMethod(name as EncoderMethodName),
  finetune,
  bisent2vec,
};

/** The aligner of a method name (default: DEFAULT_METHOD); an unknown name is a one-line error listing the known ones. */
export function alignerFor(name: string | undefined): Aligner {
  const info = methodInfo(name ?? DEFAULT_METHOD);
  if (!info) throw new UserError(`unknown method "${name}" (one of: ${methodNames().split('|').join(', ')})`);
  return FAMILIES[info.family](info.name);
}
