// Code run inside the page under test, as expression strings (the Node-side tsconfig has
// no DOM types). Each returns plain JSON-able data.

export interface GlyphProbe {
  /** Width of a base letter, then of the same letter plus a combining vowel mark. */
  base: number;
  marked: number;
  /** Width of a word in the page's own font stack for the language, and in the bundled family alone. */
  word: number;
  wordInFamily: number;
  /** Faces of the family the page has actually loaded. */
  loadedFaces: number;
  check: boolean;
}

/**
 * Measures how text in `lang` renders with the page's own font stack. With a real font a
 * combining mark adds no advance width; a missing glyph is drawn as a box that does. A
 * word measures the same in the page's stack as in the bundled family alone when that
 * family is what draws it.
 */
export function glyphProbe(lang: string, family: string, base: string, mark: string, word: string): string {
  const args = JSON.stringify({ lang, family, base, mark, word });
  return `(async ({ lang, family, base, mark, word }) => {
    const width = (text, fontFamily = '') => {
      const s = document.createElement('span');
      s.lang = lang;
      s.textContent = text;
      s.style.cssText = 'position:absolute;left:0;top:0;visibility:hidden;white-space:pre;font-size:32px';
      if (fontFamily) s.style.fontFamily = fontFamily;
      document.body.append(s);
      const w = s.getBoundingClientRect().width;
      s.remove();
      return w;
    };
    width(base + mark + word);
    await document.fonts.ready;
    const loadedFaces = [...document.fonts].filter((f) => f.family.replace(/["']/g, '') === family && f.status === 'loaded').length;
    return {
      base: width(base), marked: width(base + mark), word: width(word), wordInFamily: width(word, '"' + family + '"'),
      loadedFaces, check: document.fonts.check('16px "' + family + '"', base),
    };
  })(${args})`;
}

/** The page's Content-Security-Policy <meta> content. */
export const cspMeta = `document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null`;

/** The address bar's current URL (the token must be gone from it). */
export const currentUrl = 'location.href';

/** What sessionStorage keeps of the token. */
export const storedToken = `sessionStorage.getItem('mekong.token')`;
