// `mekong finetune --encoder DIR --src S --tgt T --out DIR [--gold G] [--rejected R]
//                  [--objectives tr,awp,wtr,rtl,so] [--alpha a --beta b --gamma c --delta d --epsilon e]
//                  [--epochs N] [--lr x] [--batch B] [--layer L] [--device D] …`
// Fine-tunes a pretrained encoder (a Hugging Face folder) on a parallel text with the seeds'
// objectives (models/transformer/encoder-finetune.ts) and writes the result as a Hugging Face folder
// that `mekong align --encoder` (and transformers) open. G and R are Pharaoh files, one line
// per pair: gold links (pairs with an empty line get our aligner's links of probability
// ≥ 0.9) and links rejected by a reviewer (never positives; negatives of WTR); with
// --so-labels recomputed the aligner's links are found again before each step by the encoder
// being trained (awesome-align's self-training; its objective is `so`).
// The papers' settings: --max-length (subwords per sentence), --max-steps, --accumulate
// (effective batch = batch × accumulate), dropout at the config's rates (--no-dropout);
// with --dev-src/--dev-tgt (and --dev-gold) a checkpoint every --checkpoint-every epochs is
// scored on those held-out pairs (dev retrieval P@1, and AER with gold:
// train/encoder-checkpoint-score.ts) and --out receives the best by --select-by.
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { ENCODER_ALIGN_METHODS, type EncoderMethodName, FAMILIES } from '../../shared/methods.ts';
import { ENCODER_FINETUNE_DEFAULTS as D } from '../../shared/aligner-defaults.ts';
import { finetuneSettings } from '../aligners/finetune-options.ts';
import { toArrays } from '../align/sentences.ts';
import { readParallel } from '../align/text-io.ts';
import { parsePharaohText } from '../corpus/pharaoh.ts';
import { InputError, UserError } from '../errors.ts';
import { type DevPairs, scoreEncoderCheckpoint, type SelectBy } from '../train/encoder-checkpoint-score.ts';
import type { FitEvent } from '../train/fit-loop.ts';
import { alignedPair } from '../../shared/link-set.ts';
import { numberOption } from './number-option.ts';
import { finetuneEncoder } from '../models/transformer/encoder-finetune.ts';
import { OBJECTIVES, type Objective } from '../models/transformer/finetune-objectives.ts';
import { deviceOption } from './lexicon.ts';
import { interruptSignal, withProgressBar } from './progress-bar.ts';

interface FinetuneCliOptions {
  encoder: string;
  src: string;
  tgt: string;
  out: string;
  gold?: string;
  rejected?: string;
  oneBased?: boolean;
  objectives?: string;
  alpha?: string;
  beta?: string;
  gamma?: string;
  delta?: string;
  epsilon?: string;
  epochs?: string;
  lr?: string;
  batch?: string;
  layer?: string;
  sentence?: 'cls' | 'mean';
  temperature?: string;
  rtlLayers?: string;
  rtlDirection?: 'src-to-tgt' | 'tgt-to-src';
  awpMasks?: string;
  aligner?: EncoderMethodName;
  threshold?: string;
  soLabels?: 'fixed' | 'recomputed';
  freezeEmbeddings?: boolean;
  languageEmbeddings?: boolean;
  device?: string;
  threads?: string;
  seed?: string;
  maxLength?: string;
  maxSteps?: string;
  accumulate?: string;
  dropout: boolean;
  devSrc?: string;
  devTgt?: string;
  devGold?: string;
  selectBy?: SelectBy;
  checkpointEvery?: string;
}

/** A checkpoint's dev figures for the log: retrieval P@1 (mean, each direction), and AER when the dev pairs have gold. */
function devFigures(m: Readonly<Record<string, number>>): string {
  const p1 = `dev retrieval P@1 ${m.retrieval_p1.toFixed(4)} (src→tgt ${m.retrieval_p1_src_tgt.toFixed(4)}, tgt→src ${m.retrieval_p1_tgt_src.toFixed(4)})`;
  return m.aer === undefined ? p1 : `${p1}, dev AER ${m.aer.toFixed(4)}`;
}

