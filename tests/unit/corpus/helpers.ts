// Shared bits of the corpus tests: where the shared data sets live, collecting a reader's
// output, and asserting the exact InputError (file, line, reason) a reader throws.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { InputError } from '../../../src/main/errors.ts';

/** ../shared/data relative to the repository root (read only). */
export const SHARED = resolve(import.meta.dirname, '../../../../shared/data');
export const FIXTURES = join(import.meta.dirname, 'fixtures');

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Writes `content` (text or bytes) to `dir/name` and returns the path. */
export function put(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Runs `it` to the end and expects InputError(file, line, reason). */
export async function expectInputError(it: AsyncIterable<unknown>, file: string, line: number, reason: string): Promise<void> {
  const err = await collect(it).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  const { file: f, line: l, reason: r } = err as InputError;
  expect({ file: f, line: l, reason: r }).toEqual({ file, line, reason });
}
