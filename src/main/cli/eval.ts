// `mekong eval …`: evaluation commands. This file owns the `eval` group.
//   mekong eval aer --gold G --pred P [--gold-one-based] [--pred-one-based] [--ignore-possible]
//       predicted word alignments against gold (sure/possible; eval/aer.ts)
//   mekong eval p1 --lexicon L --dict D [--src S --tgt T]   (word-translation P@1, eval/p1.ts;
//       with S and T, seeds 002/003's protocol: the words of S in the dictionary with a
//       translation occurring in T)
//   mekong eval retrieval --src S --tgt T --encoder KIND:DIR [--pooling cls|mean] [--layer L] [--head H]
//       sentence retrieval P@1 and P@5 both ways, Tatoeba's protocol: line i of S and of T are
//       each other's answer, candidates ranked by cosine (eval/retrieval.ts)
//   mekong eval mining --pred P --gold G [--fit-on TRAIN_PRED TRAIN_GOLD | --threshold x]
//       mined pairs against gold pairs, BUCC's protocol (eval/mining-score.ts)
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { alignedPair } from '../../shared/link-set.ts';
import { scoreAer } from '../eval/aer.ts';
import { parsePharaohText } from '../corpus/pharaoh.ts';
import { parseDictionary, parseLexicon, scoreP1 } from '../eval/p1.ts';
import { toArrays } from '../align/sentences.ts';
import { readParallel } from '../align/text-io.ts';
import { InputError, UserError } from '../errors.ts';
import { retrievalAccuracy } from '../eval/retrieval.ts';
import { fitMiningThreshold, parseGoldPairs, parseMinedPairs, scoreMining } from '../eval/mining-score.ts';
import { numberOption } from './number-option.ts';
import { interruptSignal, withProgressBar } from './progress-bar.ts';
import { embedBothSides, type SentenceEncoderFlags, sentenceEncoderOptions } from './sentence-encoder-options.ts';

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(file, 0, `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

interface AerOptions {
  gold: string;
  pred: string;
  goldOneBased?: boolean;
  predOneBased?: boolean;
  ignorePossible?: boolean;
  json?: boolean;
}

function aer(o: AerOptions): void {
  const gold = parsePharaohText(read(o.gold), o.goldOneBased ? 1 : 0, o.gold).map(alignedPair);
  const pred = parsePharaohText(read(o.pred), o.predOneBased ? 1 : 0, o.pred);
  if (gold.length !== pred.length) {
    throw new InputError(o.pred, 0, `has ${pred.length} lines but ${o.gold} has ${gold.length}; line counts must match`);
  }
  const s = scoreAer(
    gold,
    pred.map((p) => p.map((l): [number, number] => [l.s, l.t])),
    { ignorePossible: o.ignorePossible },
  );
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  process.stdout.write(
    o.json
      ? JSON.stringify(s) + '\n'
      : `AER ${pct(s.aer)}  precision ${pct(s.precision)}  recall ${pct(s.recall)}  F1 ${pct(s.f1)}  over ${s.pairs} pairs\n`,
  );
}

interface P1Options {
  lexicon: string;
  dict: string;
  src?: string;
  tgt?: string;
}

function p1(o: P1Options): void {
  if (!o.src !== !o.tgt) throw new InputError(o.src ?? o.tgt!, 0, '--src and --tgt go together');
  const text = o.src && o.tgt ? readParallel(o.src, o.tgt) : undefined;
  const corpus = text && { src: toArrays(text.src), tgt: toArrays(text.tgt) };
  const s = scoreP1(parseLexicon(read(o.lexicon), o.lexicon), parseDictionary(read(o.dict), o.dict), corpus);
  process.stdout.write(JSON.stringify(s) + '\n');
}

interface RetrievalOptions extends SentenceEncoderFlags {
  src: string;
  tgt: string;
  lowercase?: boolean;
  json?: boolean;
}

async function retrieval(o: RetrievalOptions): Promise<void> {
  const text = readParallel(o.src, o.tgt);
  const lower = (side: string[][]) => (o.lowercase ? side.map((x) => x.map((w) => w.toLowerCase())) : side);
  const [src, tgt] = [lower(toArrays(text.src)), lower(toArrays(text.tgt))];
  if (src.length === 0) throw new InputError(o.src, 0, 'no sentences');
  const signal = interruptSignal();
  const encoder = await embedBothSides(o, src, tgt, signal);
  const r = await withProgressBar('nearest neighbours', (ctx) => retrievalAccuracy(encoder.x, encoder.y, encoder.dim, [1, 5], ctx), signal);
  const f3 = (v: number) => v.toFixed(3);
  process.stdout.write(
    o.json
      ? JSON.stringify({
          p1: { src_tgt: r.forward[1], tgt_src: r.backward[1] },
          p5: { src_tgt: r.forward[5], tgt_src: r.backward[5] },
          pairs: src.length,
        }) + '\n'
      : `src→tgt P@1 ${f3(r.forward[1])} P@5 ${f3(r.forward[5])}, tgt→src P@1 ${f3(r.backward[1])} P@5 ${f3(r.backward[5])} over ${src.length} pairs (${encoder.spec})\n`,
  );
}

interface MiningOptions {
  pred: string;
  gold: string;
  fitOn?: string[];
  threshold?: string;
  json?: boolean;
}

function mining(o: MiningOptions): void {
  if (o.fitOn !== undefined && o.fitOn.length !== 2)
    throw new UserError(`--fit-on takes two files, the train split's proposed pairs and its gold pairs; got ${o.fitOn.length}`);
  if (o.fitOn && o.threshold !== undefined) throw new UserError('--fit-on finds the threshold: give it or --threshold, not both');
  const fit =
    o.fitOn && fitMiningThreshold(parseMinedPairs(read(o.fitOn[0]), o.fitOn[0]), parseGoldPairs(read(o.fitOn[1]), o.fitOn[1]), o.fitOn[0]);
  const threshold = fit
    ? fit.threshold
    : o.threshold === undefined
      ? undefined
      : numberOption('--threshold', o.threshold, Number.isFinite, 'a number');
  const s = scoreMining(parseMinedPairs(read(o.pred), o.pred), parseGoldPairs(read(o.gold), o.gold), o.pred, threshold);
  const fitted = fit && { threshold: fit.threshold, precision: fit.precision, recall: fit.recall, f1: fit.f1 };
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  process.stdout.write(
    o.json
      ? JSON.stringify({ ...s, ...(threshold === undefined ? {} : { threshold }), ...(fitted ? { fit: fitted } : {}) }) + '\n'
      : (fit ? `threshold ${fit.threshold.toFixed(4)} fitted on ${o.fitOn![0]} (F1 there ${pct(fit.f1)})\n` : '') +
          `precision ${pct(s.precision)}  recall ${pct(s.recall)}  F1 ${pct(s.f1)}  (${s.correct} of ${s.proposed} pairs kept are gold; ${s.gold} gold pairs)\n`,
  );
}

