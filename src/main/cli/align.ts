// `mekong align`: word-aligns a parallel text with any method that aligns, through its
// family's aligner (aligners/registry.ts: the options each family reads; the others are refused).
//   mekong align --src S --tgt T --out O [--method M] [--sym H] [--scores O2]
//                [--save-model DIR] [--model DIR] [--dict D]… [--via LANG [--max-fanout K]]
//                [--src-lang L --tgt-lang L [--no-default-dicts]] [--by-character src|tgt|both] [--lowercase]
//                [--epochs N] [--gold G] [--held-out F] [--weights B,A,W] [--word-dropout α]
//                [--lr X] [--batch N] [--seed N] [--negatives inter|inter+intra] [--pooling mean|max]
//                [--continue DIR] [--pseudo P] [--pseudo-threshold p] [--self-train N] [--device D]
//                [--encoder DIR] [--layer L] [--token-type bpe|word] [--null-align p] [--distortion k]
// O gets one Pharaoh line per pair (0-based i-j; empty where a side is empty), O2 the same
// links as i-j:p with their posterior probability.
import { Command, Option } from 'commander';
import { BILSTM_SUPERVISED_WEIGHTS, DEFAULT_SYM, ENCODER_DEFAULTS, STATISTICAL_DEFAULTS } from '../../shared/aligner-defaults.ts';
import { DEFAULT_EPOCHS_RULE, DEFAULT_SELF_TRAIN_RULE } from '../../shared/epochs.ts';
import { LINK_THRESHOLD } from '../../shared/link-score.ts';
import { pharaohLine, type LinkRef } from '../../shared/link-set.ts';
// type only: a statistical run loads no zod
import type { EncoderOptions } from '../../shared/aligner-options.ts';
import { DEFAULT_METHOD, methodNames } from '../../shared/methods.ts';
import { SYMMETRISATIONS } from '../align/symmetrise.ts';
import { readParallel } from '../align/text-io.ts';
import { withSinks } from '../corpus/output.ts';
import { HELD_OUT_SHARE, MIN_GOLD_PAIRS_TO_HOLD_OUT } from '../models/bilstm/held-out.ts';
import { alignerOf, givenOptions } from '../aligners/registry.ts';
import type { AlignerOptions } from '../aligners/text-aligner.ts';
import { bilstmTrainingOptions, deviceOption, dictUseOption, wordDropoutOption } from './lexicon.ts';
import { withProgressBar } from './progress-bar.ts';
import { addLanguageOptions, collect, DICT_SPEC_HELP, reportDictionaries } from './dict.ts';

interface AlignCliOptions extends AlignerOptions {
  src: string;
  tgt: string;
  out: string;
  method?: string;
  scores?: string;
}

/** One output line: every link as `s-t` (the aligners' links are all sure), scores with 4 decimals (1 when a link has none). */
function outputLine(links: readonly (LinkRef & { score?: number | null })[], scores: boolean): string {
  return (
    pharaohLine(
      links.map((l) => ({ s: l.s, t: l.t, kind: 'sure', score: scores ? (l.score ?? 1) : null })),
      { scores, scoreDigits: 4 },
    ) + '\n'
  );
}

async function run(o: AlignCliOptions, command: Command): Promise<void> {
  const { src: s, tgt: t, out, method, scores, ...rest } = o;
  const align = await alignerOf(
    method,
    givenOptions(rest, (key) => command.getOptionValueSource(key)),
  );
  reportDictionaries(rest);
  const { src, tgt } = readParallel(s, t);
  const links = await align(src, tgt, rest, withProgressBar);
  // streamed (no second copy of the whole text in memory), both files in one pass, atomically
  await withSinks(scores ? [out, scores] : [out], async ([lines, scored]) => {
    for (const l of links) {
      await lines.write(outputLine(l, false));
      if (scored) await scored.write(outputLine(l, true));
    }
  });
}