/** The held-out pairs of --dev-src/--dev-tgt/--dev-gold and what ranks checkpoints, or null without dev pairs. */
function devSet(o: FinetuneCliOptions, base: 0 | 1): { dev: DevPairs; selectBy: SelectBy } | null {
  if (!o.devSrc && !o.devTgt) {
    if (o.devGold || o.selectBy) throw new UserError('--dev-gold and --select-by need the dev pairs: --dev-src and --dev-tgt');
    return null;
  }
  if (!o.devSrc || !o.devTgt) throw new UserError('give both --dev-src and --dev-tgt');
  const { src, tgt } = readParallel(o.devSrc, o.devTgt);
  const gold = links(o.devGold, base);
  if (gold && gold.length !== src.length)
    throw new UserError(`${o.devGold}: has ${gold.length} lines for ${src.length} dev pairs; line counts must match`);
  const selectBy = o.selectBy ?? (gold ? 'aer' : 'retrieval');
  if (selectBy === 'aer' && !gold) throw new UserError("--select-by aer needs the dev pairs' gold links: --dev-gold");
  return {
    dev: { src: toArrays(src), tgt: toArrays(tgt), gold: gold?.map(alignedPair) ?? null, method: FAMILIES.finetune.alignsWith! },
    selectBy,
  };
}

function num(flag: string, v: string | undefined): number | undefined {
  return v === undefined ? undefined : numberOption(flag, v, Number.isFinite, 'a number');
}

