// The dictionaries a language pair gets without asking: every dictionary that ships with
// Mekong (dictionary-sources.ts) and connects the two languages, directly (lo–en: the MOPT
// Lao–English dictionary; zh–en: CC-CEDICT in both scripts) or through one pivot language
// (lo–zh: MOPT and CC-CEDICT composed through English, as `--dict lo-en:bundled --via en
// --dict zh-en:cedict` does). The CLI adds them to --dict when it is told the languages
// (--src-lang/--tgt-lang), and a project's jobs add them to its attached dictionaries, unless
// told not to (--no-default-dicts; the project's "use the shipped dictionaries" setting).
// Seed 003's Lao–Chinese corpus gained 10 points of P@1 with the composed pair (issue 42).
import { canonicalLang } from '../text/lang.ts';
import type { DictEntry } from './dictionary.ts';
import { composeSpecs, loadDictionarySpec, parseDictionarySpec, shippedDictionaries } from './dictionary-sources.ts';

/** One dictionary a pair of languages uses by default: one shipped spec, or two composed through `via`. */
export interface DefaultDictionary {
  /** `xx-yy:source` specs, oriented source language → target language (with `via`: xx-via, via-yy). */
  specs: string[];
  via?: string;
  /** What the logs and the app call it. */
  label: string;
}

const lang = (code: string) => canonicalLang(code) ?? code.trim().toLowerCase();

/** The shipped dictionaries connecting `srcLang` to `tgtLang`, direct ones first; none for a language pair they do not reach. */
export function defaultDictionaries(srcLang: string, tgtLang: string): DefaultDictionary[] {
  const [src, tgt] = [lang(srcLang), lang(tgtLang)];
  if (src === tgt) return [];
  const shipped = shippedDictionaries();
  const joins = (d: (typeof shipped)[number], a: string, b: string) => d.langs.includes(a) && d.langs.includes(b);
  const direct = shipped.filter((d) => joins(d, src, tgt)).map((d) => ({ specs: [`${src}-${tgt}:${d.source}`], label: d.label }));
  const pivots = [...new Set(shipped.flatMap((d) => d.langs))].filter((p) => p !== src && p !== tgt);
  const composed = pivots.flatMap((via) =>
    shipped
      .filter((a) => joins(a, src, via))
      .flatMap((a) =>
        shipped
          .filter((b) => joins(b, via, tgt))
          .map((b) => ({
            specs: [`${src}-${via}:${a.source}`, `${via}-${tgt}:${b.source}`],
            via,
            label: `${a.label} + ${b.label} through ${via}`,
          })),
      ),
  );
  return [...direct, ...composed];
}

/** The entries of a default dictionary, oriented source → target, glosses split into words as --dict splits them. */
function loadDefaultDictionary(d: DefaultDictionary, lowercase: boolean): DictEntry[] {
  if (d.via) return composeSpecs(d.specs[0], d.specs[1], d.via, { lowercase });
  return loadDictionarySpec(parseDictionarySpec(d.specs[0]), 'word', lowercase);
}

/**
 * `own` (a user's dictionaries) followed by the entries of each of `shipped` whose word pair
 * no dictionary before it has: a pair in several dictionaries (CC-CEDICT's simplified and
 * traditional headwords are often the same) counts once, with the first one's weights, while
 * a dictionary's own entries stay as --dict reads them (one per sense of a headword).
 */
export function mergedEntries(own: readonly DictEntry[], shipped: readonly DefaultDictionary[], lowercase = false): DictEntry[] {
  const key = (e: DictEntry) => `${e.src}\t${e.tgt}`;
  const seen = new Set(own.map(key));
  const out = [...own];
  for (const d of shipped) {
    const added = loadDefaultDictionary(d, lowercase).filter((e) => !seen.has(key(e)));
    for (const e of added) {
      seen.add(key(e));
      out.push(e);
    }
  }
  return out;
}
