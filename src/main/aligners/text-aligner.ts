// What every family's aligner does with a parallel text, as `mekong align` and `mekong
// lexicon` run it: align it (training on it, or with a saved model) into links with scores,
// or learn a word-translation lexicon from it; the options those commands parse, and the
// option readers more than one family shares (the dictionaries of --dict and those that ship
// for --src-lang/--tgt-lang, --epochs).
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { Link } from '../../shared/domain.ts';
import type { DictEntry } from '../align/dictionary.ts';
import { dictionaryFromOptions } from '../align/dictionary-sources.ts';
import { defaultDictionaries, type DefaultDictionary, mergedEntries } from '../align/default-dictionaries.ts';
import type { Side } from '../align/sentences.ts';
import { UserError } from '../errors.ts';
import type { JobContext } from '../jobs/job-context.ts';
import type { DictionaryUse } from '../models/bilstm/method.ts';
import type { LexiconEntry } from '../models/bilstm/word-translations.ts';
import type { CharSides } from '../text/han-characters.ts';

/** Translations a lexicon lists per source word, best first. */
export const PER_WORD = 5;

/** Every option of `align` and `lexicon`, as commander parses them; each family reads its own (registry.ts) and the CLI refuses the others. */
export interface AlignerOptions {
  sym?: string;
  threshold?: string;
  saveModel?: string;
  model?: string;
  dict?: string[];
  via?: string;
  maxFanout?: string;
  /** The languages of the two sides: the shipped dictionaries connecting them are used (default-dictionaries.ts). */
  srcLang?: string;
  tgtLang?: string;
  /** false (`--no-default-dicts`): the shipped dictionaries are not added. */
  defaultDicts?: boolean;
  dictUse?: DictionaryUse;
  byCharacter?: CharSides;
  lowercase?: boolean;
  epochs?: string;
  gold?: string;
  weights?: string;
  wordDropout?: string;
  /** the BiLSTM's learning rate, batch size, seed, contrastive negatives and pooling (seed 003's settings) */
  lr?: string;
  batch?: string;
  seed?: string;
  negatives?: string;
  pooling?: string;
  /** the contrastive loss's projection heads: shared, or separate g_q and g_k (seed 003 eq. 11) */
  heads?: string;
  /** `lexicon`: how translations are read from the trained model (the family's default, csls or nn over the whole vocabularies) */
  extraction?: string;
  heldOut?: string;
  continue?: string;
  pseudo?: string;
  pseudoThreshold?: string;
  selfTrain?: string;
  device?: DeviceSetting;
  encoder?: string;
  layer?: string;
  /** SimAlign's --token-type, --null-align and --distortion (encoder family) */
  tokenType?: string;
  nullAlign?: string;
  distortion?: string;
}

/** A progress display (the CLI's terminal bar, cli/progress-bar.ts withProgressBar): runs one phase labelled `label` with its context, cleared when the phase ends. */
export type ProgressDisplay = <T>(label: string, work: (ctx: JobContext) => Promise<T>) => Promise<T>;

/** What a family does with a text; a command its capabilities lack is refused by the registry before it loads. */
export interface TextAligner {
  /** Links per pair in pair order (score: the link's confidence), trained on these pairs unless `model` names a saved one; read once. */
  align?(src: Side, tgt: Side, o: AlignerOptions, display: ProgressDisplay): Promise<Iterable<Link[]>>;
  /** Up to PER_WORD translations per source word, best first. */
  lexicon?(src: Side, tgt: Side, o: AlignerOptions, display: ProgressDisplay): Promise<LexiconEntry[]>;
}

/** A family's aligner for one of its method names. */
export type TextAlignerFactory = (method: string) => TextAligner;

/** --max-fanout: a positive whole number. */
export function fanout(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--max-fanout must be a positive whole number, got "${v}"`);
  return n;
}

/** The shipped dictionaries `o` uses: those connecting --src-lang and --tgt-lang, unless --no-default-dicts. */
export function cliDefaultDictionaries(o: AlignerOptions): DefaultDictionary[] {
  if ((o.srcLang === undefined) !== (o.tgtLang === undefined))
    throw new UserError('--src-lang and --tgt-lang go together: give the languages of both sides');
  if (o.srcLang === undefined || o.tgtLang === undefined || o.defaultDicts === false) return [];
  return defaultDictionaries(o.srcLang, o.tgtLang);
}

/** cliDictionary's answer per options object: a run asks more than once, and CC-CEDICT takes a second to read. */
const dictionaries = new WeakMap<AlignerOptions, Map<boolean, DictEntry[] | undefined>>();

/**
 * The dictionary of --dict (repeatable), --via and --max-fanout, with the shipped ones of
 * cliDefaultDictionaries (an entry in both counted once); undefined when there is none.
 */
export function cliDictionary(o: AlignerOptions, lowercase: boolean): DictEntry[] | undefined {
  const known = dictionaries.get(o) ?? dictionaries.set(o, new Map()).get(o)!;
  if (known.has(lowercase)) return known.get(lowercase);
  const given = dictionaryFromOptions(o.dict, o.via, { lowercase, maxFanout: fanout(o.maxFanout) });
  const shipped = cliDefaultDictionaries(o);
  const entries = shipped.length ? mergedEntries(given ?? [], shipped, lowercase) : given;
  known.set(lowercase, entries);
  return entries;
}

/** --extraction: one of a family's extractions (the first when not given); another value is a one-line error listing them. */
export function extractionOption<T extends string>(v: string | undefined, method: string, known: readonly T[]): T {
  if (v === undefined) return known[0];
  if (!known.includes(v as T)) throw new UserError(`--extraction of ${method} must be one of ${known.join(', ')}, got "${v}"`);
  return v as T;
}

/** --epochs: a positive whole number, or undefined when not given. */
export function epochsOption(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--epochs must be a positive integer, got "${v}"`);
  return n;
}
