// `mekong mine --src S --tgt T (--train-src A --train-tgt B | --model M) --out P [--threshold x]
//              [--save-model DIR] [--epochs N] [--dim D] [--lr X] [--negatives N] [--min-count N]
//              [--max-vocab N] [--subsample T] [--char-n N] [--bigrams] [--tfidf] [--seed N] [--threads N] [--lowercase] [--ids]`
// `mekong mine --src S --tgt T --encoder KIND:DIR [--pooling cls|mean] [--layer L] [--head H]
//              [--margin distance|ratio] (--train-src A --train-tgt B | --no-lexical) --out P [--threshold x]`
// Parallel sentence mining (eval/margin.ts): S and T are monolingual, one pre-tokenised
// sentence per line (with --ids, `id<TAB>sentence` lines, BUCC's files); P gets the proposed
// pairs, i<TAB>j<TAB>margin score (0-based lines of S and T, or their ids; each sentence in at
// most one pair), in the order of S.
// Without --encoder, a Bi-Sent2Vec model with IBM1 tables (models/bisent2vec/curation.ts),
// trained on the parallel corpus A/B or saved, scores the pairs by the distance margin; without
// --threshold the threshold comes from held-out pairs of A/B (or from the saved model, which
// keeps the one found when it was trained here). The training flags set seed 002's
// hyper-parameters (its Table 7: 300 dimensions, min count 5–8, a vocabulary of at most 750k
// words, t = 10⁻⁵–5·10⁻⁶, bigrams);
// --tfidf is kept in the saved model, so its sentence vectors (`mekong eval retrieval
// --encoder bisent2vec:DIR`) are then the idf-weighted means of seed 002's Table 3.
// With --encoder (seed 001's protocol: a sentence encoder's cosine, optionally with a siamese
// head), the pair score is the cosine plus, unless --no-lexical, the IBM1 term of tables trained
// on A/B; the margin is the distance (default) or the ratio (cosine alone), k = 4. Without
// --threshold every proposed pair is written with its score, so that the threshold can be
// fitted on a split with gold pairs (`mekong eval mining --fit-on`).
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { type Command, Option } from 'commander';
import { toArrays } from '../align/sentences.ts';
import { readLines, readParallel, tokenize } from '../align/text-io.ts';
import { trainSentenceTranslation } from '../align/sentence-translation.ts';
import { InputError, UserError } from '../errors.ts';
import { type MarginKind, type MinedPair, minePairs } from '../eval/margin.ts';
import { numberOption } from './number-option.ts';
import { embedBothSides, type SentenceEncoderFlags, sentenceEncoderOptions } from './sentence-encoder-options.ts';
import {
  HELD_OUT_MAX,
  HELD_OUT_MIN,
  HELD_OUT_SHARE,
  lexicalTerm,
  mineSentences,
  trainCurationModel,
  trainForCuration,
} from '../models/bisent2vec/curation.ts';
import { loadBisent2vec, saveBisent2vec } from '../models/bisent2vec/bisent2vec-folder.ts';
import { BISENT2VEC_DEFAULTS } from '../../shared/aligner-defaults.ts';
import type { Bisent2vecConfig, Bisent2vecModel } from '../models/bisent2vec/cbow-train.ts';
import { interruptSignal, withProgressBar } from './progress-bar.ts';

interface MineOptions extends SentenceEncoderFlags {
  src: string;
  tgt: string;
  trainSrc?: string;
  trainTgt?: string;
  model?: string;
  out: string;
  threshold?: string;
  saveModel?: string;
  epochs?: string;
  dim?: string;
  lr?: string;
  negatives?: string;
  minCount?: string;
  maxVocab?: string;
  subsample?: string;
  charN?: string;
  bigrams?: boolean;
  tfidf?: boolean;
  seed?: string;
  threads?: string;
  lowercase?: boolean;
  ids?: boolean;
  margin?: MarginKind;
  /** false with --no-lexical */
  lexical: boolean;
}

type Lower = (s: string[][]) => string[][];

/** One side's sentences and the names they go by in the output: their ids (--ids) or 0-based line numbers. */
function readSide(file: string, withIds: boolean, lower: Lower): { ids: string[]; sentences: string[][] } {
  const lines = readLines(file);
  if (!withIds) return { ids: lines.map((_, k) => String(k)), sentences: lower(lines.map(tokenize)) };
  const seen = new Map<string, number>();
  const ids = lines.map((line, k) => {
    const tab = line.indexOf('\t');
    if (tab <= 0) throw new InputError(file, k + 1, 'expected id<TAB>sentence (--ids)');
    const id = line.slice(0, tab);
    if (seen.has(id)) throw new InputError(file, k + 1, `id ${id} is already on line ${seen.get(id)}`);
    seen.set(id, k + 1);
    return id;
  });
  return { ids, sentences: lower(lines.map((line) => tokenize(line.slice(line.indexOf('\t') + 1)))) };
}

