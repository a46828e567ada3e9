// `mekong siamese --encoder bisent2vec:DIR|bilstm:DIR|hf:DIR [--pooling cls|mean] [--layer L]
//                 (--src A --tgt B | --project P) [--test-src C --test-tgt D | --held-out 0.1] --out M
//                 [--negatives random|hard|average] [--epochs N] [--lr x] [--seed N] [--lowercase]`
// Seed 004's siamese head (models/siamese/head.ts) on a frozen sentence encoder
// (models/siamese/sentence-encoders.ts; a Hugging Face encoder's vector by default the mean of
// seed 004's layer, 7 of 12): trained on the pairs A/B (one pre-tokenised sentence per line) or
// on a project's pairs (its tokens; excluded pairs left out, its dev and test split pairs, when
// there are some, the test pairs), evaluated on the test pairs (C/D, the project's held-out
// split, or a random share of the training pairs held out of training) by sentence retrieval
// P@1 and P@5 in both directions (eval/retrieval.ts): the raw encoder (cosine on its vectors as
// they are, the paper's baseline), the encoder's vectors normalised unit/center/unit, and the
// head's; the head is saved as a model folder (models/siamese/siamese-folder.ts) with the
// encoder's absolute folder, pooling and layer and the head's test retrieval, which `eval
// retrieval --head`, `mine --head` and the app's Mine and Score dialogs read; trained on a
// project, the head is recorded in it (store/siamese-heads.ts) for its Models page.
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { toArrays } from '../align/sentences.ts';
import { readParallel } from '../align/text-io.ts';
import { UserError } from '../errors.ts';
import { SIAMESE_HEAD, sentenceEncoderOf, sentenceEncoderSpecs } from '../aligners/registry.ts';
import { numberOption } from './number-option.ts';
import { unitRows } from '../eval/csls.ts';
import { type Retrieval, retrievalAccuracy } from '../eval/retrieval.ts';
import { applyHead, normalised } from '../models/siamese/head.ts';
import { seed004Layer } from '../models/siamese/sentence-encoders.ts';
import { SIAMESE_NEGATIVES } from '../../shared/aligner-options.ts';
import { saveSiameseHead } from '../models/siamese/siamese-folder.ts';
import { Rng } from '../nn/init.ts';
import { loadCorpus } from '../store/pair-corpus.ts';
import { ProjectStore } from '../store/project-store.ts';
import { recordHead } from '../store/siamese-heads.ts';
import { interruptSignal, withProgressBar } from './progress-bar.ts';
import { layerOption, type SentenceEncoderFlags, sentenceEncoderOptions } from './sentence-encoder-options.ts';

interface SiameseOptions extends SentenceEncoderFlags {
  src?: string;
  tgt?: string;
  project?: string;
  lowercase?: boolean;
  testSrc?: string;
  testTgt?: string;
  heldOut?: string;
  out: string;
  epochs?: string;
  lr?: string;
  seed?: string;
  negatives?: (typeof SIAMESE_NEGATIVES)[number];
}

interface Pairs {
  src: string[][];
  tgt: string[][];
}

const lower = (side: string[][], on: boolean | undefined) => (on ? side.map((x) => x.map((w) => w.toLowerCase())) : side);

const read = (src: string, tgt: string, lowercase: boolean | undefined): Pairs => {
  const t = readParallel(src, tgt);
  return { src: lower(toArrays(t.src), lowercase), tgt: lower(toArrays(t.tgt), lowercase) };
};

/** A project's pairs (excluded ones left out), and its dev and test split pairs apart. */
function projectPairs(file: string, lowercase: boolean): { all: Pairs; train: Pairs; heldOut: Pairs } {
  const store = ProjectStore.open(file);
  try {
    const c = loadCorpus(store, lowercase);
    const part = (keep: (split: string) => boolean): Pairs => {
      const idx = c.split.flatMap((split, i) => (keep(split) ? [i] : []));
      return { src: idx.map((i) => c.src[i]), tgt: idx.map((i) => c.tgt[i]) };
    };
    return { all: part(() => true), train: part((s) => s === 'train'), heldOut: part((s) => s !== 'train') };
  } finally {
    store.close();
  }
}

/** Training and test pairs: the test files, a project's dev and test pairs, or a random share of the training pairs held out. */
function trainAndTest(o: SiameseOptions): { train: Pairs; test: Pairs } {
  const project = o.project === undefined ? null : projectPairs(o.project, o.lowercase ?? false);
  const all = project ? project.all : read(o.src!, o.tgt!, o.lowercase);
  if (o.testSrc || o.testTgt) {
    if (!o.testSrc || !o.testTgt) throw new UserError('--test-src and --test-tgt go together');
    if (o.heldOut !== undefined) throw new UserError('--held-out splits the training pairs: give it or --test-src/--test-tgt, not both');
    return { train: all, test: read(o.testSrc, o.testTgt, o.lowercase) };
  }
  if (project && project.heldOut.src.length >= 2 && o.heldOut === undefined) return { train: project.train, test: project.heldOut };
  const share = numberOption('--held-out', o.heldOut ?? '0.1', (x) => x > 0 && x < 1, 'a share between 0 and 1');
  const n = all.src.length;
  const k = Math.round(share * n);
  if (k < 2 || n - k < 2)
    throw new UserError(`--held-out ${share} of ${n} pairs leaves ${k} to test and ${n - k} to train: both need at least 2`);
  const test = new Set(new Rng(1).shuffle(Array.from({ length: n }, (_, i) => i)).slice(0, k));
  const pick = (keep: boolean): Pairs => {
    const idx = all.src.map((_, i) => i).filter((i) => test.has(i) === keep);
    return { src: idx.map((i) => all.src[i]), tgt: idx.map((i) => all.tgt[i]) };
  };
  return { train: pick(false), test: pick(true) };
}

