// Typed arrays to and from files, as raw bytes in the machine's order (temporary files that
// the same process reads back: the corpus blocks of corpus-file.ts, the links of decode.ts).
import { readSync, writeSync } from 'node:fs';

export type Typed = Int32Array | Uint16Array | Uint8Array | Float32Array;

function bytes(a: Typed, count: number): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, count * a.BYTES_PER_ELEMENT);
}

/** Appends a[0 .. count) to fd; returns the bytes written. */
export function writeAll(fd: number, a: Typed, count: number): number {
  const b = bytes(a, count);
  for (let done = 0; done < b.length;) done += writeSync(fd, b, done, b.length - done);
  return b.length;
}

/** Reads count elements into a from byte `at` of fd; returns the byte after them. */
export function readAll(fd: number, a: Typed, count: number, at: number): number {
  const b = bytes(a, count);
  for (let done = 0; done < b.length;) {
    const got = readSync(fd, b, done, b.length - done, at + done);
    if (got === 0) throw new Error('temporary file ended early');
    done += got;
  }
  return at + b.length;
}
