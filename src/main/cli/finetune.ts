// `mekong finetune --encoder DIR --src S --tgt T --out DIR [--gold G] [--rejected R]
//                  [--objectives tr,awp,wtr,rtl] [--alpha a --beta b --gamma c --delta d]
//                  [--epochs N] [--lr x] [--batch B] [--layer L] [--device D] …`
// Fine-tunes a pretrained encoder (a Hugging Face folder) on a parallel text with the seeds'
// objectives (models/transformer/encoder-finetune.ts) and writes the result as a Hugging Face folder
// that `mekong align --encoder` (and transformers) open. G and R are Pharaoh files, one line
// per pair: gold links (pairs with an empty line get our aligner's links of probability
// ≥ 0.9) and links rejected by a reviewer (never positives; negatives of WTR).
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { ENCODER_ALIGN_METHODS, type EncoderMethodName } from '../../shared/methods.ts';
import { ENCODER_FINETUNE_DEFAULTS as D } from '../../shared/aligner-defaults.ts';
import { finetuneSettings } from '../aligners/finetune-options.ts';
import { readParallel } from '../align/text-io.ts';
import { parsePharaohText } from '../corpus/pharaoh.ts';
import { InputError } from '../errors.ts';
import { numberOption } from './number-option.ts';
import { finetuneEncoder } from '../models/transformer/encoder-finetune.ts';
import { OBJECTIVES, type Objective } from '../models/transformer/finetune-objectives.ts';
import { deviceOption } from './lexicon.ts';
import { interruptSignal, progressBar } from './progress-bar.ts';

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
  freezeEmbeddings?: boolean;
  languageEmbeddings?: boolean;
  device?: string;
  threads?: string;
  seed?: string;
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
  const bar = progressBar('fine-tuning', interruptSignal());
  try {
    const r = await finetuneEncoder(
      {
        encoder: o.encoder,
        src,
        tgt,
        out: o.out,
        gold: links(o.gold, base),
        rejected: links(o.rejected, base),
        linkSources: { gold: o.gold, rejected: o.rejected },
        ...finetuneSettings({
          objectives,
          alpha: num('--alpha', o.alpha),
          beta: num('--beta', o.beta),
          gamma: num('--gamma', o.gamma),
          delta: num('--delta', o.delta),
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
          freezeEmbeddings: o.freezeEmbeddings,
          seed: num('--seed', o.seed),
        }),
        device: o.device as never,
        threads: num('--threads', o.threads),
        log: (line) => process.stderr.write(`${line}\n`),
      },
      bar,
    );
    bar.stop();
    const last = r.epochs[r.epochs.length - 1];
    process.stderr.write(
      `${r.out}: ${r.steps} steps on ${r.device}, final epoch loss ${last.loss.toFixed(4)}; links from gold for ${r.pairs.gold} pairs, from the aligner for ${r.pairs.model} (${r.pairs.links} links, ${r.pairs.rejected} rejected)\n`,
    );
  } finally {
    bar.stop();
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
    .option(
      '--language-embeddings',
      "add seed 000 §6.1's language embeddings (one for --src's side, one for --tgt's; helped its low-resource languages), saved beside the model",
    )
    .option('--freeze-embeddings', "keep the word embeddings as they are (most of a multilingual model's parameters: less memory and time)")
    .addOption(deviceOption())
    .option('--threads <n>', 'CPU threads of the sessions')
    .option('--seed <n>', `shuffling and sampling seed (default ${D.seed})`)
    .action(run);
}
