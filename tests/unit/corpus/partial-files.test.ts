// All-or-nothing output files: a file is written as `<name>.partial-<pid>` and renamed when
// complete; what a killed export left (its process gone) is removed by the next file written
// into the same folder, while a live writer's partial file is left alone.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { writeMoses } from '../../../src/main/corpus/moses.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-partial-');

test("the next write into a folder removes a killed writer's partial files, never a live one's", async () => {
  // A process that has ended: its pid names no live process (until the OS reuses it).
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(join(dir, `old.en.partial-${dead}`), 'half a file');
  writeFileSync(join(dir, `old.vi.partial-${dead}`), 'half a file');
  // A live writer: this test's parent process.
  writeFileSync(join(dir, `busy.en.partial-${process.ppid}`), 'being written');
  writeFileSync(join(dir, 'notes.partial-draft.txt'), 'not ours');

  await writeMoses([{ line: 1, src: 'a b', tgt: 'x y' }], join(dir, 'new.en'), join(dir, 'new.vi'));
  expect(readdirSync(dir).sort()).toEqual(['busy.en.partial-' + process.ppid, 'new.en', 'new.vi', 'notes.partial-draft.txt']);
  expect(readFileSync(join(dir, 'new.vi'), 'utf8')).toBe('x y\n');
});
