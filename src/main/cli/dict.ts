// `mekong dict compose --dict A --via LANG --dict B --out F [--max-fanout K] [--min-confidence C]`:
// composes two bilingual dictionaries through a pivot language (align/pivot.ts) and writes
// src<TAB>tgt<TAB>confidence, one entry a line, best first per source word: a file that
// `--dict` reads back. A and B are specs as align/dictionary-sources.ts reads them
// (`lo-en:bundled`, `zh-en:cedict`, `th-en:FILE`). Prints one line: entries and source words.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { composeSpecs } from '../align/dictionary-sources.ts';
import { dictionaryTsv } from '../align/dictionary.ts';
import { UserError } from '../errors.ts';
import { type AlignerOptions, cliDefaultDictionaries, fanout } from '../aligners/text-aligner.ts';

/** What a dictionary spec is, for option help. */
export const DICT_SPEC_HELP = 'a file, or xx-yy:FILE naming its languages, or lo-en:bundled (MOPT Lao–English), zh-en:cedict (CC-CEDICT)';

/** The options of `align` and `lexicon` that name the two languages, whose shipped dictionaries are then used. */
export function addLanguageOptions(command: Command): Command {
  return command
    .option(
      '--src-lang <code>',
      "the source side's language (e.g. lo): with --tgt-lang, the dictionaries that ship with Mekong connecting the two are used (directly or through one pivot language)",
    )
    .option('--tgt-lang <code>', "the target side's language (e.g. zh)")
    .option('--no-default-dicts', 'do not use the shipped dictionaries that connect --src-lang and --tgt-lang');
}

/** The one line on stderr saying which dictionaries a run uses (none: nothing printed unless the languages were given). */
export function reportDictionaries(o: AlignerOptions): void {
  const shipped = cliDefaultDictionaries(o).map((d) => d.label);
  const given = (o.dict ?? []).map((d) => `--dict ${d}`).join(o.via ? ` composed through ${o.via} with ` : '; ');
  const parts = [
    given,
    shipped.length ? `shipped for ${o.srcLang}–${o.tgtLang}: ${shipped.join('; ')} (--no-default-dicts leaves them out)` : '',
  ];
  const used = parts.filter(Boolean);
  if (used.length) process.stderr.write(`dictionaries: ${used.join('; ')}\n`);
  else if (o.srcLang !== undefined && o.defaultDicts !== false)
    process.stderr.write(`dictionaries: none (no dictionary that ships with Mekong connects ${o.srcLang} and ${o.tgtLang})\n`);
}

/** Commander's collector of a repeatable option. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

interface ComposeCliOptions {
  dict: string[];
  via: string;
  out: string;
  maxFanout?: string;
  minConfidence?: string;
  lowercase?: boolean;
}

function compose(o: ComposeCliOptions): void {
  if (o.dict.length !== 2) throw new UserError(`dict compose takes two --dict, got ${o.dict.length}`);
  const minConfidence = o.minConfidence === undefined ? undefined : Number(o.minConfidence);
  if (minConfidence !== undefined && !(minConfidence >= 0 && minConfidence <= 1))
    throw new UserError(`--min-confidence must be a number in [0, 1], got "${o.minConfidence}"`);
  const entries = composeSpecs(o.dict[0], o.dict[1], o.via, { maxFanout: fanout(o.maxFanout), minConfidence, lowercase: o.lowercase });
  writeFileSync(o.out, dictionaryTsv(entries));
  const words = new Set(entries.map((e) => e.src)).size;
  console.log(`${entries.length} entries for ${words} source words written to ${o.out}`);
}

export function register(program: Command): void {
  const dict = program.command('dict').description('bilingual dictionaries');
  dict
    .command('compose')
    .description('compose two dictionaries through a pivot language into src<TAB>tgt<TAB>confidence')
    .requiredOption('--dict <spec>', `a dictionary, given twice: source–pivot, then pivot–target (${DICT_SPEC_HELP})`, collect, [])
    .requiredOption('--via <lang>', 'the pivot language, a side of both dictionaries (e.g. en)')
    .requiredOption('--out <file>', 'the composed dictionary (TSV)')
    .option('--max-fanout <k>', 'ignore pivot words with more than k translations in the second dictionary')
    .option('--min-confidence <c>', 'leave out entries below this confidence')
    .option('--lowercase', 'lowercase both sides')
    .action(compose);
}