function links(file: string | undefined, base: 0 | 1) {
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, 0, `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parsePharaohText(text, base, file);
}

async function run(o: FinetuneCliOptions): Promise<void> {
  const { src, tgt } = readParallel(o.src, o.tgt);
  const objectives = o.objectives?.split(',').map((x) => x.trim()) as Objective[] | undefined;
  const base = o.oneBased ? 1 : 0;
  const held = devSet(o, base);
  const every = num('--checkpoint-every', o.checkpointEvery) ?? 1;
  if (!Number.isInteger(every) || every < 1) throw new UserError(`--checkpoint-every must be a whole number ≥ 1, got ${every}`);
  // checkpoints before the last epoch's (which finetuneEncoder writes to --out) wait here, beside --out, until the best is known
  const scratch = held ? mkdtempSync(join(dirname(resolve(o.out)), '.mekong-finetune-')) : null;
  // where each checkpoint was saved (the last epoch's, which finetuneEncoder writes itself, is --out)
  const savedAt = new Map<number, string>();
  const dirOf = (epoch: number) => savedAt.get(epoch) ?? o.out;
  let best: { epoch: number; metrics: Readonly<Record<string, number>> } | null = null;
  const settings = finetuneSettings({
    objectives,
    alpha: num('--alpha', o.alpha),
    beta: num('--beta', o.beta),
    gamma: num('--gamma', o.gamma),
    delta: num('--delta', o.delta),
    epsilon: num('--epsilon', o.epsilon),
    epochs: num('--epochs', o.epochs),
    lr: num('--lr', o.lr),
    batch: num('--batch', o.batch),
    languageEmbeddings: o.languageEmbeddings,
    layer: num('--layer', o.layer),
    sentence: o.sentence,
    temperature: num('--temperature', o.temperature),
    rtlLayers: num('--rtl-layers', o.rtlLayers),
    rtlDirection: o.rtlDirection,
    awpMasks: num('--awp-masks', o.awpMasks),
    supervisionMethod: o.aligner,
    threshold: num('--threshold', o.threshold),
    soLabels: o.soLabels,
    freezeEmbeddings: o.freezeEmbeddings,
    seed: num('--seed', o.seed),
    maxLength: num('--max-length', o.maxLength),
    maxSteps: num('--max-steps', o.maxSteps),
    accumulate: num('--accumulate', o.accumulate),
    dropout: o.dropout,
  });
  const onEvent = (e: FitEvent) => {
    if (e.type === 'epoch' && e.best && e.score) best = { epoch: e.epoch, metrics: e.score.metrics ?? {} };
  };
  try {
    const r = await withProgressBar(
      'fine-tuning',
      (bar) =>
        finetuneEncoder(
          {
            encoder: o.encoder,
            src,
            tgt,
            out: o.out,
            gold: links(o.gold, base),
            rejected: links(o.rejected, base),
            linkSources: { gold: o.gold, rejected: o.rejected },
            ...settings,
            checkpoints: held
              ? {
                  every,
                  save: (epoch, m) => {
                    savedAt.set(epoch, join(scratch!, `epoch-${epoch}`));
                    m.save(dirOf(epoch));
                  },
                  score: async (epoch) => {
                    const sc = await scoreEncoderCheckpoint(
                      dirOf(epoch),
                      held.dev,
                      {
                        selectBy: held.selectBy,
                        sentence: settings.sentence ?? D.sentence,
                        layer: settings.layer,
                        device: o.device as never,
                      },
                      epoch,
                      bar,
                    );
                    if (sc?.metrics) process.stderr.write(`epoch ${epoch}: ${devFigures(sc.metrics)}\n`);
                    return sc;
                  },
                }
              : undefined,
            onEvent,
            device: o.device as never,
            threads: num('--threads', o.threads),
            log: (line) => process.stderr.write(`${line}\n`),
          },
          bar,
        ),
      interruptSignal(),
    );
    const last = r.epochs[r.epochs.length - 1];
    if (r.labels.recomputed)
      process.stderr.write(
        `self-training: the aligner's links found again ${r.labels.recomputed} times for a pair, ${r.labels.changed} of them different from the pair's links before\n`,
      );
    process.stderr.write(
      `${r.out}: ${r.steps} steps on ${r.device}, final epoch loss ${last.loss.toFixed(4)}; links from gold for ${r.pairs.gold} pairs, from the aligner for ${r.pairs.model} (${r.pairs.links} links, ${r.pairs.rejected} rejected)\n`,
    );
    const chosen = best as { epoch: number; metrics: Readonly<Record<string, number>> } | null;
    if (held && chosen) {
      const kept = dirOf(chosen.epoch);
      if (kept !== o.out) {
        rmSync(o.out, { recursive: true, force: true });
        renameSync(kept, o.out);
      }
      process.stderr.write(
        `${o.out}: the checkpoint of epoch ${chosen.epoch} of ${r.epochs.length}, best by ${held.selectBy} (${devFigures(chosen.metrics)})\n`,
      );
    }
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

export function register(program: Command): void {
  program
    .command('finetune')
    .description(
      'fine-tune a pretrained encoder (Hugging Face folder) on a parallel text with word-alignment objectives; writes a Hugging Face folder',
    )
    .requiredOption('--encoder <dir>', 'the encoder folder (config.json, tokenizer.json, model.safetensors)')
    .requiredOption('--src <file>', 'source sentences, one pre-tokenised sentence per line')
    .requiredOption('--tgt <file>', 'target sentences')
    .requiredOption('--out <dir>', 'the folder to write (new or empty, or a previous fine-tuning output)')
    .option(
      '--gold <file>',
      `gold links (Pharaoh), one line per pair; pairs with an empty line learn from the aligner's links of probability ≥ ${D.threshold}`,
    )
    .option('--rejected <file>', 'links a reviewer rejected (Pharaoh), one line per pair: never positives, negatives of WTR')
    .option('--one-based', 'the link files count words from 1')
    .option('--objectives <list>', `comma-separated, of ${OBJECTIVES.join(', ')} (default ${D.objectives.join(',')})`)
    .option('--alpha <a>', `weight of TR (default ${D.alpha})`)
    .option('--beta <b>', `weight of AWP (default ${D.beta})`)
    .option('--gamma <c>', `weight of WTR (default ${D.gamma})`)
    .option('--delta <d>', `weight of RTL (default ${D.delta})`)
    .option('--epsilon <e>', `weight of SO, awesome-align's self-training objective (default ${D.epsilon})`)
    .option('--epochs <n>', `passes over the pairs (default ${D.epochs})`)
    .option('--lr <x>', `peak learning rate of AdamW (default ${D.lr})`)
    .option('--batch <n>', `pairs per step (default ${D.batch})`)
    .option('--layer <l>', 'hidden state TR and WTR train (default: the last, as the papers; e.g. 8 to train what alignment reads)')
    .addOption(new Option('--sentence <pooling>', `TR's sentence vector (default ${D.sentence})`).choices(['cls', 'mean']))
    .option('--temperature <t>', `φ = cos/t in TR and WTR (default ${D.temperature}; 1 is the papers' bare cosine)`)
    .option('--rtl-layers <k>', `layers of RTL's head (default ${D.rtlLayers})`)
    .addOption(
      new Option(
        '--rtl-direction <dir>',
        `RTL reconstructs the target from the source, or the reverse (default ${D.rtlDirection})`,
      ).choices(['src-to-tgt', 'tgt-to-src']),
    )
    .option('--awp-masks <n>', `AWP's masked copies per sentence and step (default ${D.awpMasks})`)
    .addOption(
      new Option('--aligner <method>', `aligner of the pairs without gold (default ${D.supervisionMethod})`).choices(ENCODER_ALIGN_METHODS),
    )
    .option('--threshold <p>', `probability the aligner's links need (default ${D.threshold})`)
    .addOption(
      new Option(
        '--so-labels <when>',
        `the aligner's links: found once before training (fixed), or again before each step by the encoder being trained (recomputed, awesome-align's self-training; default ${D.soLabels})`,
      ).choices(['fixed', 'recomputed']),
    )
    .option(
      '--language-embeddings',
      "add seed 000 §6.1's language embeddings (one for --src's side, one for --tgt's; helped its low-resource languages), saved beside the model",
    )
    .option('--freeze-embeddings', "keep the word embeddings as they are (most of a multilingual model's parameters: less memory and time)")
    .addOption(deviceOption())
    .option('--threads <n>', 'CPU threads of the sessions')
    .option('--seed <n>', `shuffling and sampling seed (default ${D.seed})`)
    .option(
      '--max-length <n>',
      "subwords kept of each sentence, [CLS] and [SEP] included, whole words only (the papers' 32; default: the encoder's positions)",
    )
    .option('--max-steps <n>', 'optimiser steps of the run (the epochs default to as many as they need)')
    .option(
      '--accumulate <k>',
      `micro-batches of --batch pairs summed into one step: effective batch = batch × k (default ${D.accumulate})`,
    )
    .option(
      '--no-dropout',
      "train without dropout (default: the rates of the encoder's config.json, hidden_dropout_prob and attention_probs_dropout_prob)",
    )
    .option('--dev-src <file>', 'held-out source sentences: each checkpoint is scored on them and --out receives the best')
    .option('--dev-tgt <file>', 'held-out target sentences, line i the translation of --dev-src line i')
    .option('--dev-gold <file>', "the dev pairs' gold links (Pharaoh), for dev AER")
    .addOption(
      new Option(
        '--select-by <score>',
        'what picks the checkpoint: dev AER (needs --dev-gold; the default with it) or dev retrieval P@1, the mean of both directions',
      ).choices(['aer', 'retrieval']),
    )
    .option('--checkpoint-every <n>', 'with dev pairs: a checkpoint every n epochs, and after the last (default 1)')
    .action(run);
}
