// A corpus side as the statistical aligners read it: sentence k's tokens on demand. A parallel
// text read from files (text-io.ts) keeps only its lines and splits one when asked, so a
// 100k-pair corpus does not hold its 3.1M token strings for the whole run (about 200 MB of
// dup100k's peak); arrays of token arrays, as the app and the tests pass them, are sides too.
export interface Sentences {
  readonly length: number;
  /** The tokens of sentence k. */
  tokens(k: number): readonly string[];
  /** How many tokens sentence k has, without making them. */
  size(k: number): number;
}

export type Side = Sentences | readonly (readonly string[])[];

/** A side as Sentences (arrays are wrapped, not copied). */
export function sentences(side: Side): Sentences {
  if (!Array.isArray(side)) return side as Sentences;
  const a = side as readonly (readonly string[])[];
  return { length: a.length, tokens: (k) => a[k], size: (k) => a[k].length };
}

/** The same sentences with every token lowercased. */
export function lowercased(s: Sentences): Sentences {
  return { length: s.length, tokens: (k) => s.tokens(k).map((w) => w.toLowerCase()), size: (k) => s.size(k) };
}

/** Every sentence's tokens as arrays (for the methods that keep them all). */
export function toArrays(side: Side): string[][] {
  if (Array.isArray(side)) return side as string[][];
  const s = side as Sentences;
  return Array.from({ length: s.length }, (_, k) => [...s.tokens(k)]);
}
