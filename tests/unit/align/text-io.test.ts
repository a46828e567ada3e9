// A parallel text read from files gives the lines and tokens that splitting its text would.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readLines, readParallel, tokenize } from '../../../src/main/align/text-io.ts';

test('readParallel keeps the lines of readLines: CRLF, blank lines, tabs, UTF-8, no final newline', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-text-io-'));
  const src = join(dir, 'src.txt'),
    tgt = join(dir, 'tgt.txt');
  writeFileSync(src, 'Ça  va\r\n\n\tສະບາຍດີ ບໍ່\r\nend');
  writeFileSync(tgt, 'how are\nyou\n\nok\n');
  const { src: s, tgt: t } = readParallel(src, tgt);
  for (const [side, file] of [
    [s, src],
    [t, tgt],
  ] as const) {
    const lines = readLines(file);
    expect(side.length).toBe(lines.length);
    lines.forEach((l, k) => {
      expect(side.tokens(k)).toEqual(tokenize(l));
      expect(side.size(k)).toBe(tokenize(l).length);
    });
  }
  expect(s.tokens(2)).toEqual(['ສະບາຍດີ', 'ບໍ່']);
});

test('line counts must match', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-text-io-'));
  writeFileSync(join(dir, 'a'), 'x\ny\n');
  writeFileSync(join(dir, 'b'), 'x\n');
  expect(() => readParallel(join(dir, 'a'), join(dir, 'b'))).toThrow(/has 1 lines but .* has 2/);
});