export function register(program: Command): void {
  const command = program
    .command('align')
    .description('word-align a parallel text (one sentence per line, space-separated tokens)')
    .requiredOption('--src <file>', 'source sentences')
    .requiredOption('--tgt <file>', 'target sentences')
    .requiredOption('--out <file>', 'Pharaoh links (0-based i-j), one line per pair')
    .option('--method <name>', `${methodNames((c) => c.align)} (default ${DEFAULT_METHOD})`)
    .option('--sym <name>', Object.keys(SYMMETRISATIONS).join('|'), DEFAULT_SYM)
    .option(
      '--threshold <p>',
      `posterior threshold for --sym post (default ${STATISTICAL_DEFAULTS.threshold}); awesome: the softmax threshold (default ${ENCODER_DEFAULTS.threshold})`,
    )
    .option('--scores <file>', 'links with their probability, i-j:p')
    .option('--save-model <dir>', 'save the trained parameters')
    .option('--model <dir>', 'align with a saved model instead of training')
    .option(
      '--dict <spec>',
      `bilingual dictionary (repeatable): a prior of EM (statistical methods), see --dict-use (neural ones); ${DICT_SPEC_HELP}`,
      collect,
      [],
    )
    .addOption(dictUseOption())
    .option(
      '--via <lang>',
      'compose the two --dict dictionaries through this language (e.g. --dict lo-en:bundled --via en --dict zh-en:cedict)',
    )
    .option('--max-fanout <k>', 'with --via: ignore pivot words with more than k translations');
  addLanguageOptions(bilstmTrainingOptions(command))
    .addOption(
      new Option(
        '--by-character <side>',
        'align the Chinese side by character (one token per Han character), links mapped back to its words',
      ).choices(['src', 'tgt', 'both']),
    )
    .option('--lowercase', 'lowercase both sides before aligning')
    .option('--epochs <n>', `training epochs (neural methods; default ${DEFAULT_EPOCHS_RULE})`)
    .option('--gold <file>', 'gold links (Pharaoh) of the first pairs, as supervision (neural methods)')
    .option(
      '--held-out <share>',
      `share of the --gold pairs (from ${MIN_GOLD_PAIRS_TO_HOLD_OUT} of them) held out of training to learn the link decision (neural methods)`,
      String(HELD_OUT_SHARE),
    )
    .option(
      '--weights <b,a,w>',
      `objective weights base,AWP,WTR (neural methods; default ${Object.values(BILSTM_SUPERVISED_WEIGHTS).join(',')} with --gold)`,
    )
    .addOption(wordDropoutOption())
    .option(
      '--continue <dir>',
      'train starting from a saved neural model (its parameters and vocabulary, which gains the words it lacks), e.g. on more pairs or gold',
    )
    .option(
      '--pseudo <file>',
      "another aligner's links (i-j or i-j:score, as --scores writes them): on pairs without gold, those scoring at least --pseudo-threshold supervise training (neural methods)",
    )
    .option(
      '--pseudo-threshold <p>',
      `the score a link of --pseudo or of --self-train needs to supervise training (default ${LINK_THRESHOLD})`,
    )
    .option(
      '--self-train <epochs>',
      `once trained, this many epochs more on the model's own links scoring at least the --pseudo-threshold (neural methods; default ${DEFAULT_SELF_TRAIN_RULE}, and 0 with --pseudo or --continue)`,
    )
    .option(
      '--encoder <dir>',
      "encoder methods: a pretrained encoder's local Hugging Face folder (config.json, tokenizer.json, model.safetensors or model.onnx)",
    )
    .option(
      '--layer <n>',
      "encoder methods: the hidden state to align with, 0 = the embeddings' output … L = the last layer (default 8 of 12 layers, round(2/3·L) otherwise)",
    )
    .addOption(
      new Option(
        '--token-type <unit>',
        `SimAlign methods: similarities between subwords, a word pair linked when any of its subwords are (bpe, SimAlign's default), or between words averaged from their subwords (word; default ${ENCODER_DEFAULTS.tokenType})`,
      ).choices(['bpe', 'word'] satisfies EncoderOptions['tokenType'][]),
    )
    .option(
      '--null-align <p>',
      "SimAlign methods: remove the links whose row or column is flattest (normalised entropy), keeping those at or below the corpus's p-quantile of it (default 1: none removed)",
    )
    .option(
      '--distortion <k>',
      'SimAlign methods: similarities times 1 − k·(relative position difference)², favouring links near the diagonal; k in [0, 1] (default 0)',
    )
    .addOption(deviceOption())
    .action(run);
}
