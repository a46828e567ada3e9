// The one model folder (nn/model-folder.ts): config.json with the family's header,
// model.safetensors, the family's files; a save replaces the previous folder whole or not at
// all (a save that fails half-way leaves the old folder as it was, and no temporary folder);
// a folder holding anything else is refused; a damaged folder is one line naming the file.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { UserError } from '../../../src/main/errors.ts';
import { type FolderFamily, folderJson, folderTensor, loadModelFolder, saveModelFolder } from '../../../src/main/nn/model-folder.ts';
import { readSafetensors } from '../../../src/main/nn/safetensors.ts';
import { Tensor } from '../../../src/main/nn/tensor.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-folder-');
const family: FolderFamily = { family: 'toy', version: 2, files: ['vocab.json'] };
const tensors = (fill: number) =>
  new Map<string, Tensor>([
    ['w', new Tensor('float32', new Float32Array(6).fill(fill), [2, 3])],
    ['ids', new Tensor('int32', Int32Array.from([7, -1]), [2])],
  ]);
const save = (folder: string, fill: number) =>
  saveModelFolder(folder, family, { config: { size: 3 }, tensors: tensors(fill), files: new Map([['vocab.json', '["a","b"]']]) });

test('config.json carries the header, model.safetensors the tensors, the family its files', () => {
  const folder = join(dir, 'plain');
  save(folder, 0.5);
  expect(readdirSync(folder).sort()).toEqual(['config.json', 'model.safetensors', 'vocab.json']);
  expect(JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'))).toEqual({
    format: 'mekong-model-folder',
    family: 'toy',
    version: 2,
    size: 3,
  });
  expect(readSafetensors(join(folder, 'model.safetensors')).metadata).toEqual({ format: 'pt' });
  const back = loadModelFolder<{ size: number }>(folder, family);
  expect(back.config.size).toBe(3);
  expect(folderJson<string[]>(back, 'vocab.json')).toEqual(['a', 'b']);
  expect(Array.from(folderTensor(back, 'w', 'float32', [2, 3]).data as Float32Array)).toEqual(new Array(6).fill(0.5));
  expect(Array.from(folderTensor(back, 'ids', 'int32', [2]).data as Int32Array)).toEqual([7, -1]);
  expect(back.optimizer).toBeNull();
});

test('a save replaces the previous folder whole; one that fails half-way leaves it as it was', () => {
  const folder = join(dir, 'replaced');
  save(folder, 1);
  writeFileSync(join(folder, 'stale.txt'), 'from an older save');
  save(folder, 2);
  expect(existsSync(join(folder, 'stale.txt'))).toBe(false);
  expect(loadModelFolder(folder, family).tensors.get('w')!.data[0]).toBe(2);
  // model.safetensors is written, then a file fails
  expect(() => saveModelFolder(folder, family, { config: {}, tensors: tensors(3), files: new Map([['no/such/dir', 'x']]) })).toThrow();
  expect(loadModelFolder(folder, family).tensors.get('w')!.data[0]).toBe(2);
  expect(readdirSync(dir).filter((n) => n.startsWith('replaced'))).toEqual(['replaced']);
  expect(() =>
    saveModelFolder(folder, family, { config: {}, tensors: tensors(4) }, () => {
      throw new Error('killed');
    }),
  ).toThrow('killed');
  expect(loadModelFolder(folder, family).tensors.get('w')!.data[0]).toBe(2);
  // a path with a trailing slash: the temporary folder is still beside it
  save(`${folder}/`, 5);
  expect(loadModelFolder(folder, family).tensors.get('w')!.data[0]).toBe(5);
  expect(readdirSync(folder).sort()).toEqual(['config.json', 'model.safetensors', 'vocab.json']);
  expect(readdirSync(dir).filter((n) => n.startsWith('replaced'))).toEqual(['replaced']);
});