const f3 = (x: number) => x.toFixed(3);

async function run(o: SiameseOptions): Promise<void> {
  if (o.encoder === undefined) throw new UserError(`give the frozen encoder: --encoder ${sentenceEncoderSpecs()}`);
  if ((o.project === undefined) === (o.src === undefined || o.tgt === undefined))
    throw new UserError('give the training pairs as --src and --tgt, or as --project, one of the two');
  const { family, dir } = sentenceEncoderOf(o.encoder);
  const siamese = await SIAMESE_HEAD.load();
  const config = siamese.options.parse({
    epochs:
      o.epochs === undefined ? undefined : numberOption('--epochs', o.epochs, (x) => Number.isInteger(x) && x >= 1, 'a positive integer'),
    lr: o.lr === undefined ? undefined : numberOption('--lr', o.lr, (x) => x > 0, 'a positive number'),
    seed: o.seed === undefined ? undefined : numberOption('--seed', o.seed, Number.isInteger, 'an integer'),
    negatives: o.negatives,
  });
  const { train, test } = trainAndTest(o);
  const encoder = siamese.openEncoder(family, dir, {
    pooling: o.pooling,
    layer: layerOption(o.layer),
    meanLayer: seed004Layer,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  const d = encoder.dim;
  try {
    const [x, y, tx, ty] = [
      await encoder.embed(0, train.src),
      await encoder.embed(1, train.tgt),
      await encoder.embed(0, test.src),
      await encoder.embed(1, test.tgt),
    ];
    // Ctrl+C cancels the training; before it (embedding), it ends the command
    const { head, losses } = await withProgressBar('siamese head', (ctx) => siamese.train(x, y, d, config, ctx), interruptSignal());
    const after = await retrievalAccuracy(applyHead(head, tx), applyHead(head, ty), d);
    const line = (what: string, r: Retrieval) =>
      `${what.padEnd(26)}: src→tgt P@1 ${f3(r.forward[1])} P@5 ${f3(r.forward[5])}, tgt→src P@1 ${f3(r.backward[1])} P@5 ${f3(r.backward[5])}\n`;
    const reading = encoder.reading ? `, ${encoder.reading.pooling} of layer ${encoder.reading.layer}` : '';
    process.stdout.write(
      `${train.src.length} training pairs, ${test.src.length} test pairs, ${config.epochs} epochs, ${config.negatives} negatives${reading}, loss ${f3(losses[0])} → ${f3(losses.at(-1)!)}\n` +
        line('raw encoder (cosine)', await retrievalAccuracy(unitRows(Float32Array.from(tx), d), unitRows(Float32Array.from(ty), d), d)) +
        line('normalised (unit/ctr/unit)', await retrievalAccuracy(normalised(tx, d), normalised(ty, d), d)) +
        line('after the head', after),
    );
    saveSiameseHead(o.out, {
      head,
      encoder: `${o.encoder.slice(0, o.encoder.indexOf(':'))}:${resolve(dir)}`,
      vectors: encoder.reading,
      config,
      retrieval: {
        pairs: test.src.length,
        p1: { srcTgt: after.forward[1], tgtSrc: after.backward[1] },
        p5: { srcTgt: after.forward[5], tgtSrc: after.backward[5] },
      },
    });
    if (o.project !== undefined) {
      const store = ProjectStore.open(o.project);
      try {
        recordHead(store, resolve(o.out));
      } finally {
        store.close();
      }
    }
  } finally {
    await encoder.release();
  }
}

export function register(program: Command): void {
  const cmd = program
    .command('siamese')
    .description(
      "train seed 004's siamese head on a frozen sentence encoder's vectors of parallel pairs; prints test retrieval P@1/P@5 both ways: the raw encoder's, normalised, and the head's",
    );
  sentenceEncoderOptions(cmd, { head: false, meanLayer: "seed 004's 7 of 12 layers (the same share of other depths)" })
    .option('--src <file>', 'source side of the training pairs, one pre-tokenised sentence per line')
    .option('--tgt <file>', 'target side of the training pairs')
    .option('--project <file>', "train on a project's pairs instead (excluded ones left out); its dev and test pairs are the test pairs")
    .option('--lowercase', 'lowercase all sentences (as the encoder was trained)')
    .requiredOption('--out <dir>', 'where to save the trained head (a model folder)')
    .option('--test-src <file>', 'source side of the test pairs')
    .option('--test-tgt <file>', 'target side of the test pairs')
    .option('--held-out <share>', 'without test files: the share of the training pairs held out to test on (default 0.1)')
    .addOption(
      new Option(
        '--negatives <how>',
        `each positive's mismatch: a random other target, the batch's nearest one under the head as it trains (seed 004's "worst"), or the mismatch term averaged over the batch's other targets (its "average"); default ${SIAMESE_HEAD.defaults.negatives}`,
      ).choices([...SIAMESE_NEGATIVES]),
    )
    .option('--epochs <n>', `training epochs (default ${SIAMESE_HEAD.defaults.epochs})`)
    .option('--lr <x>', `learning rate (default ${SIAMESE_HEAD.defaults.lr})`)
    .option('--seed <n>', `initialisation, dropout and sampling seed (default ${SIAMESE_HEAD.defaults.seed})`)
    .action(run);
}
