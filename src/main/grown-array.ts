// A typed array's entries moved into a bigger one: the one way the readers that collect
// numbers of a count known only at the end (a pair's links as they are decoded, every pair's
// links or token offsets as they are read, the link summaries) grow their arrays.

export type GrowableArray = Int32Array | Uint32Array | Uint8Array | Float32Array | Float64Array;

/** `a` when it holds `need` entries; else a new array of the same type, of max(need, 2 · a.length) entries, starting with a's. */
export function grownFor<A extends GrowableArray>(a: A, need: number): A {
  if (need <= a.length) return a;
  const b = new (a.constructor as new (n: number) => A)(Math.max(need, 2 * a.length));
  b.set(a);
  return b;
}