const isInteger = (lo: number) => (x: number) => Number.isInteger(x) && x >= lo;
const isPositive = (x: number) => Number.isFinite(x) && x > 0;

/** The Bi-Sent2Vec training flags: each one's option key, flag, check, and what the check asks for. */
const TRAINING_FLAGS = [
  ['epochs', '--epochs', isInteger(1), 'a positive integer'],
  ['dim', '--dim', isInteger(1), 'a positive integer'],
  ['lr', '--lr', isPositive, 'a positive number'],
  ['negatives', '--negatives', isInteger(1), 'a positive integer'],
  ['minCount', '--min-count', isInteger(1), 'a positive integer'],
  ['maxVocab', '--max-vocab', isInteger(1), 'a positive integer'],
  ['subsample', '--subsample', (x: number) => x > 0 && x <= 1, 'a number in (0, 1]'],
  ['charN', '--char-n', isInteger(0), 'a non-negative integer'],
  ['seed', '--seed', Number.isInteger, 'an integer'],
] as const satisfies readonly (readonly [keyof MineOptions & keyof Bisent2vecConfig, string, (x: number) => boolean, string])[];

/** The training settings given on the command line (the others keep BISENT2VEC_DEFAULTS). */
function trainingConfig(o: MineOptions): Partial<Bisent2vecConfig> {
  const config: Partial<Bisent2vecConfig> = {};
  for (const [key, flag, ok, what] of TRAINING_FLAGS) {
    const v = o[key];
    if (v !== undefined) config[key] = numberOption(flag, v, ok, what);
  }
  if (o.bigrams) config.bigrams = true;
  if (o.tfidf) config.tfidf = true;
  return config;
}

/** The training flags given, by their spelling on the command line (refused where nothing is trained). */
function trainingFlagsGiven(o: MineOptions): string[] {
  const given = TRAINING_FLAGS.filter(([key]) => o[key] !== undefined).map(([, flag]) => flag);
  return [...given, ...(o.bigrams ? ['--bigrams'] : []), ...(o.tfidf ? ['--tfidf'] : [])];
}

/** Mining with a sentence encoder (--encoder, or a --head on one) rather than a Bi-Sent2Vec model. */
const withEncoder = (o: MineOptions): boolean => o.encoder !== undefined || o.head !== undefined;

/** Refuses, in one line, flags that do not go together in the way `o` mines (before any file is read for training). */
function refuseFlagMismatch(o: MineOptions): void {
  const corpus = o.trainSrc !== undefined || o.trainTgt !== undefined;
  if (withEncoder(o)) {
    const trained = { '--model': o.model, '--save-model': o.saveModel, '--threads': o.threads };
    const given = [
      ...Object.entries(trained)
        .filter(([, v]) => v !== undefined)
        .map(([flag]) => flag),
      ...trainingFlagsGiven(o),
    ];
    if (given.length > 0) throw new UserError(`${given[0]} is for the Bi-Sent2Vec model mine trains or loads, not for an --encoder`);
    if (o.margin === 'ratio' && o.lexical) throw new UserError('--margin ratio scores the cosine alone: add --no-lexical');
    if (o.lexical && !(o.trainSrc && o.trainTgt))
      throw new UserError(
        'the lexical term needs IBM1 tables: give the parallel corpus to train them on (--train-src and --train-tgt), or --no-lexical',
      );
    if (!o.lexical && corpus) throw new UserError('--train-src/--train-tgt train the lexical term, which --no-lexical leaves out');
    return;
  }
  if (o.pooling !== undefined || o.layer !== undefined)
    throw new UserError('--pooling and --layer choose the sentence vector of an --encoder hf:DIR');
  if (o.margin !== undefined || !o.lexical)
    throw new UserError(
      '--margin and --no-lexical are options of mining with an --encoder (a Bi-Sent2Vec model: --encoder bisent2vec:DIR)',
    );
  if (o.model) {
    if (o.trainSrc || o.trainTgt)
      throw new UserError('--model mines with a saved model and --train-src/--train-tgt train one: give one of them');
    const flags = trainingFlagsGiven(o);
    if (flags.length > 0) throw new UserError(`${flags[0]} is for training (--train-src/--train-tgt), not for a saved --model`);
  } else if (!o.trainSrc || !o.trainTgt)
    throw new UserError('give a parallel corpus to train on (--train-src and --train-tgt) or a saved --model');
}

