// `mekong lexicon --src S --tgt T --out L [--method M] [--extraction E] [--epochs N] [--word-dropout α] [--self-train N] [--lr X] [--batch N] [--seed N] [--negatives inter|inter+intra] [--pooling mean|max] [--heads shared|separate] [--lowercase] [--dict D… [--via LANG [--max-fanout K]] [--dict-use U]] [--src-lang L --tgt-lang L [--no-default-dicts]] [--device D]`:
// L gets each source word's best translations, src<TAB>tgt<TAB>score, up to 5 per word, best
// first, from the method's family (aligners/registry.ts: the options each family reads; the
// others are refused). --extraction: the BiLSTM's em (default), csls or nn
// (models/bilstm/word-translations.ts), Bi-Sent2Vec's csls (default) or nn.
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { BILSTM_DEFAULTS, BISENT2VEC_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { DEVICE_SETTINGS } from '../../shared/device-settings.ts';
import { DEFAULT_EPOCHS_RULE, DEFAULT_SELF_TRAIN_RULE } from '../../shared/epochs.ts';
import { LINK_THRESHOLD } from '../../shared/link-score.ts';
import { DEFAULT_LEXICON_METHOD, methodNames } from '../../shared/methods.ts';
import { lowercased, type Sentences } from '../align/sentences.ts';
import { readParallel } from '../align/text-io.ts';
import { givenOptions, lexiconOf } from '../aligners/registry.ts';
import type { AlignerOptions } from '../aligners/text-aligner.ts';
import { addLanguageOptions, collect, DICT_SPEC_HELP, reportDictionaries } from './dict.ts';
import { withProgressBar } from './progress-bar.ts';

interface LexiconCliOptions extends AlignerOptions {
  src: string;
  tgt: string;
  out: string;
  method: string;
}

async function run(o: LexiconCliOptions, command: Command): Promise<void> {
  // --lowercase is the command's own: it lowercases the text every family reads
  const { src: s, tgt: t, out, method, lowercase, ...rest } = o;
  const lexicon = await lexiconOf(
    method,
    givenOptions(rest, (key) => command.getOptionValueSource(key)),
  );
  reportDictionaries(rest);
  const read = readParallel(s, t);
  const lower = (side: Sentences) => (lowercase ? lowercased(side) : side);
  const entries = await lexicon(lower(read.src), lower(read.tgt), rest, withProgressBar);
  writeFileSync(out, entries.map((e) => `${e.src}\t${e.tgt}\t${e.score.toPrecision(6)}\n`).join(''));
}

/** `--device`: where neural training and embedding run; a value outside the list is a one-line error. */
export function deviceOption(): Option {
  return new Option(
    '--device <name>',
    'neural methods: where training and embedding run (default: MEKONG_NN_DEVICE, else auto: the best available, falling back to the CPU)',
  ).choices(DEVICE_SETTINGS);
}

/** `--word-dropout`: the BiLSTM's word dropout α. */
export function wordDropoutOption(): Option {
  return new Option(
    '--word-dropout <alpha>',
    `word dropout α of neural training: a word seen n times is dropped with probability α/(α+n) (default ${BILSTM_DEFAULTS.wordDropout}, 0 = off)`,
  );
}

/** --lr, --batch, --seed, --negatives, --pooling and --heads: the BiLSTM's training settings (seed 003's, and its Table V's ablation). */
export function bilstmTrainingOptions(cmd: Command): Command {
  return cmd
    .option('--lr <x>', `neural methods: the learning rate (default ${BILSTM_DEFAULTS.lr}; seed 003: 2e-5)`)
    .option('--batch <n>', `neural methods: pairs per step (default ${BILSTM_DEFAULTS.batchSize}; seed 003: 16)`)
    .option('--seed <n>', 'neural methods: initialisation, shuffling and dropout seed (default 1; seed 003 averages seeds 0, 1, 2)')
    .option(
      '--negatives <kind>',
      "bilstm-ctl: the contrastive loss's negatives, inter (other pairs' translations) or inter+intra (their reconstructions too; default)",
    )
    .option(
      '--pooling <how>',
      "neural methods: the sentence vector the contrastive loss and sentence retrieval read, mean (default) or max of the encoder's states",
    )
    .option(
      '--heads <kind>',
      "bilstm-ctl: the contrastive loss's projection heads, shared (one for queries and keys; default) or separate (seed 003's g_q and g_k)",
    );
}

/** `--dict-use`: how a neural method uses the dictionary of --dict. */
export function dictUseOption(): Option {
  return new Option(
    '--dict-use <how>',
    "neural methods: the dictionary as a prior of the extraction's EM, its one-to-one matches in a pair as supervision, or both (default supervision)",
  ).choices(['prior', 'supervision', 'both']);
}

export function register(program: Command): void {
  const command = program
    .command('lexicon')
    .description('word translations learned from a parallel text, src<TAB>tgt<TAB>score, best first')
    .requiredOption('--src <file>', 'source sentences')
    .requiredOption('--tgt <file>', 'target sentences')
    .requiredOption('--out <file>', 'lexicon file')
    .option('--method <name>', methodNames(), DEFAULT_LEXICON_METHOD)
    .option(
      '--extraction <how>',
      "how translations are read off the model: neural methods em (the model's similarities in co-occurring pairs, by EM, times agree's table; default), " +
        "csls (seed 003: the nearest words of the whole target vocabulary by CSLS, K = 3, each word's contextual vectors averaged) or nn (the same by cosine); " +
        'bisent2vec csls (K = 10; default) or nn',
    )
    .option(
      '--epochs <n>',
      `training epochs (neural methods: default ${DEFAULT_EPOCHS_RULE}; bisent2vec: default ${BISENT2VEC_DEFAULTS.epochs})`,
    )
    .addOption(wordDropoutOption())
    .option(
      '--self-train <epochs>',
      `neural methods: once trained, this many epochs more on the model's own links scoring at least ${LINK_THRESHOLD} (default ${DEFAULT_SELF_TRAIN_RULE})`,
    )
    .option('--lowercase', 'lowercase both sides')
    .option(
      '--dict <spec>',
      `bilingual dictionary (repeatable): a prior of EM (statistical methods), see --dict-use (neural ones); ${DICT_SPEC_HELP}`,
      collect,
      [],
    )
    .option('--via <lang>', 'compose the two --dict dictionaries through this language')
    .option('--max-fanout <k>', 'with --via: ignore pivot words with more than k translations');
  addLanguageOptions(bilstmTrainingOptions(command)).addOption(dictUseOption()).addOption(deviceOption()).action(run);
}