test('a save killed at any moment leaves a whole folder, the previous one or the new one', async () => {
  const folder = join(dir, 'killed');
  const script = join(dir, 'saver.mts');
  const src = (f: string) => JSON.stringify(resolve('src/main/nn', f));
  writeFileSync(
    script,
    `import { saveModelFolder } from ${src('model-folder.ts')};
import { Tensor } from ${src('tensor.ts')};
for (let k = 1; ; k++) {
  const w = new Float32Array(1_000_000).fill(k);
  const tensors = new Map([['w', new Tensor('float32', w, [w.length])]]);
  saveModelFolder(${JSON.stringify(folder)}, ${JSON.stringify(family)}, { config: { k }, tensors, files: new Map([['vocab.json', String(k)]]) });
  process.stdout.write(k + '\\n');
}
`,
  );
  // Killed after its second save, at 0 and 7 ms into the following ones.
  for (const wait of [0, 7]) {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const saved = new Promise<boolean>((done) => {
      child.stdout.on('data', (d: Buffer) => (out += d) && out.split('\n').length > 2 && done(true));
      child.on('exit', () => done(false));
    });
    expect(await saved).toBe(true);
    await new Promise((r) => setTimeout(r, wait));
    child.kill('SIGKILL');
    await once(child, 'exit');
    const back = loadModelFolder<{ k: number }>(folder, family);
    const w = back.tensors.get('w')!.data as Float32Array;
    expect(back.config.k).toBeGreaterThanOrEqual(2);
    expect(folderJson(back, 'vocab.json')).toBe(back.config.k);
    expect([w.length, w[0], w[w.length - 1]]).toEqual([1_000_000, back.config.k, back.config.k]);
  }
}, 60_000);

test('a folder holding something else is not overwritten', () => {
  const mine = join(dir, 'documents');
  mkdirSync(mine);
  writeFileSync(join(mine, 'thesis.txt'), 'keep me');
  expect(() => save(mine, 1)).toThrow(/documents: not empty and not a model folder/);
  expect(readFileSync(join(mine, 'thesis.txt'), 'utf8')).toBe('keep me');
  expect(() => save(join(mine, 'thesis.txt'), 1)).toThrow(/thesis\.txt: a file, not a folder/);
});

test('a damaged folder is one line naming the file', () => {
  const oneLine = (f: () => unknown, pattern: RegExp) => {
    let err: unknown;
    try {
      f();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(pattern);
    expect((err as Error).message).not.toContain('\n');
  };
  const folder = join(dir, 'damaged');
  save(folder, 1);
  const load = () => loadModelFolder(folder, family);
  // the wrong family, a newer version
  oneLine(() => loadModelFolder(folder, { ...family, family: 'other' }), /config\.json: a toy model, not other$/);
  oneLine(() => loadModelFolder(folder, { ...family, version: 1 }), /config\.json: toy version 2 is not one this Mekong reads/);
  // a missing tensor, a wrong shape or dtype
  oneLine(() => folderTensor(load(), 'u', 'float32', [2, 3]), /damaged\/model\.safetensors: missing tensor u$/);
  oneLine(
    () => folderTensor(load(), 'w', 'float32', [3, 2]),
    /model\.safetensors: tensor w has shape \[2, 3\] but the folder's config implies \[3, 2\]/,
  );
  oneLine(() => folderTensor(load(), 'ids', 'float32', [2]), /model\.safetensors: tensor ids is int32, not float32/);
  // a truncated safetensors file, a missing family file, config.json not JSON or missing
  truncateSync(join(folder, 'model.safetensors'), 100);
  oneLine(load, /damaged\/model\.safetensors: .*truncated\?/);
  save(folder, 1);
  rmSync(join(folder, 'vocab.json'));
  oneLine(load, /damaged\/vocab\.json: missing$/);
  save(folder, 1);
  writeFileSync(join(folder, 'vocab.json'), '["a",');
  oneLine(() => folderJson(load(), 'vocab.json'), /vocab\.json: not JSON/);
  save(folder, 1);
  writeFileSync(join(folder, 'config.json'), '{"format":');
  oneLine(load, /damaged\/config\.json: not a model folder's config/);
  oneLine(() => loadModelFolder(join(dir, 'nowhere'), family), /nowhere\/config\.json: missing$/);
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  oneLine(() => loadModelFolder(empty, family), /empty\/config\.json: missing$/);
});
