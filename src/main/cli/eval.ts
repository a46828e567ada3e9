// `mekong eval …`: evaluation commands. This file owns the `eval` group; `eval aer` scores
// predicted word alignments against gold (sure/possible) and prints one JSON line.
//   mekong eval aer --gold G --pred P [--gold-one-based] [--pred-one-based]
//   mekong eval p1 --lexicon L --dict D [--src S --tgt T]   (word-translation P@1, eval/p1.ts)
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { alignedPair } from '../../shared/link-set.ts';
import { scoreAer } from '../eval/aer.ts';
import { parsePharaohText } from '../corpus/pharaoh.ts';
import { parseDictionary, parseLexicon, scoreP1 } from '../eval/p1.ts';
import { toArrays } from '../align/sentences.ts';
import { readParallel } from '../align/text-io.ts';
import { InputError } from '../errors.ts';

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
    .option('--json', 'print the figures as JSON (default: one readable line)')
    .action(aer);
  group
    .command('p1')
    .description('word-translation precision at 1 of a lexicon against a dictionary')
    .requiredOption('--lexicon <file>', 'src<TAB>tgt<TAB>score lines')
    .requiredOption('--dict <file>', 'src<TAB>tgt lines, several per word allowed')
    .option('--src <file>', 'source sentences: evaluate only their words')
    .option('--tgt <file>', 'target sentences: with a translation occurring here')
    .action(p1);
}
