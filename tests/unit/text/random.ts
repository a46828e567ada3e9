// Deterministic random strings for property tests (mulberry32 PRNG).

export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 1..maxLength pieces drawn from `alphabet`, joined. */
export function randomString(next: () => number, alphabet: readonly string[], maxLength: number): string {
  const length = 1 + Math.floor(next() * maxLength);
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}