/** The `eval` command group; other evaluations add their subcommands here. */
export function register(program: Command): void {
  const group = program.command('eval').description('evaluate aligners and models');
  group
    .command('aer')
    .description('alignment error rate, precision, recall and F1 against gold links')
    .requiredOption('--gold <file>', 'gold links: i-j sure, i?j or ipj possible')
    .requiredOption('--pred <file>', 'predicted links (Pharaoh)')
    .option('--gold-one-based', 'gold indices start at 1')
    .option('--pred-one-based', 'predicted indices start at 1')
    .option(
      '--ignore-possible',
      "score against the gold's sure links alone (its possible links taken as absent: a predicted link there counts as wrong)",
    )
    .option('--json', 'print the figures as JSON (default: one readable line)')
    .action(aer);
  group
    .command('p1')
    .description('word-translation precision at 1 of a lexicon against a dictionary')
    .requiredOption('--lexicon <file>', 'src<TAB>tgt<TAB>score lines')
    .requiredOption('--dict <file>', 'src<TAB>tgt lines, several per word allowed')
    .option(
      '--src <file>',
      "source sentences: evaluate only their words (seeds 002/003's protocol: the source vocabulary's dictionary words with a translation in --tgt)",
    )
    .option('--tgt <file>', 'target sentences: evaluate only words with a dictionary translation occurring here')
    .action(p1);
  sentenceEncoderOptions(
    group
      .command('retrieval')
      .description(
        "sentence retrieval accuracy (P@1, P@5) both ways, Tatoeba's protocol: line i of --src and of --tgt are each other's answer, cosine similarity",
      )
      .requiredOption('--src <file>', 'source sentences, one pre-tokenised sentence per line')
      .requiredOption('--tgt <file>', 'their translations, line for line'),
  )
    .option('--lowercase', 'lowercase all sentences (as the encoder was trained)')
    .option('--json', 'print {"p1": {"src_tgt", "tgt_src"}, "p5": {…}, "pairs"} (default: one readable line)')
    .action(retrieval);
  group
    .command('mining')
    .description("mined sentence pairs against gold pairs, BUCC's protocol: precision, recall, F1 (threshold fitted on a train split)")
    .requiredOption('--pred <file>', 'proposed pairs: src_id<TAB>tgt_id[<TAB>score] lines (what `mekong mine` writes)')
    .requiredOption('--gold <file>', 'gold pairs: src_id<TAB>tgt_id lines')
    .option(
      '--fit-on <files...>',
      "the train split's proposed pairs and gold pairs (two files): the threshold of best F1 there is applied to --pred",
    )
    .option('--threshold <x>', 'keep the proposed pairs scoring at least x (default: all of them)')
    .option('--json', 'print the figures as JSON')
    .action(mining);
}