/** The model and the threshold: trained on A/B (threshold from held-out pairs unless given) or loaded. */
async function modelAndThreshold(
  o: MineOptions,
  lower: (s: string[][]) => string[][],
  signal: AbortSignal,
): Promise<{ model: Bisent2vecModel; threshold: number }> {
  const given = o.threshold === undefined ? undefined : numberOption('--threshold', o.threshold, Number.isFinite, 'a number');
  if (o.model) {
    const model = loadBisent2vec(o.model);
    const threshold = given ?? model.thresholds?.mining;
    if (threshold === undefined)
      throw new UserError(`${o.model} keeps no mining threshold (it was not trained by \`mine\`): give --threshold`);
    return { model, threshold };
  }
  const text = readParallel(o.trainSrc!, o.trainTgt!);
  const train = { src: lower(toArrays(text.src)), tgt: lower(toArrays(text.tgt)) };
  const config = trainingConfig(o);
  const threads =
    o.threads === undefined
      ? availableParallelism()
      : numberOption('--threads', o.threads, (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
  if (given !== undefined) {
    const trained = await withProgressBar(
      'training (bisent2vec)',
      (ctx) => trainCurationModel(train.src, train.tgt, config, { ctx, threads }),
      signal,
    );
    return { model: trained.model, threshold: given };
  }
  const t = await withProgressBar(
    'training (bisent2vec)',
    (ctx) => trainForCuration(train.src, train.tgt, config, { ctx, threads }),
    signal,
  );
  process.stderr.write(
    `threshold ${t.mining.threshold.toFixed(4)} from ${t.heldOut} held-out pairs (F1 there ${t.mining.f1.toFixed(3)}, precision ${t.mining.precision.toFixed(3)}, recall ${t.mining.recall.toFixed(3)})\n`,
  );
  return { model: t.model, threshold: t.mining.threshold };
}

/** Pairs mined by the Bi-Sent2Vec model with IBM1 tables, trained or loaded (the distance margin). */
async function mineWithBisent2vec(
  o: MineOptions,
  src: string[][],
  tgt: string[][],
  lower: Lower,
  signal: AbortSignal,
): Promise<{ pairs: MinedPair[]; threshold: number }> {
  const { model, threshold } = await modelAndThreshold(o, lower, signal);
  if (o.saveModel) saveBisent2vec(o.saveModel, model);
  return { pairs: await withProgressBar('scoring', (ctx) => mineSentences(model, src, tgt, threshold, ctx), signal), threshold };
}

/** Pairs mined with a sentence encoder's cosine (and its head), plus the IBM1 term of tables trained on --train-src/--train-tgt unless --no-lexical. */
async function mineWithEncoder(
  o: MineOptions,
  src: string[][],
  tgt: string[][],
  lower: Lower,
  signal: AbortSignal,
): Promise<{ pairs: MinedPair[]; threshold: number }> {
  const margin = o.margin ?? 'distance';
  const threshold = o.threshold === undefined ? -Infinity : numberOption('--threshold', o.threshold, Number.isFinite, 'a number');
  const { x, y, dim } = await embedBothSides(o, src, tgt, signal);
  let extra: ((i: number, j: number) => number) | undefined;
  if (o.lexical) {
    const text = readParallel(o.trainSrc!, o.trainTgt!);
    const tables = await withProgressBar(
      'lexical tables',
      (ctx) => trainSentenceTranslation(lower(toArrays(text.src)), lower(toArrays(text.tgt)), ctx),
      signal,
    );
    extra = lexicalTerm(tables, BISENT2VEC_DEFAULTS.lexicalWeight, src, tgt);
  }
  return {
    pairs: await withProgressBar('scoring', (ctx) => minePairs({ x, y, dim, extra }, threshold, { margin }, ctx), signal),
    threshold,
  };
}

async function run(o: MineOptions): Promise<void> {
  const lower: Lower = (side) => (o.lowercase ? side.map((x) => x.map((w) => w.toLowerCase())) : side);
  const src = readSide(o.src, o.ids ?? false, lower),
    tgt = readSide(o.tgt, o.ids ?? false, lower);
  refuseFlagMismatch(o);
  const signal = interruptSignal();
  const mine = withEncoder(o) ? mineWithEncoder : mineWithBisent2vec;
  const { pairs, threshold } = await mine(o, src.sentences, tgt.sentences, lower, signal);
  pairs.sort((a, b) => a.src - b.src);
  writeFileSync(o.out, pairs.map((p) => `${src.ids[p.src]}\t${tgt.ids[p.tgt]}\t${p.score.toFixed(4)}\n`).join(''));
  const kept = Number.isFinite(threshold) ? `threshold ${threshold.toFixed(4)}` : 'no threshold: every proposed pair kept';
  process.stderr.write(`${pairs.length} pairs proposed (${src.ids.length} × ${tgt.ids.length} sentences, ${kept})\n`);
}

export function register(program: Command): void {
  const cmd = program
    .command('mine')
    .description(
      'propose parallel pairs between two monolingual files by the margin score of their sentence vectors (Bi-Sent2Vec with IBM1 tables, or an --encoder), i<TAB>j<TAB>score',
    )
    .requiredOption('--src <file>', 'source sentences, one pre-tokenised sentence per line')
    .requiredOption('--tgt <file>', 'target sentences, one pre-tokenised sentence per line')
    .requiredOption('--out <file>', 'proposed pairs: source line, target line (0-based, or the ids with --ids), margin score')
    .option('--ids', "each line of --src and --tgt is id<TAB>sentence (BUCC's files); the pairs name the ids")
    .option('--train-src <file>', "source side of a parallel corpus to train the model on (with --encoder: the lexical term's IBM1 tables)")
    .option('--train-tgt <file>', 'target side of that corpus')
    .option('--model <dir>', 'a saved Bi-Sent2Vec model instead of training one')
    .option(
      '--threshold <x>',
      `keep pairs whose margin score is at least x (distance: 0 = as close as the two sentences' 4 nearest neighbours on average; ratio: 1). ` +
        `Default: found on pairs held out of the training corpus (${100 * HELD_OUT_SHARE}%, ${HELD_OUT_MIN}–${HELD_OUT_MAX} pairs; a third of them ` +
        `kept as pairs among the lone sentences of the rest) as the threshold of best F1, or the one a --model kept; ` +
        `with --encoder, none (every proposed pair, for \`mekong eval mining --fit-on\`)`,
    )
    .option('--save-model <dir>', 'save the trained model (with the threshold found) for later --model runs')
    .option('--epochs <n>', `training epochs (default ${BISENT2VEC_DEFAULTS.epochs})`)
    .option('--dim <n>', `training: vector dimension (default ${BISENT2VEC_DEFAULTS.dim}; seed 002: 300)`)
    .option('--lr <x>', `training: initial learning rate, decaying linearly to 0 (default ${BISENT2VEC_DEFAULTS.lr})`)
    .option('--negatives <n>', `training: negative samples per target word (default ${BISENT2VEC_DEFAULTS.negatives})`)
    .option(
      '--min-count <n>',
      `training: words and n-grams seen fewer times are left out (default ${BISENT2VEC_DEFAULTS.minCount}; seed 002: 5, 8 with bigrams)`,
    )
    .option('--max-vocab <n>', 'training: each language keeps at most its n most frequent words (default: no cap; seed 002: 750,000)')
    .option(
      '--subsample <t>',
      `training: t of the subsampling probability min(1, √(t/f) + t/f) (default ${BISENT2VEC_DEFAULTS.subsample}; seed 002: 1e-5, 5e-6 with bigrams)`,
    )
    .option(
      '--char-n <n>',
      `training: length of the words' character n-grams in the contexts, 0 = none (default ${BISENT2VEC_DEFAULTS.charN}; seed 002: 0)`,
    )
    .option('--bigrams', "training: word bigrams in the contexts too (seed 002's uni. + bi.)")
    .option('--tfidf', "training: the model's sentence vectors weight each n-gram by its idf (seed 002's sentence retrieval)")
    .option('--seed <n>', `training: initialisation and sampling seed (default ${BISENT2VEC_DEFAULTS.seed})`)
    .option('--threads <n>', 'training threads (default: all cores); 1 makes a run repeatable')
    .option('--lowercase', 'lowercase all sentences');
  sentenceEncoderOptions(cmd)
    .addOption(
      new Option(
        '--margin <kind>',
        "with --encoder: distance s − (r_x + r_y)/2 (default) or ratio s / ((r_x + r_y)/2), seed 001's",
      ).choices(['distance', 'ratio']),
    )
    .option('--no-lexical', 'with --encoder: the cosine alone, no IBM1 term (and no training corpus)')
    .action(run);
}
