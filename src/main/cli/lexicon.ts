// `mekong lexicon` and the neural branch of `mekong align`.
//   mekong lexicon --src S --tgt T --out L [--method M] [--epochs N] [--word-dropout α] [--self-train N] [--lowercase]
// L gets each source word's best translations, src<TAB>tgt<TAB>score, up to 5 per word,
// best first: for statistical methods p(t | s) from the trained forward table, for neural
// methods t(t | s)·√t(s | t) of EM with agreement over the model's similarities
// (models/bilstm/word-translations.ts). --word-dropout sets the neural training's word dropout
// (models/bilstm/word-dropout.ts; default 1, 0 = off).
//   mekong align --method bilstm-ctl [--epochs N] [--gold G] [--weights B,A,W] …  trains on
// S/T (G: Pharaoh gold links of the first pairs, used as supervision through WTR and AWP with
// objective weights B,A,W, default 0.5,0.25,0.25 when G is given: train.ts) and aligns; from
// 40 gold pairs on, a share of them (--held-out, default 0.25) is held out of training and
// teaches the link decision instead (models/bilstm/link-classifier.ts); --save-model DIR keeps
// the trained model (and that decision), --model DIR aligns with a saved one instead of training,
// --continue DIR trains starting from a saved one (its parameters and vocabulary, which gains
// the words of S and T it lacks: vocab-growth.ts), e.g. on more pairs or gold links.
// --pseudo P gives another aligner's links (Pharaoh, `i-j` or `i-j:score` as `--scores`
// writes them): on pairs without gold, its links scoring at least --pseudo-threshold
// (default 0.9) supervise the model as gold would (seed 000's pseudo-labels).
//   mekong align --method agree --src S --tgt T --out A --scores A.p
//   mekong align --method bilstm-ctl --src S --tgt T --out O --pseudo A.p
// --self-train N (align and lexicon): once trained, N epochs more on the model's own links
// scoring at least the threshold (method.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { DEVICE_SETTINGS, type DeviceSetting } from '../../shared/devices.ts';
import type { Link } from '../../shared/domain.ts';
import { alignCorpus } from '../align/engine.ts';
import { embedPairs, extractLinks } from '../models/bilstm/aligner.ts';
import { neuralLexicon, type LexiconEntry } from '../models/bilstm/word-translations.ts';
import { loadNeuralModel, saveNeuralModel } from '../models/bilstm/saved.ts';
import { isNeuralMethod, runNeuralMethod } from '../models/bilstm/method.ts';
import { LINK_THRESHOLD } from '../../shared/link-score.ts';
import type { NeuralConfig } from '../models/bilstm/train.ts';
import type { SavedModel } from '../align/saved-model.ts';
import { readParallel } from '../align/text-io.ts';
import { parsePharaohText } from '../corpus/pharaoh.ts';
import { readPharaoh } from '../corpus/pharaoh.ts';
import { UserError } from '../errors.ts';

const PER_WORD = 5;

export interface NeuralCliOptions {
  method: string;
  epochs?: string;
  gold?: string;
  sym?: string;
  weights?: string;
  wordDropout?: string;
  heldOut?: string;
  saveModel?: string;
  model?: string;
  continue?: string;
  pseudo?: string;
  pseudoThreshold?: string;
  selfTrain?: string;
  device?: DeviceSetting;
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
    if (w.length !== 3 || w.some((x) => !(x >= 0))) throw new UserError(`--weights must be three numbers ≥ 0 (base,awp,wtr), got "${o.weights}"`);
    out.weights = { base: w[0], awp: w[1], wtr: w[2] };
  }
  if (o.wordDropout !== undefined) {
    const a = Number(o.wordDropout);
    if (!(a >= 0 && a <= 100)) throw new UserError(`--word-dropout must be a number from 0 to 100, got "${o.wordDropout}"`);
    out.wordDropout = a;
  }
  return out;
}

