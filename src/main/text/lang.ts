// Language codes and script detection. `canonicalLang` maps ISO 639-1/639-3 codes and
// BCP 47 tags (zh-Hant, th_TH) to the short code segmentation keys on; codes we do not know
// resolve by the text's dominant script (`detectLang`). `icuLocale` says whether a language
// goes through ICU word break (scripts written without spaces) or whitespace rules.

/** ISO 639-3 (and a few macrolanguage) codes → the 639-1 code we key on. */
const ALIASES: Record<string, string> = {
  lao: 'lo',
  tha: 'th',
  vie: 'vi',
  zho: 'zh',
  chi: 'zh',
  cmn: 'zh',
  eng: 'en',
  ind: 'id',
  khm: 'km',
  mya: 'my',
  bur: 'my',
  jpn: 'ja',
  zsm: 'ms',
  msa: 'ms',
  may: 'ms',
  fra: 'fr',
  fre: 'fr',
  deu: 'de',
  ger: 'de',
  spa: 'es',
  por: 'pt',
  ita: 'it',
  nld: 'nl',
  dut: 'nl',
  tgl: 'tl',
  fil: 'tl',
  jav: 'jv',
  rus: 'ru',
  kor: 'ko',
  hin: 'hi',
  ara: 'ar',
};

/** Languages written without spaces between words: segmented by ICU. */
const ICU_LANGS = new Set(['th', 'lo', 'km', 'my', 'zh', 'ja']);

/** Space-delimited languages we know; anything else is guessed from the script. */
const SPACE_LANGS = new Set([
  'en',
  'vi',
  'id',
  'ms',
  'fr',
  'de',
  'es',
  'pt',
  'it',
  'nl',
  'tl',
  'jv',
  'ru',
  'ko',
  'hi',
  'ar',
  'tr',
  'pl',
  'cs',
  'sv',
  'da',
  'no',
  'nb',
  'fi',
  'ro',
  'hu',
  'el',
  'uk',
  'ca',
  'su',
]);

/** The short code for `code`, or null when we do not know the language. */
export function canonicalLang(code: string): string | null {
  const primary = code.trim().toLowerCase().split(/[-_]/)[0];
  const lang = ALIASES[primary] ?? primary;
  return ICU_LANGS.has(lang) || SPACE_LANGS.has(lang) ? lang : null;
}

/** True when `lang` (a canonical code) is segmented by ICU word break. */
export function usesIcu(lang: string): boolean {
  return ICU_LANGS.has(lang);
}

/** Resolves `code` to a canonical code, guessing from `text` when the code is unknown. */
export function resolveLang(code: string, text: string): string {
  return canonicalLang(code) ?? detectLang(text);
}

type Script = 'lo' | 'th' | 'km' | 'my' | 'han' | 'kana' | 'latin' | 'viet' | 'other';

function scriptOf(c: number): Script {
  if (c < 0x80) return (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a ? 'latin' : 'other';
  if (c >= 0x0e80 && c <= 0x0eff) return 'lo';
  if (c >= 0x0e00 && c <= 0x0e7f) return 'th';
  if ((c >= 0x1780 && c <= 0x17ff) || (c >= 0x19e0 && c <= 0x19ff)) return 'km';
  if (c >= 0x1000 && c <= 0x109f) return 'my';
  if (c >= 0x3040 && c <= 0x30ff) return 'kana';
  if ((c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0xf900 && c <= 0xfaff)) {
    return 'han';
  }
  if (c >= 0x1ea0 && c <= 0x1ef9) return 'viet';
  // ă Ă đ Đ ơ Ơ ư Ư: Latin letters only Vietnamese uses among our languages.
  if (c === 0x103 || c === 0x102 || c === 0x111 || c === 0x110 || (c >= 0x1a0 && c <= 0x1b0)) {
    return 'viet';
  }
  if (c >= 0xc0 && c <= 0x24f) return 'latin';
  return 'other';
}

function pickDominant(counts: Map<Script, number>): string {
  let best: Script = 'other';
  let bestCount = 0;
  for (const [script, n] of counts) {
    if (script !== 'viet' && script !== 'other' && n > bestCount) [best, bestCount] = [script, n];
  }
  const kana = counts.get('kana') ?? 0;
  const viet = counts.get('viet') ?? 0;
  if (best === 'han' || best === 'kana') return kana > 0 ? 'ja' : 'zh';
  if (best === 'latin' || (best === 'other' && viet > 0)) {
    return viet > 0 && viet >= 0.03 * (bestCount + viet) ? 'vi' : 'und';
  }
  return best === 'other' ? 'und' : best;
}

/**
 * Guesses a language from the dominant script of the first 1000 characters: lo, th, km,
 * my, zh (Han), ja (any kana), vi (Latin with Vietnamese-only letters), else 'und'.
 */
export function detectLang(text: string): string {
  const counts = new Map<Script, number>();
  const n = Math.min(text.length, 1000);
  for (let i = 0; i < n; i++) {
    const script = scriptOf(text.charCodeAt(i));
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return pickDominant(counts);
}

const SCRIPT_NAMES: Record<string, string> = {
  lo: 'Lao',
  th: 'Thai',
  km: 'Khmer',
  my: 'Myanmar',
  zh: 'Chinese (Han)',
  ja: 'Japanese',
  vi: 'Latin (Vietnamese)',
  und: 'Latin (or another)',
};

/**
 * Why `text` does not look written in `lang`, or null when it does (or we cannot tell): the
 * languages written without spaces must show their own script; a Latin-script language must
 * not show one of theirs. Chinese and Japanese are not told apart (kanji-only Japanese).
 */
export function scriptMismatch(lang: string, text: string): string | null {
  const want = canonicalLang(lang);
  if (want === null || text.trim() === '') return null;
  const got = detectLang(text);
  const han = (x: string) => x === 'zh' || x === 'ja';
  if (ICU_LANGS.has(want)) {
    if (got === want || (han(got) && han(want))) return null;
    return `looks like ${SCRIPT_NAMES[got] ?? got} script, not ${SCRIPT_NAMES[want]}`;
  }
  return ICU_LANGS.has(got) ? `looks like ${SCRIPT_NAMES[got]} script, but ${lang} is written in Latin script` : null;
}
