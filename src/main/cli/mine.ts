// `mekong mine --src S --tgt T (--train-src A --train-tgt B | --model M) --out P [--threshold x]
//              [--save-model DIR] [--epochs N] [--threads N] [--lowercase]`
// Parallel sentence mining with Bi-Sent2Vec and IBM1 tables (models/bisent2vec/curation.ts): S
// and T are monolingual, one pre-tokenised sentence per line; a model trained on the parallel
// corpus A/B (or a saved one) scores them and P gets the proposed pairs, i<TAB>j<TAB>margin score
// (0-based lines of S and T, each line in at most one pair), in the order of S. Without
// --threshold the threshold comes from held-out pairs of A/B (or from the saved model, which
// keeps the one found when it was trained here).
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { toArrays } from '../align/sentences.ts';
import { readLines, readParallel, tokenize } from '../align/text-io.ts';
import { UserError } from '../errors.ts';
import { numberOption } from './number-option.ts';
import {
  HELD_OUT_MAX,
  HELD_OUT_MIN,
  HELD_OUT_SHARE,
  mineSentences,
  trainCurationModel,
  trainForCuration,
} from '../models/bisent2vec/curation.ts';
import { loadBisent2vec, saveBisent2vec } from '../models/bisent2vec/bisent2vec-folder.ts';
import { BISENT2VEC_DEFAULTS } from '../../shared/aligner-defaults.ts';
import type { Bisent2vecModel } from '../models/bisent2vec/cbow-train.ts';
import { interruptSignal, progressBar } from './progress-bar.ts';

interface MineOptions {
  src: string;
  tgt: string;
  trainSrc?: string;
  trainTgt?: string;
  model?: string;
  out: string;
  threshold?: string;
  saveModel?: string;
  epochs?: string;
  threads?: string;
  lowercase?: boolean;
}

/** The model and the threshold: trained on A/B (threshold from held-out pairs unless given) or loaded. */
async function modelAndThreshold(
  o: MineOptions,
  lower: (s: string[][]) => string[][],
  signal: AbortSignal,
): Promise<{ model: Bisent2vecModel; threshold: number }> {
  const given = o.threshold === undefined ? undefined : numberOption('--threshold', o.threshold, Number.isFinite, 'a number');
  if (o.model) {
    if (o.trainSrc || o.trainTgt)
      throw new UserError('--model mines with a saved model and --train-src/--train-tgt train one: give one of them');
    if (o.epochs !== undefined) throw new UserError('--epochs is for training (--train-src/--train-tgt), not for a saved --model');
    const model = loadBisent2vec(o.model);
    const threshold = given ?? model.thresholds?.mining;
    if (threshold === undefined)
      throw new UserError(`${o.model} keeps no mining threshold (it was not trained by \`mine\`): give --threshold`);
    return { model, threshold };
  }
  if (!o.trainSrc || !o.trainTgt)
    throw new UserError('give a parallel corpus to train on (--train-src and --train-tgt) or a saved --model');
  const text = readParallel(o.trainSrc, o.trainTgt);
  const train = { src: toArrays(text.src), tgt: toArrays(text.tgt) };
  const epochs =
    o.epochs === undefined
      ? {}
      : { epochs: numberOption('--epochs', o.epochs, (x) => Number.isInteger(x) && x >= 1, 'a positive integer') };
  const bar = progressBar('training (bisent2vec)', signal);
  const threads =
    o.threads === undefined
      ? availableParallelism()
      : numberOption('--threads', o.threads, (x) => Number.isInteger(x) && x >= 1, 'a positive integer');
  const work = { ctx: bar, threads };
  try {
    if (given !== undefined)
      return { model: (await trainCurationModel(lower(train.src), lower(train.tgt), epochs, work)).model, threshold: given };
    const t = await trainForCuration(lower(train.src), lower(train.tgt), epochs, work);
    bar.stop();
    process.stderr.write(
      `threshold ${t.mining.threshold.toFixed(4)} from ${t.heldOut} held-out pairs (F1 there ${t.mining.f1.toFixed(3)}, precision ${t.mining.precision.toFixed(3)}, recall ${t.mining.recall.toFixed(3)})\n`,
    );
    return { model: t.model, threshold: t.mining.threshold };
  } finally {
    bar.stop();
  }
}

async function run(o: MineOptions): Promise<void> {
  const lower = (side: string[][]) => (o.lowercase ? side.map((x) => x.map((w) => w.toLowerCase())) : side);
  const src = lower(readLines(o.src).map(tokenize)),
    tgt = lower(readLines(o.tgt).map(tokenize));
  const signal = interruptSignal();
  const { model, threshold } = await modelAndThreshold(o, lower, signal);
  if (o.saveModel) saveBisent2vec(o.saveModel, model);
  const bar = progressBar('scoring', signal);
  let pairs;
  try {
    pairs = mineSentences(model, src, tgt, threshold, bar);
  } finally {
    bar.stop();
  }
  pairs.sort((a, b) => a.src - b.src);
  writeFileSync(o.out, pairs.map((p) => `${p.src}\t${p.tgt}\t${p.score.toFixed(4)}\n`).join(''));
  process.stderr.write(`${pairs.length} pairs proposed (${src.length} × ${tgt.length} sentences, threshold ${threshold.toFixed(4)})\n`);
}

export function register(program: Command): void {
  program
    .command('mine')
    .description(
      'propose parallel pairs between two monolingual files (Bi-Sent2Vec sentence vectors and IBM1 tables, margin score), i<TAB>j<TAB>score',
    )
    .requiredOption('--src <file>', 'source sentences, one pre-tokenised sentence per line')
    .requiredOption('--tgt <file>', 'target sentences, one pre-tokenised sentence per line')
    .requiredOption('--out <file>', 'proposed pairs: source line, target line (0-based), margin score')
    .option('--train-src <file>', 'source side of a parallel corpus to train the model on')
    .option('--train-tgt <file>', 'target side of that corpus')
    .option('--model <dir>', 'a saved Bi-Sent2Vec model instead of training one')
    .option(
      '--threshold <x>',
      `keep pairs whose margin score is at least x (0 = as close as the two sentences' 4 nearest neighbours on average). ` +
        `Default: found on pairs held out of the training corpus (${100 * HELD_OUT_SHARE}%, ${HELD_OUT_MIN}–${HELD_OUT_MAX} pairs; a third of them ` +
        `kept as pairs among the lone sentences of the rest) as the threshold of best F1, or the one a --model kept`,
    )
    .option('--save-model <dir>', 'save the trained model (with the threshold found) for later --model runs')
    .option('--epochs <n>', `training epochs (default ${BISENT2VEC_DEFAULTS.epochs})`)
    .option('--threads <n>', 'training threads (default: all cores); 1 makes a run repeatable')
    .option('--lowercase', 'lowercase all sentences')
    .action(run);
}