/** --self-train: epochs, 0 or more. */
function selfTrainEpochs(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
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

/** --pseudo-threshold: a score in [0, 1], only with --pseudo or --self-train. */
function pseudoThreshold(o: NeuralCliOptions): number {
  if (o.pseudoThreshold === undefined) return LINK_THRESHOLD;
  if (!o.pseudo && !o.selfTrain) throw new UserError('--pseudo-threshold is for the links of --pseudo or --self-train: give one of them too');
  const x = Number(o.pseudoThreshold);
  if (!(x >= 0 && x <= 1)) throw new UserError(`--pseudo-threshold must be a number in [0, 1], got "${o.pseudoThreshold}"`);
  return x;
}

/** The neural branch of `align`: links per pair. */
export async function alignNeuralCli(src: string[][], tgt: string[][], o: NeuralCliOptions): Promise<Link[][]> {
  if (o.model && o.continue) throw new UserError('--model aligns without training and --continue trains: give one of them');
  const training = o.pseudo ? '--pseudo' : o.selfTrain ? '--self-train' : null;
  if (o.model && training) throw new UserError(`--model aligns without training: ${training} would not be used`);
  const gold = o.gold ? readGold(o.gold, src.length) : undefined;
  if (o.model) {
    const saved = loadNeuralModel(o.model);
    const model = { ...saved, config: { ...saved.config, device: o.device } };
    return extractLinks(src, tgt, await embedPairs(model, src, tgt), { sym: o.sym, gold, decision: model.decision });
  }
  const start = o.continue ? loadNeuralModel(o.continue) : undefined;
  const threshold = pseudoThreshold(o);
  const modelLinks = o.pseudo ? await readPseudo(o.pseudo, src.length) : undefined;
  const data = { src, tgt, gold, modelLinks, threshold, heldOutShare: share(o.heldOut), selfTrainEpochs: selfTrainEpochs(o.selfTrain) };
  const r = await runNeuralMethod(o.method, data, overrides(o), { sym: o.sym }, start);
  if (o.saveModel) saveNeuralModel(o.saveModel, r.model);
  return r.links;
}

export function statLexicon(m: SavedModel): LexiconEntry[] {
  const byWord = new Map<number, LexiconEntry[]>();
  for (let p = 0; p < m.pairSrc.length; p++) {
    const e = { src: m.srcVocab[m.pairSrc[p]], tgt: m.tgtVocab[m.pairTgt[p]], score: m.fwd.lex.t[p] };
    (byWord.get(m.pairSrc[p]) ?? byWord.set(m.pairSrc[p], []).get(m.pairSrc[p])!).push(e);
  }
  return [...byWord.values()].flatMap((es) => es.sort((a, b) => b.score - a.score).slice(0, PER_WORD));
}

interface LexiconCliOptions {
  src: string;
  tgt: string;
  out: string;
  method: string;
  epochs?: string;
  wordDropout?: string;
  selfTrain?: string;
  lowercase?: boolean;
  device?: DeviceSetting;
}

async function run(o: LexiconCliOptions): Promise<void> {
  const read = readParallel(o.src, o.tgt);
  const lower = (side: string[][]) => (o.lowercase ? side.map((s) => s.map((w) => w.toLowerCase())) : side);
  const src = lower(read.src), tgt = lower(read.tgt);
  let entries: LexiconEntry[];
  if (isNeuralMethod(o.method)) {
    const r = await runNeuralMethod(o.method, { src, tgt, selfTrainEpochs: selfTrainEpochs(o.selfTrain) }, overrides(o));
    entries = neuralLexicon(src, tgt, r.embeddings, PER_WORD);
  } else {
    entries = statLexicon((await alignCorpus(src, tgt, { method: o.method })).model);
  }
  writeFileSync(o.out, entries.map((e) => `${e.src}\t${e.tgt}\t${e.score.toPrecision(6)}\n`).join(''));
}

/** `--device`: where neural training and embedding run; a value outside the list is a one-line error. */
export function deviceOption(): Option {
  return new Option('--device <name>', 'neural methods: where training and embedding run (default: MEKONG_NN_DEVICE, else auto: the best available, falling back to the CPU)')
    .choices(DEVICE_SETTINGS);
}

export function register(program: Command): void {
  program
    .command('lexicon')
    .description('word translations learned from a parallel text, src<TAB>tgt<TAB>score, best first')
    .requiredOption('--src <file>', 'source sentences')
    .requiredOption('--tgt <file>', 'target sentences')
    .requiredOption('--out <file>', 'lexicon file')
    .option('--method <name>', 'ibm1|ibm2|hmm|agree|bilstm-ctl|bilstm', 'bilstm-ctl')
    .option('--epochs <n>', 'training epochs (neural methods; default 20, more for fewer than 1,000 pairs: 20,000 / pairs, at most 80)')
    .option('--word-dropout <alpha>', 'word dropout α of neural training: a word seen n times is dropped with probability α/(α+n) (default 1, 0 = off)')
    .option('--self-train <epochs>', "neural methods: once trained, this many epochs more on the model's own links scoring at least 0.9 (default 0)")
    .option('--lowercase', 'lowercase both sides')
    .addOption(deviceOption())
    .action(run);
}
