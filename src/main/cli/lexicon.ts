// `mekong lexicon` and the neural branch of `mekong align`.
//   mekong lexicon --src S --tgt T --out L [--method M] [--epochs N] [--lowercase]
// L gets each source word's best translations, src<TAB>tgt<TAB>score, up to 5 per word,
// best first: for statistical methods p(t | s) from the trained forward table, for neural
// methods CSLS over type embeddings (align/neural/lexicon.ts).
//   mekong align --method bilstm-ctl [--epochs N] [--gold G] …  trains on S/T (G: Pharaoh
// gold links of the first pairs, used as supervision) and aligns.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Link } from '../../shared/domain.ts';
import { alignCorpus } from '../align/engine.ts';
import { neuralLexicon, type LexiconEntry } from '../align/neural/lexicon.ts';
import { isNeuralMethod, runNeuralMethod } from '../align/neural/method.ts';
import type { SavedModel } from '../align/saved-model.ts';
import { readParallel } from '../align/text-io.ts';
import { parsePharaoh } from '../eval/pharaoh.ts';
import { UserError } from '../errors.ts';

const PER_WORD = 5;

export interface NeuralCliOptions {
  method: string;
  epochs?: string;
  gold?: string;
  sym?: string;
}

function epochs(o: { epochs?: string }): { epochs?: number } {
  if (o.epochs === undefined) return {};
  const n = Number(o.epochs);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--epochs must be a positive integer, got "${o.epochs}"`);
  return { epochs: n };
}

function readGold(file: string, pairs: number): { s: number; t: number }[][] {
  const gold = parsePharaoh(readFileSync(file, 'utf8'), 0, file);
  if (gold.length > pairs) throw new UserError(`${file} has ${gold.length} lines but the corpus has ${pairs} pairs`);
  return gold.map((g) => [...g.sure, ...g.possible].map(([s, t]) => ({ s, t })));
}

/** The neural branch of `align`: links per pair. */
export async function alignNeuralCli(src: string[][], tgt: string[][], o: NeuralCliOptions): Promise<Link[][]> {
  const gold = o.gold ? readGold(o.gold, src.length) : undefined;
  const r = await runNeuralMethod(o.method, { src, tgt, gold }, epochs(o), { sym: o.sym });
  return r.links;
}

function statLexicon(m: SavedModel): LexiconEntry[] {
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
  lowercase?: boolean;
}

async function run(o: LexiconCliOptions): Promise<void> {
  const read = readParallel(o.src, o.tgt);
  const lower = (side: string[][]) => (o.lowercase ? side.map((s) => s.map((w) => w.toLowerCase())) : side);
  const src = lower(read.src), tgt = lower(read.tgt);
  let entries: LexiconEntry[];
  if (isNeuralMethod(o.method)) {
    const r = await runNeuralMethod(o.method, { src, tgt }, epochs(o));
    entries = neuralLexicon(src, tgt, r.embeddings, PER_WORD);
  } else {
    entries = statLexicon((await alignCorpus(src, tgt, { method: o.method })).model);
  }
  writeFileSync(o.out, entries.map((e) => `${e.src}\t${e.tgt}\t${e.score.toPrecision(6)}\n`).join(''));
}

export function register(program: Command): void {
  program
    .command('lexicon')
    .description('word translations learned from a parallel text, src<TAB>tgt<TAB>score, best first')
    .requiredOption('--src <file>', 'source sentences')
    .requiredOption('--tgt <file>', 'target sentences')
    .requiredOption('--out <file>', 'lexicon file')
    .option('--method <name>', 'ibm1|ibm2|hmm|agree|bilstm-ctl|bilstm', 'bilstm-ctl')
    .option('--epochs <n>', 'training epochs (neural methods)')
    .option('--lowercase', 'lowercase both sides')
    .action(run);
}
